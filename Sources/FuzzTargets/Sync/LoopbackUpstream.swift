import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// A server on loopback that answers the agent's `HTTPTransport` with the
/// current input's ``ScriptedUpstream``, writing each answer's head byte for
/// byte: a `Content-Length` the script gives is sent as it is, however large,
/// and the connection is closed after every answer (so a length that is not
/// the body's is the end of it, never a wait).
///
/// One server serves the process; inputs run one at a time, and each sets
/// ``current`` while it syncs.
///
/// Thread-safety: `Sendable`; ``current`` is behind a `Mutex`.
final class LoopbackUpstream: Sendable {
    let port: Int
    private let channel: any Channel
    private let currentUpstream = Mutex<ScriptedUpstream?>(nil)

    /// The base URL of its answers.
    var base: String { "http://127.0.0.1:\(port)" }

    /// The upstream that answers now.
    var current: ScriptedUpstream? {
        get { currentUpstream.withLock { $0 } }
        set { currentUpstream.withLock { $0 = newValue } }
    }

    private init(channel: any Channel, port: Int) {
        self.channel = channel
        self.port = port
    }

    /// Starts a server on a free port of 127.0.0.1.
    static func start() throws -> LoopbackUpstream {
        let holder = Mutex<LoopbackUpstream?>(nil)
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)))
                    try channel.pipeline.syncOperations.addHandler(
                        AnswerHandler { holder.withLock { $0 }?.current })
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        let server = LoopbackUpstream(channel: channel, port: channel.localAddress?.port ?? 0)
        holder.withLock { $0 = server }
        return server
    }

    /// A header value as it is written: without control characters, which no header line holds.
    static func onTheWire(_ value: String) -> String {
        String(String.UnicodeScalarView(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
    }

    /// The bytes of an answer: its status line, its headers (the script's
    /// `Content-Length`, else the body's), `Connection: close`, and its body.
    static func bytes(of exchange: ScriptedUpstream.Exchange, headers: [(name: String, value: String)]) -> ByteBuffer {
        let answer = exchange.answer
        let bodiless = answer.status == 304 || answer.status == 204
        let body = bodiless ? "" : exchange.bodyText
        var head = "HTTP/1.1 \(answer.status) \(HTTPResponseStatus(statusCode: answer.status).reasonPhrase)\r\n"
        for (name, value) in headers {
            head += "\(name): \(onTheWire(value))\r\n"
        }
        if let length = answer.contentLength {
            head += "Content-Length: \(length)\r\n"
        } else if !bodiless {
            head += "Content-Length: \(body.utf8.count)\r\n"
        }
        head += "Connection: close\r\n\r\n"
        var buffer = ByteBuffer(string: head)
        buffer.writeString(body)
        return buffer
    }
}

/// Reads one request and writes the current upstream's answer to it, then closes.
private final class AnswerHandler: ChannelInboundHandler, @unchecked Sendable {
    // @unchecked: NIO calls a handler on its channel's event loop only; the state is that loop's.
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = ByteBuffer

    private let upstream: @Sendable () -> ScriptedUpstream?
    private var head: HTTPRequestHead?
    private var body = ByteBuffer()

    init(upstream: @escaping @Sendable () -> ScriptedUpstream?) {
        self.upstream = upstream
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            self.head = head
            body.clear()
        case .body(var chunk):
            body.writeBuffer(&chunk)
        case .end:
            guard let head, let upstream = upstream() else {
                context.close(promise: nil)
                return
            }
            let text = body.readableBytes > 0 ? String(buffer: body) : nil
            let exchange = upstream.answer(
                method: head.method.rawValue, url: upstream.base + head.uri,
                headers: head.headers.map { ($0.name, $0.value) }, body: text)
            guard exchange.answer.failure == nil else {
                context.close(promise: nil)
                return
            }
            let bytes = LoopbackUpstream.bytes(of: exchange, headers: upstream.headers(of: exchange.answer))
            let channel = context.channel
            context.writeAndFlush(wrapOutboundOut(bytes)).whenComplete { _ in channel.close(promise: nil) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
