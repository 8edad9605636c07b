import Synchronization

/// Why a poll run started.
public enum PollReason: Sendable, Hashable {
    /// Its time came.
    case scheduled
    /// A trigger asked for it (a manual refresh).
    case triggered
}

/// One run of a poll: why it ran and how it went.
public struct PollRun<Value: Sendable>: Sendable {
    /// Why it ran.
    public var reason: PollReason
    /// Its result.
    public var result: Result<Value, any Error>
    /// How long after the run's end the next run is due (before any trigger),
    /// or `nil` when the polling stopped until a trigger.
    public var nextRunIn: Duration?
}

/// Creates an asynchronous sequence that runs `operation` again and again,
/// an `interval` after the end of the last *successful* run (plus a random
/// delay of up to `jitter`), and produces each run's result.
///
/// - The first run comes `firstRunAfter` after the first request.
/// - Each element of `triggers` runs the operation now and restarts the
///   interval; triggers that come while a run is in progress are answered by
///   that run.
/// - A failure that `stopsAfter` accepts (by default, every failure) stops the
///   polling until a trigger; a ``PollDeferral`` moves the next run to the
///   time it names (a rate limit's reset); any other failure leaves the
///   schedule as it was, or, if its time has passed, moves it an interval
///   after the failure.
///
/// Runs happen in the consumer's task, one at a time, when it asks for the next
/// element; cancelling the consumer cancels the wait or the run.
///
/// ```
/// trigger:    ───────────●──────────────────
/// runs:       ✓────────✓─✓────────✓────✕ (stopped)
///             |interval| |interval|
/// ```
public func poll<C: Clock<Duration>, Value: Sendable, Triggers: AsyncSequence<Void, Never> & Sendable>(
    every interval: Duration,
    jitter: Duration = .zero,
    clock: C,
    firstRunAfter: Duration = .zero,
    triggers: Triggers,
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    stopsAfter: @escaping @Sendable (any Error) -> Bool = { _ in true },
    operation: @escaping @Sendable (PollReason) async throws -> Value
) -> AsyncPollSequence<Value, C, Triggers> {
    AsyncPollSequence(
        interval: interval, jitter: jitter, clock: clock, firstRunAfter: firstRunAfter, triggers: triggers,
        random: random, stopsAfter: stopsAfter, operation: operation)
}

/// A failed poll run that says when the next run may come: not before
/// `runAgainAfter` from its end, and not an interval later either.
public protocol PollDeferral: Error {
    /// How long after the failed run's end the next run is due.
    var runAgainAfter: Duration { get }
}

/// The runs of a poll, made by ``poll(every:jitter:clock:firstRunAfter:triggers:random:stopsAfter:operation:)``.
public struct AsyncPollSequence<Value: Sendable, C: Clock<Duration>, Triggers: AsyncSequence<Void, Never> & Sendable>:
    AsyncSequence, Sendable
{
    /// The type of the elements.
    public typealias Element = PollRun<Value>

    let interval: Duration
    let jitter: Duration
    let clock: C
    let firstRunAfter: Duration
    let triggers: Triggers
    let random: @Sendable () -> Double
    let stopsAfter: @Sendable (any Error) -> Bool
    let operation: @Sendable (PollReason) async throws -> Value

    /// The iterator of an ``AsyncPollSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: AsyncPollSequence
        let inbox: TriggerInbox
        var schedule: PollSchedule<C.Instant>?

        /// Waits for the next run's time or a trigger, runs the operation, and returns its result.
        public mutating func next() async throws -> PollRun<Value>? {
            let clock = sequence.clock
            var schedule =
                self.schedule
                ?? PollSchedule(
                    interval: sequence.interval, jitter: sequence.jitter,
                    firstRun: clock.now.advanced(by: sequence.firstRunAfter))
            let reason = try await waitForRun(until: schedule.due)
            inbox.clear()
            let result: Result<Value, any Error>
            do {
                result = .success(try await sequence.operation(reason))
            } catch {
                if error is CancellationError || Task.isCancelled { throw error }
                result = .failure(error)
            }
            // Triggers that came during the run are answered by it.
            inbox.clear()
            let end = clock.now
            switch result {
            case .success: schedule.succeeded(at: end, unit: sequence.random())
            case .failure(let error as any PollDeferral) where !sequence.stopsAfter(error):
                schedule.deferred(to: end.advanced(by: Swift.max(.zero, error.runAgainAfter)))
            case .failure(let error): schedule.failed(at: end, stop: sequence.stopsAfter(error))
            }
            self.schedule = schedule
            return PollRun(reason: reason, result: result, nextRunIn: schedule.due.map { end.duration(to: $0) })
        }

        /// Returns when `due` comes (`.scheduled`) or a trigger does (`.triggered`).
        private func waitForRun(until due: C.Instant?) async throws -> PollReason {
            let inbox = inbox
            guard let due else {
                try await inbox.wait()
                return .triggered
            }
            if inbox.hasPending { return .triggered }
            let clock = sequence.clock
            return try await withThrowingTaskGroup(of: PollReason.self) { group in
                group.addTask {
                    try await clock.sleep(until: due, tolerance: nil)
                    return .scheduled
                }
                group.addTask {
                    try await inbox.wait()
                    return .triggered
                }
                defer { group.cancelAll() }
                return try await group.next()!
            }
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self, inbox: TriggerInbox(triggers: triggers))
    }
}

/// Whether a trigger is pending, fed by a task that follows the triggers for as
/// long as the iterator lives.
///
/// Thread-safety: `Sendable`; state behind a `Mutex`, the waiter resumed outside it.
final class TriggerInbox: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let state = Mutex(State())
    private let follower = Mutex<Task<Void, Never>?>(nil)

    init<Triggers: AsyncSequence<Void, Never> & Sendable>(triggers: Triggers) {
        // Subscribed now, not when the task starts: a trigger sent in between counts.
        var iterator = triggers.makeAsyncIterator()
        let task = Task.inheritingExecutor { [weak self] in
            while await iterator.next(isolation: nil) != nil {
                guard let self else { return }
                self.receive()
            }
        }
        follower.withLock { $0 = task }
    }

    deinit {
        follower.withLock { $0?.cancel() }
    }

    var hasPending: Bool { state.withLock { $0.pending } }

    func clear() {
        state.withLock { $0.pending = false }
    }

    private func receive() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            state.pending = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    /// Returns once a trigger is pending.
    func wait() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Result<Void, any Error>? in
                    if state.pending { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(with: ready) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
