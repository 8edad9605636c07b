import Streams
import StreamsTesting
import Testing

/// The two ways ``withSlowSignal`` and ``withTimeout`` keep their deadline,
/// so that one test checks both: a child task sleeping on the clock, or an
/// entry in ``Timers``.
enum DeadlineKeeper: CaseIterable, Sendable, CustomTestStringConvertible {
    case clock
    case timers

    var testDescription: String { self == .clock ? "a sleeping task" : "Timers" }
}

/// A virtual clock and the deadline keeper under test.
struct Deadlines: Sendable {
    let clock = VirtualClock()
    let timers: Timers?

    init(_ keeper: DeadlineKeeper) {
        timers = keeper == .timers ? Timers(clock: clock) : nil
    }

    func slowSignal<T: Sendable>(
        after threshold: Duration, onSlow: @escaping @Sendable () -> Void,
        operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        if let timers {
            return try await withSlowSignal(after: threshold, timers: timers, onSlow: onSlow, operation: operation)
        }
        return try await withSlowSignal(after: threshold, clock: clock, onSlow: onSlow, operation: operation)
    }

    func timeout<T: Sendable>(
        _ duration: Duration, operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        if let timers {
            return try await withTimeout(duration, timers: timers, operation: operation)
        }
        return try await withTimeout(duration, clock: clock, operation: operation)
    }

    /// The deadlines still kept: none once every call has returned.
    var pending: Int { timers?.count ?? 0 }

    /// Whether nothing sleeps once every deadline has passed: no child task
    /// and no sleeper of the timers outlives the calls.
    func settled() async -> Bool {
        await clock.advance(by: .seconds(3600))
        return clock.sleeperCount == 0 && pending == 0
    }
}
