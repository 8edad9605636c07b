import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Decodes a response body sent with `Content-Encoding: gzip` or `deflate`
/// as it streams in (docs/configuration.md#compression), with NIO's HTTP
/// decompressor run on an embedded channel: the decoded size is capped
/// (a gzip bomb stops at the cap), and the bytes on the wire are counted.
///
/// Thread-safety: not `Sendable`; one per response, in one task. Not copyable:
/// its channel is closed once, when it ends, however the body ended.
struct ContentDecoding: ~Copyable {
    /// The encodings the agent asks for and reads.
    static let accepted = "gzip, deflate"

    /// What a response's `Content-Encoding` asks of the agent.
    enum Plan: Equatable {
        /// The body is as sent.
        case identity
        /// The body must be decoded.
        case decode
        /// An encoding the agent cannot read, such as `br`.
        case unsupported(String)
    }

    /// The plan for a response with this `Content-Encoding` (none, or a list).
    static func plan(for contentEncoding: String?) -> Plan {
        let codings = (contentEncoding ?? "").lowercased().split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty && $0 != "identity" }
        guard let only = codings.first else { return .identity }
        guard codings.count == 1, ["gzip", "x-gzip", "deflate"].contains(only) else {
            return .unsupported(codings.joined(separator: ", "))
        }
        return .decode
    }

    /// A body in an encoding the agent cannot read.
    struct Unsupported: Error {
        var coding: String
    }

    /// A body that does not decode.
    struct Corrupt: Error {
        var coding: String
        var reason: String
    }

    /// A body whose decoded size passed `maxResponseSize`.
    struct TooLarge: Error {
        var maxBytes: Int
    }

    /// The decompressor's channel. Its pipeline and its handlers hold one another (and
    /// the handler its zlib stream) until the channel is closed, so a decoder dropped
    /// without closing it, after a body that failed to decode or a read cut short,
    /// leaked them all: found by LeakSanitizer (docs/testing.md#sanitizers).
    let channel: EmbeddedChannel

    /// A decoder for a body encoded with `contentEncoding`, decoding at most `maxBytes`.
    init(contentEncoding: String, maxBytes: Int) throws {
        let channel = EmbeddedChannel(handler: NIOHTTPResponseDecompressor(limit: .size(maxBytes)))
        var headers = HTTPHeaders()
        headers.add(name: "Content-Encoding", value: contentEncoding)
        do {
            try channel.writeInbound(
                HTTPClientResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers)))
            _ = try channel.readInbound(as: HTTPClientResponsePart.self)
        } catch {
            _ = try? channel.finish(acceptAlreadyClosed: true)
            throw error
        }
        self.channel = channel
    }

    deinit {
        _ = try? channel.finish(acceptAlreadyClosed: true)
    }

    /// Decodes `chunk`, appending what it yields to `body`.
    mutating func feed(_ chunk: ByteBuffer, into body: inout ByteBuffer) throws {
        try channel.writeInbound(HTTPClientResponsePart.body(chunk))
        try drain(into: &body)
    }

    /// Ends the body, appending what is left to `body`.
    mutating func finish(into body: inout ByteBuffer) throws {
        try channel.writeInbound(HTTPClientResponsePart.end(nil))
        try drain(into: &body)
        _ = try channel.finish()
    }

    private func drain(into body: inout ByteBuffer) throws {
        while let part = try channel.readInbound(as: HTTPClientResponsePart.self) {
            if case .body(var bytes) = part { body.writeBuffer(&bytes) }
        }
    }
}
