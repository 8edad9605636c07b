import Synchronization

/// The error thrown by ``withTimeout(_:clock:operation:)`` when the operation
/// did not finish in time.
public struct TimeoutError: Error, Sendable, Equatable {
    /// Creates a timeout error.
    public init() {}
}

/// Runs an operation, cancelling it and throwing ``TimeoutError`` if it has not
/// finished within `duration` on `clock`.
///
/// The operation runs in a child task; when the deadline passes it is cancelled
/// and this function waits for it to end before throwing, so no work outlives the
/// call.
///
/// ```
/// operation: ───────────────[value]
/// deadline:  ──────────|
/// result:    ──────────✕ TimeoutError
/// ```
public func withTimeout<C: Clock, T: Sendable>(
    _ duration: C.Duration,
    clock: C,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let deadline = clock.now.advanced(by: duration)
    return try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await clock.sleep(until: deadline, tolerance: nil)
            return nil
        }
        defer { group.cancelAll() }
        // The first child to finish decides: a value (or the operation's error),
        // or `nil` from the sleeper, which means the deadline passed.
        guard let first = try await group.next(), let value = first else {
            throw TimeoutError()
        }
        return value
    }
}

/// Runs an operation, cancelling it and throwing ``TimeoutError`` if it has
/// not finished within `duration`, with the deadline kept by `timers`: the
/// operation runs in one task of its own, and no task sleeps for it.
///
/// Unlike ``withTimeout(_:clock:operation:)``, it returns at the deadline
/// (or when the caller is cancelled) without waiting for the operation to
/// end: an operation that is slow to notice its cancellation (one waiting on
/// work shared with others) cannot make the call outlast its limit. The
/// operation ends on its own, cancelled. Whichever comes first, the
/// operation's end or the deadline, decides.
public func withTimeout<T: Sendable>(
    _ duration: Duration,
    timers: Timers,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = TimeoutRace<T>()
    let task = Task.inheritingExecutor {
        race.end(with: await Result(awaiting: operation))
    }
    // The race is ended before the operation is cancelled: an operation that
    // ends at once with its own cancellation error must not win over the reason.
    let token = timers.schedule(after: duration) {
        race.end(with: .failure(TimeoutError()))
        task.cancel()
    }
    let result = await withTaskCancellationHandler {
        await race.outcome()
    } onCancel: {
        race.end(with: .failure(CancellationError()))
        task.cancel()
    }
    timers.cancel(token)
    return try result.get()
}

/// The first of an operation's end, its deadline and its caller's
/// cancellation, for ``withTimeout(_:timers:operation:)``.
private final class TimeoutRace<T: Sendable>: Sendable {
    private struct State {
        var result: Result<T, any Error>?
        var waiter: CheckedContinuation<Result<T, any Error>, Never>?
    }

    private let state = Mutex(State())

    /// Ends the race with `result`, unless it has ended.
    func end(with result: Result<T, any Error>) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<T, any Error>, Never>? in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: result)
    }

    /// The result that ended the race, once it has.
    func outcome() async -> Result<T, any Error> {
        await withCheckedContinuation { continuation in
            let ended = state.withLock { state -> Result<T, any Error>? in
                if state.result == nil { state.waiter = continuation }
                return state.result
            }
            if let ended { continuation.resume(returning: ended) }
        }
    }
}
