import NIOCore
import PostgresNIO
import Synchronization

extension PostgresStore {
    /// Runs `work` on `connection` so that cancelling the calling task ends the
    /// call at once (docs/fleet.md#stopping-with-syncs-in-flight): the connection
    /// is closed, which fails the statement in flight (the server rolls back the
    /// transaction), and the call fails as cancelled once the connection has
    /// closed, whether or not the work has ended by then.
    ///
    /// Closing is how a statement is stopped: postgres-nio's statements do not end
    /// when their task is cancelled. But a statement sent as the connection closes
    /// (the next of a transaction's statements, or its `ROLLBACK`) never gets an
    /// answer: postgres-nio hands it to a channel that is closed, which drops it
    /// without failing it, and whoever waits for it waits for ever. So the work
    /// runs in a task of its own, which the call does not wait for once the
    /// connection has closed. Work left waiting so holds nothing but that closed
    /// connection, which the pool has dropped by the time the call returns: it
    /// never lends it again. (No statement of the store is a COPY, in whose data
    /// a close traps in postgres-nio.)
    static func cancellingByClosing<T: Sendable>(
        _ connection: PostgresConnection, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let call = ClosableCall<T>(connection)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                call.start(continuation, work)
            }
        } onCancel: {
            call.cancel()
        }
    }
}

/// One call of ``PostgresStore/cancellingByClosing(_:_:)``: its caller's
/// continuation, resumed once, and the task that runs the work.
///
/// A call whose connection closed (cancelled, or closed under the work) resumes
/// its caller only once the close has completed. The pool learns of a close from
/// the same `closeFuture`, by a callback it registered when it opened the
/// connection, so it runs first: when the caller gives the connection back, the
/// pool has dropped it. Resumed any earlier, the pool would lend the closed
/// connection to the next call, whose statements would never be answered
/// (docs/fleet.md#stopping-with-syncs-in-flight).
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
private final class ClosableCall<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var task: Task<Void, Never>?
        /// The connection closes: only the end of its close resumes the caller.
        var closing = false
        /// The caller was resumed.
        var resumed = false
        /// What the work came to, if it ended while its connection closed.
        var ended: Result<T, any Error>?
    }

    private let connection: PostgresConnection
    private let state = Mutex(State())

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Starts `work`, whose end resumes `continuation`; a call cancelled before
    /// it started fails once its connection has closed.
    func start(_ continuation: CheckedContinuation<T, any Error>, _ work: @escaping @Sendable () async throws -> T) {
        let closing = state.withLock { state in
            if !state.closing { state.continuation = continuation }
            return state.closing
        }
        guard !closing else {
            connection.closeFuture.whenComplete { _ in continuation.resume(throwing: CancellationError()) }
            return
        }
        let task = Task {
            let result: Result<T, any Error>
            do {
                result = .success(try await work())
            } catch {
                result = .failure(error)
            }
            self.workEnded(result)
        }
        let cancelledMeanwhile = state.withLock { state in
            state.task = task
            return state.closing
        }
        if cancelledMeanwhile { task.cancel() }
    }

    /// Cancels the work and closes the connection; the caller is resumed once
    /// it has closed, with what the work came to if it has ended by then, else
    /// as cancelled. A call whose caller was resumed already keeps its
    /// connection open: the pool has it back.
    func cancel() {
        let task: Task<Void, Never>?? = state.withLock { state in
            guard !state.resumed else { return nil }
            state.closing = true
            return .some(state.task)
        }
        guard let task else { return }
        task?.cancel()
        connection.close().whenComplete { _ in self.closed() }
    }

    /// The work ended with `result`: the caller is resumed with it now, or,
    /// when the connection closes, once it has closed.
    private func workEnded(_ result: Result<T, any Error>) {
        let closedUnderWork = connection.isClosed
        let continuation = state.withLock { state -> CheckedContinuation<T, any Error>? in
            if closedUnderWork { state.closing = true }
            guard !state.closing else {
                state.ended = result
                return nil
            }
            state.resumed = true
            defer { state.continuation = nil }
            return state.continuation
        }
        if let continuation {
            continuation.resume(with: result)
        } else if closedUnderWork {
            connection.closeFuture.whenComplete { _ in self.closed() }
        }
    }

    /// The connection has closed: the caller is resumed, unless it was already.
    private func closed() {
        let (continuation, result) = state.withLock { state in
            defer {
                state.continuation = nil
                state.resumed = true
            }
            return (state.continuation, state.ended ?? .failure(CancellationError()))
        }
        continuation?.resume(with: result)
    }
}
