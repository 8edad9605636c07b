import Synchronization

/// What `GET /readyz` checks besides the database (docs/observability.md#health-checks):
/// the status socket listens at its path, and the agent is not shutting down.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
final class Readiness: Sendable {
    private let state = Mutex((listening: false, stopping: false))
    /// Whether the socket the agent placed is still at its path.
    private let socketInPlace: @Sendable () -> Bool

    /// Readiness of an agent whose socket is at its path while `socketInPlace` says so.
    init(socketInPlace: @escaping @Sendable () -> Bool = { true }) {
        self.socketInPlace = socketInPlace
    }

    /// The status socket listens.
    func socketListens() {
        state.withLock { $0.listening = true }
    }

    /// The graceful shutdown has begun.
    func stopping() {
        state.withLock { $0.stopping = true }
    }

    /// Why the agent is not ready, besides its database; empty when it is.
    func problems() -> [String] {
        let (listening, stopping) = state.withLock { ($0.listening, $0.stopping) }
        var problems: [String] = []
        if stopping { problems.append("the agent is shutting down") }
        if !listening {
            problems.append("the status socket is not listening yet")
        } else if !socketInPlace() {
            problems.append("the status socket was removed; the agent puts it back")
        }
        return problems
    }
}
