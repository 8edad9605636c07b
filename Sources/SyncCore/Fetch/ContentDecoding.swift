import CZlib
import NIOCore

/// Decodes a response body sent with `Content-Encoding: gzip` or `deflate`
/// as it streams in (docs/configuration.md#compression), with the system's
/// zlib: the decoded size is capped (a gzip bomb stops at the cap), and the
/// bytes on the wire are counted.
///
/// Thread-safety: not `Sendable`; one per response, in one task, which may go on
/// on any thread between chunks. Not copyable: its zlib stream is freed once.
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

    /// The zlib stream, on the heap (zlib keeps pointers into it), owned by this
    /// decoder alone: freed once, in `deinit`, however the body ended. NIO's own
    /// decompressor runs on an `EmbeddedChannel`, which may only be used from the thread
    /// that made it, and a task that awaits the next chunk goes on on any thread.
    private let stream: UnsafeMutablePointer<z_stream>
    /// The encoding, as the response named it.
    private let coding: String
    private let maxBytes: Int
    private var decoded = 0
    /// Whether the compressed stream has ended (`Z_STREAM_END`).
    private var ended = false

    /// A decoder for a body encoded with `contentEncoding`, decoding at most `maxBytes`.
    /// Both gzip and zlib-wrapped deflate are read, told apart by their header, as
    /// browsers and NIO do.
    init(contentEncoding: String, maxBytes: Int) throws {
        let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15: the largest window; + 32: a gzip or zlib header, detected.
        let status = inflateInit2_(stream, 15 + 32, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw Corrupt(coding: contentEncoding, reason: Self.reason(status, nil))
        }
        self.stream = stream
        self.coding = contentEncoding
        self.maxBytes = maxBytes
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Decodes `chunk`, appending what it yields to `body`.
    mutating func feed(_ chunk: ByteBuffer, into body: inout ByteBuffer) throws {
        guard chunk.readableBytes > 0 else { return }
        guard !ended else { throw Corrupt(coding: coding, reason: "invalidTrailingData") }
        let (stream, coding, maxBytes) = (stream, coding, maxBytes)
        var decoded = decoded
        var ended = false
        try chunk.withUnsafeReadableBytes { input in
            stream.pointee.next_in = UnsafeMutablePointer(
                mutating: input.baseAddress!.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(input.count)
            defer {
                stream.pointee.next_in = nil
                stream.pointee.avail_in = 0
            }
            while stream.pointee.avail_in > 0 {
                var status = Z_OK
                let written = body.writeWithUnsafeMutableBytes(minimumWritableBytes: 16_384) { output in
                    stream.pointee.next_out = output.baseAddress!.assumingMemoryBound(to: Bytef.self)
                    stream.pointee.avail_out = uInt(output.count)
                    status = inflate(stream, Z_NO_FLUSH)
                    defer {
                        stream.pointee.next_out = nil
                        stream.pointee.avail_out = 0
                    }
                    return output.count - Int(stream.pointee.avail_out)
                }
                decoded += written
                guard decoded <= maxBytes else { throw TooLarge(maxBytes: maxBytes) }
                switch status {
                case Z_OK, Z_BUF_ERROR:
                    continue
                case Z_STREAM_END:
                    ended = true
                    guard stream.pointee.avail_in == 0 else {
                        throw Corrupt(coding: coding, reason: "invalidTrailingData")
                    }
                default:
                    throw Corrupt(coding: coding, reason: Self.reason(status, stream.pointee.msg))
                }
            }
        }
        self.decoded = decoded
        self.ended = ended
    }

    /// Ends the body, appending what is left to `body` (nothing: zlib yields all it
    /// can as it is fed). A body that ends before its compressed stream is cut short.
    mutating func finish(into body: inout ByteBuffer) throws {
        guard ended else { throw Corrupt(coding: coding, reason: "truncatedData") }
    }

    /// What zlib said of a failure: its message when it has one.
    private static func reason(_ status: Int32, _ message: UnsafePointer<CChar>?) -> String {
        if let message { return String(cString: message) }
        return "zlib status \(status)"
    }
}
