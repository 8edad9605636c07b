import Foundation

/// The system's wall clock and random numbers: the one place below the
/// command line that reads them (docs/architecture.md#context-in-no-hidden-clocks).
/// Everything else is handed them: a store at its initializer, the engine
/// and each sync in their context, so that tests can hand in others.
public enum SystemSources {
    /// The wall-clock time now.
    public static let now: @Sendable () -> Date = { Date() }
    /// A random number in `0..<1`.
    public static let random: @Sendable () -> Double = { Double.random(in: 0..<1) }
}
