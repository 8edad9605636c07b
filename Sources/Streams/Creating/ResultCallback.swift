import Synchronization

/// Waits for a completion-handler API: `body` starts the work and receives a
/// callback to call once with the `Result`; its value is returned, its error thrown.
///
/// Calls of the callback after the first are ignored. The work cannot be
/// cancelled through this bridge: a cancelled caller still waits for the callback.
///
/// ```swift
/// let user = try await withResultCallback { done in client.getUser(id, completion: done) }
/// ```
public func withResultCallback<Value: Sendable>(
    _ body: (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
) async throws -> Value {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Value, any Error>) in
        let resumed = Mutex(false)
        body { result in
            let first = resumed.withLock { resumed in
                defer { resumed = true }
                return !resumed
            }
            if first { continuation.resume(with: result) }
        }
    }
}

/// Creates a one-element asynchronous sequence from a completion-handler API:
/// `body` starts the work when the element is first asked for (each iteration
/// anew), and the `Result` it reports becomes the element or the failure.
///
/// ```
/// body:     ├──────.success(v)┤
/// sequence: ──────────────────v|
/// ```
public func fromResultCallback<Value: Sendable>(
    _ body: @escaping @Sendable (@escaping @Sendable (Result<Value, any Error>) -> Void) -> Void
) -> AsyncDeferredSequence<Value> {
    deferred { try await withResultCallback(body) }
}
