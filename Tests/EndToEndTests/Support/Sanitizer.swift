import Foundation

/// Whether the tests run under a sanitizer (`scripts/sanitize`,
/// docs/testing.md#sanitizers), where the agent and the tests run two to ten
/// times slower and take several times the memory.
enum Sanitizer {
    /// `thread` or `address` under `scripts/sanitize`, else `nil`.
    static let name = ProcessInfo.processInfo.environment["SYNC_AGENT_TEST_SANITIZER"]

    /// How many times longer a wait for something observable may take: 4 under a
    /// sanitizer, else 1. A longer wait only delays a failure, never hides one.
    static let slowdown = name == nil ? 1 : 4
}
