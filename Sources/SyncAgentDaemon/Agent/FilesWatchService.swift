import Logging
import ServiceLifecycle
import Store

/// Keeps the agent's files real (docs/systemd.md#what-the-unit-does): every
/// ``interval`` it checks that the socket it put in place, and the database
/// it opened, are still at their paths.
///
/// - A socket deleted with its folder or not (tmpfiles cleaning, an
///   operator's `rm`), or replaced: the agent can no longer be told from a
///   dead one.
/// - A database deleted or replaced: its syncs would go into a file no reader
///   sees (every commit checks this too, and fails rather than do so).
///
/// Either way the agent stops with an error naming the path: its service
/// manager starts it again, and the new agent binds a new socket and opens
/// the file at its path (a new one syncs everything again).
struct FilesWatchService: Service {
    let server: StatusServer
    let store: SyncStore
    let logger: Logger
    /// How often the files are checked.
    static let interval: Duration = .seconds(2)

    /// A file of the agent's is gone: the agent stops with this error.
    struct FileGone: Error, CustomStringConvertible {
        var description: String
    }

    func run() async throws {
        let server = server
        let store = store
        // Stopping (the graceful shutdown cancels the wait) is no failure.
        let gone: FileGone? = await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await Task.sleep(for: Self.interval)
                } catch {
                    return nil
                }
                if !server.isInPlace() {
                    return FileGone(
                        description: "the socket \(server.path) was removed or replaced; stopping so that the "
                            + "service manager starts the agent again")
                }
                if !store.isInPlace {
                    return FileGone(
                        description: "the database \(store.path) was deleted or replaced while the agent had it "
                            + "open; stopping so that the service manager starts the agent again, which opens the "
                            + "file at its path")
                }
            }
        }
        if let gone {
            logger.critical("\(gone)")
            throw gone
        }
    }
}
