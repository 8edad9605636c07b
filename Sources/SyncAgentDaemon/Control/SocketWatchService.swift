import Logging
import ServiceLifecycle

/// Keeps the agent reachable (docs/systemd.md#what-the-unit-does): every
/// ``interval`` it checks that the socket it put in place is still at its
/// path. When the file or its folder was deleted (tmpfiles cleaning, an
/// operator's `rm`) or replaced, the agent can no longer be told from a dead
/// one, so it stops with an error naming the path: its service manager starts
/// it again, and the new agent binds a new socket.
struct SocketWatchService: Service {
    let server: StatusServer
    let logger: Logger
    /// How often the socket is checked.
    static let interval: Duration = .seconds(2)

    /// The socket is gone: the agent stops with this error.
    struct SocketGone: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "the socket \(path) was removed or replaced; stopping so that the service manager starts the agent again"
        }
    }

    func run() async throws {
        let server = server
        // Stopping (the graceful shutdown cancels the wait) is no failure.
        let gone: SocketGone? = await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await Task.sleep(for: Self.interval)
                } catch {
                    return nil
                }
                if !server.isInPlace() { return SocketGone(path: server.path) }
            }
        }
        if let gone {
            logger.critical("\(gone)")
            throw gone
        }
    }
}
