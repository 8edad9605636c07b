import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// Sends `http://` requests through an HTTP proxy as curl does
/// (docs/configuration.md#proxies): to the proxy, with the whole URL as the
/// request target (`GET http://api.example.com/users HTTP/1.1`, RFC 9112
/// §3.2.2), and `Proxy-Authorization: Basic` when the proxy has credentials.
///
/// AsyncHTTPClient sends every request through a proxy in a `CONNECT` tunnel,
/// and proxies allow `CONNECT` only to port 443 by default (Squid's
/// `SSL_ports`), so plain HTTP through a proxy is sent here instead: over a
/// connection of its own, closed once the answer has come (`Connection: close`).
/// The answer is an `HTTPClientResponse` whose body streams as it arrives, so
/// the transport reads it as it reads AsyncHTTPClient's: the redirects, the body
/// cap and the decoding stay in one place. A proxy that answers 407 throws
/// AsyncHTTPClient's `proxyAuthenticationRequired`, as a `CONNECT` answered 407 does.
///
/// Thread-safety: `Sendable` (it holds no state); call it from any task.
struct ProxyForwarder: Sendable {
    /// The longest a connection to the proxy may take.
    var connectTimeout: TimeAmount

    /// Sends `request` (an `http://` URL) through `proxy`, with `body`, and
    /// returns the answer's head with its body still to come. Cancelling the
    /// task closes the connection.
    func execute(
        _ request: HTTPClientRequest, body: ByteBuffer?, via proxy: ProxyServer
    ) async throws
        -> HTTPClientResponse
    {
        guard let target = Self.target(of: request.url) else { throw HTTPClientError.invalidURL }
        var headers = request.headers
        if !headers.contains(name: "Host") { headers.add(name: "Host", value: target.authority) }
        if let username = proxy.username {
            let credentials = Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString()
            headers.replaceOrAdd(name: "Proxy-Authorization", value: "Basic " + credentials)
        }
        if let body {
            headers.replaceOrAdd(name: "Content-Length", value: "\(body.readableBytes)")
        } else if request.method == .POST {
            headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        headers.replaceOrAdd(name: "Connection", value: "close")
        let head = HTTPRequestHead(version: .http1_1, method: request.method, uri: target.uri, headers: headers)

        let group = MultiThreadedEventLoopGroup.singleton
        let answered = group.any().makePromise(of: HTTPResponseHead.self)
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ByteBuffer.self)
        let channel: any Channel
        do {
            channel = try await ClientBootstrap(group: group)
                .connectTimeout(connectTimeout)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(
                            AnswerReceiver(head: answered, body: continuation))
                    }
                }
                .connect(host: proxy.host, port: proxy.port).get()
        } catch {
            answered.fail(error)
            continuation.finish(throwing: error)
            throw error
        }
        // A body left unread, or read by a task that is cancelled, closes the connection.
        continuation.onTermination = { _ in channel.close(promise: nil) }
        let status = try await withTaskCancellationHandler {
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if let body { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            return try await answered.futureResult.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        if status.status == .proxyAuthenticationRequired {
            channel.close(promise: nil)
            throw HTTPClientError.proxyAuthenticationRequired
        }
        return HTTPClientResponse(
            version: status.version, status: status.status, headers: status.headers,
            body: .stream(Body(base: stream)))
    }

    /// The request target of `url` in absolute form (without user, password and
    /// fragment, which are never sent), and its authority for `Host`.
    static func target(of url: String) -> (uri: String, authority: String)? {
        guard var components = URLComponents(string: url), components.scheme?.lowercased() == "http",
            components.host?.isEmpty == false
        else { return nil }
        components.user = nil
        components.password = nil
        components.fragment = nil
        if components.percentEncodedPath.isEmpty { components.percentEncodedPath = "/" }
        guard let uri = components.string, let schemeEnd = uri.range(of: "://") else { return nil }
        let rest = uri[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        return (uri, String(authority))
    }

    /// The body as it arrives: a body cut short by the task's cancellation
    /// throws rather than ending as if it were whole.
    struct Body: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let base: AsyncThrowingStream<ByteBuffer, any Error>

        struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator

            mutating func next() async throws -> ByteBuffer? {
                guard let chunk = try await base.next() else {
                    try Task.checkCancellation()
                    return nil
                }
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: base.makeAsyncIterator())
        }
    }
}

/// Hands the answer's head, then its body, to the task that sent the request;
/// closes the connection at the answer's end or on the first error.
///
/// Thread-safety: confined to its channel's event loop, as channel handlers are.
private final class AnswerReceiver: ChannelInboundHandler {
    typealias InboundIn = HTTPClientResponsePart

    private var head: EventLoopPromise<HTTPResponseHead>?
    private let body: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
    private var ended = false

    init(head: EventLoopPromise<HTTPResponseHead>, body: AsyncThrowingStream<ByteBuffer, any Error>.Continuation) {
        self.head = head
        self.body = body
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let answer):
            // An interim answer (100 Continue) is followed by the real one.
            guard answer.status.code >= 200 else { return }
            head?.succeed(answer)
            head = nil
        case .body(let chunk):
            body.yield(chunk)
        case .end:
            ended = true
            body.finish()
            context.close(promise: nil)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(HTTPClientError.remoteConnectionClosed)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error) {
        head?.fail(error)
        head = nil
        guard !ended else { return }
        ended = true
        body.finish(throwing: error)
    }
}
