import Foundation
import Store
import Streams

/// The time a part of the agent reads: the clock its waits are kept on, the
/// wall-clock time it stores and shows, and the jitter of its retries
/// (docs/architecture.md#context-in-no-hidden-clocks). The defaults are the
/// system's; a test hands in a virtual clock and fixed numbers.
package struct TimeSources: Sendable {
    /// The clock waits are kept on: retries, rate limits, timeouts, slow reports, polls of a lock.
    package var clock: any Clock<Duration>
    /// The wall-clock time, for the times that are stored and shown.
    package var now: @Sendable () -> Date
    /// Draws the jitter of retries, in `0..<1`.
    package var random: @Sendable () -> Double

    package init(
        clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = SystemSources.now,
        random: @escaping @Sendable () -> Double = SystemSources.random
    ) {
        self.clock = clock
        self.now = now
        self.random = random
    }
}
