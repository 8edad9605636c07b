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
