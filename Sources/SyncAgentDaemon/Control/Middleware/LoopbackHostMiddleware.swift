import Hummingbird
import SyncCore

/// Answers only requests for a loopback name (`Host: localhost`,
/// `127.0.0.1`, `[::1]`, any port), with 403 otherwise: a web page of another
/// site whose name was rebound to 127.0.0.1 (DNS rebinding) cannot read the
/// listener from a browser on this machine (docs/observability.md#the-http-listener).
struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // A request without a host (HTTP/1.0) is no browser's.
        guard let host = request.head.authority, !Self.isLoopback(host) else {
            return try await next(request, context)
        }
        throw APIError(
            status: .forbidden, code: "forbidden_host",
            message: "this listener answers requests for localhost, 127.0.0.1 or [::1] only, not \(host)")
    }

    /// Whether `authority` (`HOST[:PORT]`) names this machine's loopback.
    static func isLoopback(_ authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return HTTPListenerSettings.isLoopback(host: String(host))
    }
}
