import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import SyncCore

#if canImport(Glibc)
import Glibc
#endif

/// The optional TCP listener (docs/observability.md#the-http-listener): the
/// metrics, the health checks, the status page and the status API, read-only
/// unless control is on, within the same bounds as the socket (a connection
/// cap, a read timeout, a body cap, event streams that drop a client too slow).
package struct HTTPListener: Sendable {
    let settings: HTTPListenerSettings
    let logger: Logger
    /// The bounds on its connections.
    let connections: ConnectionLimits

    /// A listener for `settings`, taking at most `maxConnections` clients at once.
    init(settings: HTTPListenerSettings, maxConnections: Int, logger: Logger) {
        self.settings = settings
        self.logger = logger
        connections = ConnectionLimits(cap: maxConnections, logger: logger, name: "the HTTP listener")
    }

    /// Why the listener cannot serve.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// Checks that the agent can listen at `settings`' address, before it
    /// starts anything: binds it once and lets it go. Returns the port it
    /// bound: the one asked for, or one the kernel picked for port 0.
    @discardableResult
    package static func prepare(_ settings: HTTPListenerSettings) throws(Failure) -> Int {
        func failure() -> Failure {
            Failure(
                description: "cannot listen on \(settings.url) (\"http\".\"listen\"): "
                    + ListenerService.reason(IOError(errnoCode: errno, reason: "bind")))
        }
        let ipv6 = settings.host.contains(":")
        let descriptor = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw failure() }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(settings.port).bigEndian)
            inet_pton(AF_INET6, settings.host, &address.sin6_addr)
            guard bind(descriptor, &address) else { throw failure() }
            return Int(UInt16(bigEndian: address.sin6_port))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(settings.port).bigEndian)
        inet_pton(AF_INET, settings.host == "localhost" ? "127.0.0.1" : settings.host, &address.sin_addr)
        guard bind(descriptor, &address) else { throw failure() }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Binds `descriptor` to `address`, then reads back the address it got.
    private static func bind<Address>(_ descriptor: Int32, _ address: inout Address) -> Bool {
        var length = socklen_t(MemoryLayout<Address>.size)
        return withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
    }

    /// The service serving `api` (made read-only or guarded by the token here)
    /// until the graceful shutdown; it calls `onListening` with `nil` once it
    /// listens, or with why it cannot.
    func service<Control: AgentControl>(
        api: StatusAPI<Control>, token: @escaping @Sendable () -> String?,
        onListening: @escaping @Sendable (Failure?) -> Void
    ) -> some Service {
        var api = api
        api.listener = .network(control: settings.control, token: token, loopbackHosts: settings.isLoopback)
        var serverLogger = logger
        // Hummingbird logs every start at info; the agent says it once, its way.
        serverLogger.logLevel = max(logger.logLevel, .warning)
        let settings = settings
        let logger = logger
        let server = StatusHTTPServer(
            responder: api.router().buildResponder(), address: .hostname(settings.host, port: settings.port),
            connections: connections, logger: serverLogger,
            onServerRunning: { _ in
                logger.info("listening on \(settings.url) (\(settings.control ? "with control" : "read-only"))")
                if !settings.isLoopback {
                    logger.warning(
                        """
                        the HTTP listener \(settings.listen) can be reached from other machines: anyone who can \
                        reach it reads the status and the metrics; firewall it, or listen on 127.0.0.1
                        """)
                }
                onListening(nil)
            })
        return ListenerService(server: server, settings: settings, onListening: onListening)
    }

    /// Runs the server; a failure to listen is told, not thrown, so the agent
    /// stops with that one sentence.
    private struct ListenerService: Service {
        let server: StatusHTTPServer
        let settings: HTTPListenerSettings
        let onListening: @Sendable (Failure?) -> Void

        func run() async {
            do {
                try await server.run()
            } catch {
                onListening(
                    Failure(
                        description: "cannot listen on \(settings.url) (\"http\".\"listen\"): \(Self.reason(error))"))
                // The agent stops: wait for its turn, as the service group expects.
                try? await gracefulShutdown()
            }
        }

        /// Why binding failed, in words.
        static func reason(_ error: any Error) -> String {
            guard let error = error as? IOError else { return "\(error)" }
            switch error.errnoCode {
            case EADDRINUSE: return "the address is in use: another program (or agent) listens there"
            case EADDRNOTAVAIL: return "this machine has no such address"
            case EACCES: return "permission denied: a port below 1024 needs the CAP_NET_BIND_SERVICE capability"
            default: return error.description
            }
        }
    }
}
