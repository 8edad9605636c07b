/// Runs an operation and, if it is still running `threshold` after it
/// started, calls `onSlow` once while it goes on: the "taking longer than
/// expected" signal.
///
/// The operation's result is returned as is; the signal never interrupts it.
/// `onSlow` is not called for an operation that ends in time.
///
/// ```
/// operation: ├─────────────────┤v
/// threshold: ──────|
/// onSlow:          ●
/// ```
public func withSlowSignal<C: Clock<Duration>, T: Sendable>(
    after threshold: Duration,
    clock: C,
    onSlow: @escaping @Sendable () -> Void,
    operation: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: SlowSignalChild<T>.self) { group in
        group.addTask { .finished(try await operation()) }
        group.addTask {
            if (try? await clock.sleep(for: threshold)) != nil { onSlow() }
            return .signal
        }
        defer { group.cancelAll() }
        while let child = try await group.next() {
            if case .finished(let value) = child { return value }
        }
        throw CancellationError()
    }
}

/// What a child of ``withSlowSignal(after:clock:onSlow:operation:)`` ends with.
private enum SlowSignalChild<T: Sendable>: Sendable {
    case finished(T)
    case signal
}

/// Runs an operation and, if it is still running `threshold` after it
/// started, calls `onSlow` once while it goes on, as
/// ``withSlowSignal(after:clock:onSlow:operation:)`` does, with the deadline
/// kept by `timers`: the operation runs in the calling task, and no task
/// sleeps for it. An operation that ends just as the threshold passes may
/// be signalled as the call returns: `onSlow` runs on the timers' task and
/// is not waited for.
public func withSlowSignal<T>(
    after threshold: Duration,
    timers: Timers,
    onSlow: @escaping @Sendable () -> Void,
    operation: () async throws -> T
) async rethrows -> T {
    let token = timers.schedule(after: threshold, onSlow)
    defer { timers.cancel(token) }
    return try await operation()
}
