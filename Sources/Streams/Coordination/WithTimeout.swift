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
/// not finished within `duration`, as ``withTimeout(_:clock:operation:)``
/// does, with the deadline kept by `timers`: the operation runs in one task
/// of its own, and no task sleeps for it.
///
/// An operation that ends as its deadline passes may count as timed out; it
/// is always waited for, so no work outlives the call.
public func withTimeout<T: Sendable>(
    _ duration: Duration,
    timers: Timers,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    let task = Task.inheritingExecutor { try await operation() }
    let token = timers.schedule(after: duration) { task.cancel() }
    let result = await withTaskCancellationHandler {
        await task.result
    } onCancel: {
        task.cancel()
    }
    guard timers.cancel(token) else { throw TimeoutError() }
    return try result.get()
}
