import NIOCore
import PostgresNIO
import Synchronization

extension PostgresStore {
    /// Runs `work` on `connection` so that cancelling the calling task ends the
    /// call at once (docs/fleet.md#stopping-with-syncs-in-flight): the connection
    /// is closed, which fails the statement in flight (the server rolls back the
    /// transaction), and the call fails as cancelled as soon as the work ends or
    /// the connection has closed, whichever comes first.
    ///
    /// Closing is how a statement is stopped: postgres-nio's statements do not end
    /// when their task is cancelled. But a statement sent as the connection closes
    /// (the next of a transaction's statements, or its `ROLLBACK`) never gets an
    /// answer: postgres-nio hands it to a channel that is closed, which drops it
    /// without failing it, and whoever waits for it waits for ever. So the work
    /// runs in a task of its own, which the call does not wait for once the
    /// connection has closed. Work left waiting so holds nothing but that closed
    /// connection. (No statement of the store is a COPY, in whose data a close
    /// traps in postgres-nio.)
    static func cancellingByClosing<T: Sendable>(
        _ connection: PostgresConnection, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let call = ClosableCall<T>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation, work)
            }
        } onCancel: {
            call.cancel(closing: connection)
        }
    }
}

/// One call of ``PostgresStore/cancellingByClosing(_:_:)``: its caller's
/// continuation, resumed once, by the work's end or by the connection's close,
/// and the task that runs the work.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
private final class ClosableCall<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Mutex(State())

    /// Starts `work`, whose end resumes `continuation`; a call cancelled before
    /// it started fails at once, its connection closed already.
    func start(_ continuation: CheckedContinuation<T, any Error>, _ work: @escaping @Sendable () async throws -> T) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.continuation = continuation }
            return state.cancelled
        }
        guard !cancelled else {
            continuation.resume(throwing: CancellationError())
            return
        }
        let task = Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            self.finish(result)
        }
        let cancelledMeanwhile = state.withLock { state in
            state.task = task
            return state.cancelled
        }
        if cancelledMeanwhile { task.cancel() }
    }

    /// Cancels the work and closes `connection`; the caller is resumed once it
    /// has closed, if the work has not ended by then.
    func cancel(closing connection: PostgresConnection) {
        let task = state.withLock { state in
            state.cancelled = true
            return state.task
        }
        task?.cancel()
        let closed: EventLoopFuture<Void> = connection.close()
        closed.whenComplete { _ in self.finish(.failure(CancellationError())) }
    }

    /// Resumes the caller with `result`, unless it was resumed already.
    private func finish(_ result: Result<T, any Error>) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }
}
