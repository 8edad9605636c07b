import Logging
import ServiceLifecycle
import Store

/// Keeps the agent's files real (docs/systemd.md#what-the-unit-does): every
/// ``interval`` it checks that the socket it put in place, and the database
/// it opened, are still at their paths.
///
/// - A socket deleted, with its folder or not (tmpfiles cleaning, an
///   operator's `rm`): the agent puts a new one in place (and creates the
///   folder again as it was), and logs it. If it cannot (the path now holds
///   a file, or another program's socket), it can no longer be told from a
///   dead agent: it stops with an error naming the path.
/// - A database deleted or replaced: its syncs would go into a file no reader
///   sees (every commit checks this too, and fails rather than do so). It
///   stops with an error naming the file.
///
/// A stop is for the service manager to start the agent again: the new
/// agent binds a new socket and opens the file at its path (a new one syncs
/// everything again).
struct FilesWatchService: Service {
    let server: StatusServer
    let store: any SyncStore
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
        let logger = logger
        // Stopping (the graceful shutdown cancels the wait) is no failure.
        let gone: FileGone? = await cancelWhenGracefulShutdown {
            while true {
                do {
                    try await Task.sleep(for: Self.interval)
                } catch {
                    return nil
                }
                if !server.isInPlace() {
                    if let failure = await server.placeAgain() {
                        return FileGone(
                            description: "the socket \(server.path) was removed or replaced and cannot be put back "
                                + "(\(failure)); stopping so that the service manager starts the agent again")
                    }
                    logger.warning("the socket \(server.path) was removed: a new one is in place")
                }
                if !store.isInPlace {
                    return FileGone(
                        description: "the database \(store.location) was deleted or replaced while the agent had it "
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
