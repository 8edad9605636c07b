import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Hummingbird's HTTP/1.1 server and router for the status API, run without
/// Hummingbird's `Application`: the application also runs a cache of the
/// `Date` header that wakes the agent every second, idle or not; here the
/// header is made when a response needs it (docs/architecture.md#what-a-resource-costs).
/// It serves on ``ControlThread``, away from the threads the syncs keep busy
/// (docs/architecture.md#status-under-load).
struct StatusHTTPServer: Sendable {
    let responder: RouterResponder<ControlRequestContext>
    let server: HTTPServerBuilder
    let address: BindAddress
    let logger: Logger
    /// Told once the server listens.
    let onServerRunning: @Sendable (any Channel) async -> Void

    /// A server of `responder` at `address`, within the bounds of
    /// `connections` (a cap, a read timeout); `onServerRunning` is told once it listens.
    init(
        responder: RouterResponder<ControlRequestContext>, address: BindAddress, connections: ConnectionLimits,
        logger: Logger, onServerRunning: @escaping @Sendable (any Channel) async -> Void
    ) {
        self.responder = responder
        self.address = address
        self.logger = logger
        server = .http1(
            configuration: .init(
                additionalChannelHandlers: [connections.connectionHandler()], idleTimeout: ConnectionLimits.readTimeout)
        )
        self.onServerRunning = { channel in
            try? await channel.eventLoop.submit {
                try channel.pipeline.syncOperations.addHandler(connections.acceptHandler(), position: .first)
            }.get()
            await onServerRunning(channel)
        }
    }

    /// Serves until the graceful shutdown (or an error), on ``ControlThread``:
    /// its socket and the tasks answering its requests.
    func run() async throws {
        try await withTaskExecutorPreference(ControlThread.executor) {
            try await serve()
        }
    }

    private func serve() async throws {
        let responder = responder
        let logger = logger
        let service = try server.buildServer(
            configuration: ServerConfiguration(address: address),
            eventLoopGroup: ControlThread.group, logger: logger,
            responder: { request, writer, channel in
                let context = ControlRequestContext(
                    source: ApplicationRequestContextSource(channel: channel, logger: logger))
                var response: Response
                do {
                    response = try await responder.respond(to: request, context: context)
                } catch let error as HTTPParserError {
                    // A malformed request: the connection answers 400 and closes.
                    throw error
                } catch {
                    // The routes answer their errors as JSON; what escapes them is the server's fault.
                    logger.debug("unhandled error: \(error)")
                    response = Response(status: .internalServerError)
                }
                response.headers[.date] = HTTPDate.now()
                try await writer.write(response: response.head, body: response.body)
            },
            onServerRunning: onServerRunning)
        try await service.run()
    }
}

/// The `Date` header's value (an IMF-fixdate, `Sun, 06 Nov 1994 08:49:37
/// GMT`), made at most once a second, when asked.
enum HTTPDate {
    private static let last = Mutex<(second: time_t, text: String)>((-1, ""))

    /// The value for now.
    static func now() -> String {
        let second = time(nil)
        if let text = last.withLock({ $0.second == second ? $0.text : nil }) { return text }
        let text = format(second)
        last.withLock { $0 = (second, text) }
        return text
    }

    /// The value for `second` since 1970.
    static func format(_ second: time_t) -> String {
        var seconds = second
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
