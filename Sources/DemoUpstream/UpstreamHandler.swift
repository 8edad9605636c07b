import NIOCore
import NIOHTTP1

#if canImport(Glibc)
import Glibc
#endif

/// Serves one connection: collects each request, asks ``UpstreamState`` for
/// the plan, and carries it out (waiting, answering, resetting, truncating).
///
/// Thread-safety: not `Sendable`; used on its channel's event loop only.
final class UpstreamHandler: ChannelInboundHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let state: UpstreamState
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()
    /// The request being answered, logged as ended once its answer is written or the connection closes.
    private var pending: SeenRequest?

    init(state: UpstreamState) {
        self.state = state
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head else { return }
            self.head = nil
            respond(to: head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        finish()
        context.fireChannelInactive()
    }

    /// Logs the request being answered as ended.
    private func finish() {
        guard let request = pending else { return }
        pending = nil
        state.ended(request)
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let (path, query) = Self.split(head.uri)
        var headers: [String: String] = [:]
        for (name, value) in head.headers { headers[name.lowercased()] = value }
        let request = SeenRequest(
            method: head.method.rawValue, path: path, query: query, headers: headers,
            body: String(buffer: body))
        let origin = "http://" + (headers["host"] ?? "127.0.0.1")
        let plan = state.plan(for: request, origin: origin)
        if !path.hasPrefix("/_control/") { pending = request }
        let keepAlive = head.isKeepAlive
        let (seconds, attoseconds) = plan.delay.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        if nanoseconds > 0 {
            context.eventLoop.assumeIsolated().scheduleTask(in: .nanoseconds(nanoseconds)) {
                self.carryOut(plan.outcome, keepAlive: keepAlive, version: head.version, context: context)
            }
        } else {
            carryOut(plan.outcome, keepAlive: keepAlive, version: head.version, context: context)
        }
    }

    private func carryOut(
        _ outcome: ResponsePlan.Outcome, keepAlive: Bool, version: HTTPVersion, context: ChannelHandlerContext
    ) {
        guard context.channel.isActive else { return }
        switch outcome {
        case .answer(let status, let headers, let body):
            writeHead(status: status, headers: headers, length: body.readableBytes, version: version, context: context)
            if body.readableBytes > 0 { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            let done = context.writeAndFlush(wrapOutboundOut(.end(nil)))
            done.assumeIsolated().whenComplete { _ in
                self.finish()
                if !keepAlive { context.close(promise: nil) }
            }
        case .reset:
            // SO_LINGER with a zero timeout makes close() send RST instead of FIN.
            guard let socket = context.channel as? any SocketOptionProvider else {
                context.close(promise: nil)
                return
            }
            socket.setSoLinger(linger(l_onoff: 1, l_linger: 0)).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        case .truncate(let status, let headers, let body):
            writeHead(status: status, headers: headers, length: body.readableBytes, version: version, context: context)
            let half = body.getSlice(at: body.readerIndex, length: body.readableBytes / 2) ?? ByteBuffer()
            context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(half)))).assumeIsolated().whenComplete { _ in
                context.close(promise: nil)
            }
        }
    }

    private func writeHead(
        status: Int, headers: [(String, String)], length: Int, version: HTTPVersion, context: ChannelHandlerContext
    ) {
        var fields = HTTPHeaders(headers)
        // A fault may state another length (Fault.Action.contentLength).
        if !fields.contains(name: "Content-Length") { fields.add(name: "Content-Length", value: "\(length)") }
        let head = HTTPResponseHead(version: version, status: HTTPResponseStatus(statusCode: status), headers: fields)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
    }

    /// The path and query of a request target, in origin form (`/page/items?page=2`) or in
    /// the absolute form a client sends to a proxy (`http://api.example.test/page/items?page=2`):
    /// the upstream answers as its own proxy, for any host, so that a test can give its URLs
    /// a host name that does not depend on the port it listens on.
    private static func split(_ uri: String) -> (String, String) {
        var target = Substring(uri)
        if target.hasPrefix("http://") {
            let authority = target.dropFirst("http://".count)
            target = authority.firstIndex(where: { $0 == "/" || $0 == "?" }).map { authority[$0...] } ?? "/"
            if target.hasPrefix("?") { target = "/" + target }
        }
        guard let question = target.firstIndex(of: "?") else { return (String(target), "") }
        return (String(target[..<question]), String(target[target.index(after: question)...]))
    }
}
