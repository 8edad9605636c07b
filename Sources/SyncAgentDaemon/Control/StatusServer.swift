import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Store
import SyncCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The status API served over HTTP/1.1 on the agent's Unix socket
/// (docs/api.md#the-status-socket).
///
/// The socket never exists with looser permissions than `socketMode`: it is
/// bound inside a private folder (mode 0700) beside its final path, given its
/// mode there, and only then renamed into place, which also replaces a stale
/// socket atomically. A live socket (another agent answers) is left alone:
/// ``prepare(path:)`` refuses to start.
package struct StatusServer: Sendable {
    /// The socket's final path.
    let path: String
    /// The socket's permission bits.
    let mode: UInt32
    let logger: Logger
    /// The device and inode of the socket this server put in place, once it has.
    private let placed = Placed()

    /// The socket's folder as it was when the server was made, to create it again alike.
    private let folder: Folder?

    /// A box for ``placed``, shared by the copies of the server, with the way
    /// to ask the running service for a new socket.
    private final class Placed: Sendable {
        let identity = Mutex<FileIdentity?>(nil)
        let requests = Mutex<AsyncStream<@Sendable (Failure?) -> Void>.Continuation?>(nil)
    }

    /// A folder's path, permission bits and owner.
    struct Folder: Sendable {
        var path: String
        var mode: mode_t
        var owner: uid_t
        var group: gid_t

        /// The folder at `path` as it is now, or `nil`.
        init?(at path: String) {
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            self.path = path
            mode = info.st_mode & 0o7777
            owner = info.st_uid
            group = info.st_gid
        }

        /// Creates the folder again with its mode and owner, if it is gone; `false` if it cannot.
        func recreate() -> Bool {
            var info = stat()
            if stat(path, &info) == 0 { return info.st_mode & S_IFMT == S_IFDIR }
            guard mkdir(path, mode) == 0 else { return false }
            return chmod(path, mode) == 0 && chown(path, owner, group) == 0
        }
    }

    /// The bounds on its connections.
    let connections: ConnectionLimits

    /// A server for a socket at `path` with `mode`, taking at most `maxConnections` clients at once.
    init(path: String, mode: UInt32, maxConnections: Int, logger: Logger) {
        self.path = path
        self.mode = mode
        self.logger = logger
        connections = ConnectionLimits(cap: maxConnections, logger: logger)
        folder = Folder(at: (path as NSString).deletingLastPathComponent)
    }

    /// Whether the socket this server put in place is still at its path; `true` before it is placed.
    func isInPlace() -> Bool {
        guard let placed = placed.identity.withLock({ $0 }) else { return true }
        return FileIdentity(at: path, followingLinks: false) == placed
    }

    /// Why the server cannot start.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Checks that the agent may take `path`: no other agent answers there,
    /// and nothing but a stale socket is in the way.
    static func prepare(path: String) throws(Failure) {
        guard fits(path) else {
            throw Failure(
                description: "the socket path \(path) is too long: it and the private path it is bound at first "
                    + "(\(privatePath(for: path))) must fit in \(UnixSocketPath.maxLength) bytes, the most a Unix "
                    + "socket allows; choose a shorter \"socket\"")
        }
        switch UnixSocketPath.occupant(of: path) {
        case .none, .stale:
            break
        case .live:
            throw Failure(description: "another agent is running: its socket \(path) answers")
        case .notSocket:
            throw Failure(description: "\(path) exists and is not a socket; move it away or choose another \"socket\"")
        }
        let folder = (path as NSString).deletingLastPathComponent
        var info = stat()
        guard stat(folder, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw Failure(description: "the socket's folder \(folder) does not exist")
        }
    }

    /// The name of the private folder the socket is bound in first, beside its final path.
    private static let privateFolderTemplate = ".sa-XXXXXX"

    /// How old a private folder must be to count as left behind by a crash:
    /// one that young may be another agent's, starting beside this one.
    static let staleAfter: TimeInterval = 60

    /// Removes the private folders (and their sockets) that agents killed while
    /// starting left in `folder`; returns their paths.
    @discardableResult
    static func removeStalePrivateFolders(in folder: String, now: Date = SystemSources.now()) -> [String] {
        TemporaryFolders.older(than: staleAfter, in: folder, template: privateFolderTemplate, now: now).filter {
            unlink($0 + "/s")
            return rmdir($0) == 0
        }
    }

    /// Where a socket for `path` is bound before it is put in place (its folder's name made unique then).
    static func privatePath(for path: String) -> String {
        (path as NSString).deletingLastPathComponent + "/" + privateFolderTemplate + "/s"
    }

    /// Whether the agent can bind a socket at `path`: it, and the private path
    /// it is bound at first, fit in a Unix socket address.
    package static func fits(_ path: String) -> Bool {
        path.utf8.count <= UnixSocketPath.maxLength && privatePath(for: path).utf8.count <= UnixSocketPath.maxLength
    }

    /// The application serving `api`. Once the socket is in place with its
    /// mode, it calls `onListening` with `nil`, or with the reason it could
    /// not put the socket in place.
    func application<Control: AgentControl>(
        api: StatusAPI<Control>, onListening: @escaping @Sendable (Failure?) -> Void
    ) throws(Failure) -> StatusHTTPServer {
        let folder = (path as NSString).deletingLastPathComponent
        for stale in Self.removeStalePrivateFolders(in: folder) {
            logger.notice("removed \(stale), left by an agent that stopped while starting")
        }
        var template = Array("\(folder)/\(Self.privateFolderTemplate)".utf8CString)
        guard let privateFolder = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Failure(
                description: "cannot create a private folder in \(folder): \(String(cString: strerror(errno)))")
        }
        let temporary = String(cString: privateFolder) + "/s"
        var serverLogger = logger
        // Hummingbird would log the private path; the agent logs the real one.
        serverLogger.logLevel = max(logger.logLevel, .warning)
        let path = path
        let mode = mode
        let logger = logger
        let placed = placed
        let connections = connections
        return StatusHTTPServer(
            responder: api.router().buildResponder(), address: .unixDomainSocket(path: temporary),
            connections: connections, logger: serverLogger,
            onServerRunning: { _ in
                let folder = (temporary as NSString).deletingLastPathComponent
                guard chmod(temporary, mode_t(mode)) == 0, rename(temporary, path) == 0 else {
                    let reason = String(cString: strerror(errno))
                    unlink(temporary)
                    rmdir(folder)
                    onListening(Failure(description: "cannot put the socket in place at \(path): \(reason)"))
                    return
                }
                rmdir(folder)
                placed.identity.withLock { $0 = FileIdentity(at: path, followingLinks: false) }
                logger.info("listening on \(path)")
                onListening(nil)
            })
    }

    /// The service serving `api` until the graceful shutdown: on a first
    /// socket, which calls `onListening` as ``application(api:onListening:)``
    /// says, then on each new one ``placeAgain()`` asks for.
    func service<Control: AgentControl>(
        api: StatusAPI<Control>, onListening: @escaping @Sendable (Failure?) -> Void
    ) throws(Failure) -> some Service {
        StatusService(server: self, api: api, first: try application(api: api, onListening: onListening))
    }

    /// Runs the applications of a ``StatusServer``.
    private struct StatusService<Control: AgentControl>: Service {
        let server: StatusServer
        let api: StatusAPI<Control>
        let first: StatusHTTPServer

        func run() async throws {
            let (requests, continuation) = AsyncStream<@Sendable (Failure?) -> Void>.makeStream()
            server.placed.requests.withLock { $0 = continuation }
            defer { server.placed.requests.withLock { $0 = nil } }
            try await withThrowingDiscardingTaskGroup { group in
                group.addTask { try await first.run() }
                // Each application stops at the graceful shutdown; so do the requests.
                await withGracefulShutdownHandler {
                    for await request in requests {
                        let reply = OnceReply(request)
                        do throws(Failure) {
                            let next = try server.application(api: api) { reply($0) }
                            group.addTask {
                                // A new socket that cannot be bound fails its request, not the agent.
                                do {
                                    try await next.run()
                                } catch {
                                    reply(Failure(description: "cannot listen on \(server.path) again: \(error)"))
                                }
                            }
                        } catch {
                            reply(error)
                        }
                    }
                } onGracefulShutdown: {
                    continuation.finish()
                }
            }
        }
    }

    /// Puts a new socket at the path after the one this server placed was
    /// removed, creating its folder again (with the mode and owner it had)
    /// if it went too; `nil` once the new socket answers, or why it cannot
    /// be done. The clients connected to the old socket stay connected.
    func placeAgain() async -> Failure? {
        switch UnixSocketPath.occupant(of: path) {
        case .none, .stale:
            break
        case .live:
            return Failure(description: "another program answers at \(path)")
        case .notSocket:
            return Failure(description: "\(path) was replaced by a file that is not a socket")
        }
        guard let folder, folder.recreate() else {
            let folder = (path as NSString).deletingLastPathComponent
            return Failure(description: "cannot create the socket's folder \(folder) again")
        }
        guard let requests = placed.requests.withLock({ $0 }) else {
            return Failure(description: "the status server is not running")
        }
        let stopped = Failure(description: "the status server is stopping")
        // Answered by the new socket, or at once when the server or this task stops.
        let pending = Mutex<OnceReply?>(nil)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let reply = OnceReply { continuation.resume(returning: $0) }
                pending.withLock { $0 = reply }
                if case .terminated = requests.yield({ reply($0) }) { reply(stopped) }
                if Task.isCancelled { reply(stopped) }
            }
        } onCancel: {
            pending.withLock { $0 }?(stopped)
        }
    }

    /// Calls its function once, whoever calls it first; later calls do nothing.
    private final class OnceReply: Sendable {
        private let function = Mutex<(@Sendable (Failure?) -> Void)?>(nil)

        init(_ function: @escaping @Sendable (Failure?) -> Void) {
            self.function.withLock { $0 = function }
        }

        func callAsFunction(_ failure: Failure?) {
            function.withLock { function in
                defer { function = nil }
                return function
            }?(failure)
        }
    }

    /// Removes the socket at its final path (at shutdown), if it is still the
    /// one this server put there: another's is left alone.
    func removeSocket() {
        guard let placed = placed.identity.withLock({ $0 }), FileIdentity(at: path, followingLinks: false) == placed
        else { return }
        unlink(path)
    }
}
