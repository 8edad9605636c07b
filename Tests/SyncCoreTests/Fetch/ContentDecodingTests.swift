import CZlib
import NIOCore
import Testing

@testable import SyncCore

/// A decoder reads gzip and deflate bodies fed in chunks of any size, from any thread,
/// caps what it decodes, and tells a body cut short or garbled from a whole one.
@Suite(.timeLimit(.minutes(1))) struct ContentDecodingTests {
    /// "hello", gzipped.
    static let hello: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x86,
        0xA6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
    ]
    /// "hello", as HTTP's deflate: a zlib stream.
    static let helloDeflate: [UInt8] = [0x78, 0x9C, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x06, 0x2C, 0x02, 0x15]

    static func decode(
        _ bytes: [UInt8], as coding: String = "gzip", chunk: Int, maxBytes: Int = 1024
    ) throws
        -> String
    {
        var decoder = try ContentDecoding(contentEncoding: coding, maxBytes: maxBytes)
        var body = ByteBuffer()
        var start = 0
        while start < bytes.count {
            let end = min(start + chunk, bytes.count)
            try decoder.feed(ByteBuffer(bytes: bytes[start..<end]), into: &body)
            start = end
        }
        try decoder.finish(into: &body)
        return String(buffer: body)
    }

    @Test(arguments: [1, 3, 25])
    func aWholeBodyIsDecodedInChunksOfAnySize(chunk: Int) throws {
        #expect(try Self.decode(Self.hello, chunk: chunk) == "hello")
        #expect(try Self.decode(Self.helloDeflate, as: "deflate", chunk: chunk) == "hello")
        let deflated = try Gzip.compress(Array("hello, again".utf8), gzip: false)
        #expect(try Self.decode(deflated, as: "deflate", chunk: chunk) == "hello, again")
    }

    @Test func aBodyFedFromManyThreadsIsDecodedWhole() async throws {
        // 200 KB of text in 1 KB chunks, each fed after an await that may resume on
        // another thread: NIO's EmbeddedChannel, used before, warned on every hop.
        let text = String(repeating: "sync-agent keeps a copy fresh. ", count: 6_500)
        let compressed = try Gzip.compress(Array(text.utf8))
        var decoder = try ContentDecoding(contentEncoding: "gzip", maxBytes: 1 << 20)
        var body = ByteBuffer()
        for start in stride(from: 0, to: compressed.count, by: 1024) {
            await Task.yield()
            try decoder.feed(
                ByteBuffer(bytes: compressed[start..<min(start + 1024, compressed.count)]), into: &body)
        }
        try decoder.finish(into: &body)
        #expect(String(buffer: body) == text)
    }

    @Test func aBodyLargerThanTheCapOnceDecodedIsTooLarge() throws {
        let compressed = try Gzip.compress([UInt8](repeating: 0x61, count: 100_000))
        #expect(throws: ContentDecoding.TooLarge.self) {
            _ = try Self.decode(compressed, chunk: compressed.count, maxBytes: 10_000)
        }
        #expect(try Self.decode(compressed, chunk: 7, maxBytes: 100_000).count == 100_000)
    }

    @Test func aBodyThatDoesNotDecodeIsCorrupt() throws {
        // A gzip header, then bytes that are no deflate stream.
        let corrupt = Array(Self.hello.prefix(10)) + [0xFF, 0xFF, 0xFF, 0xFF]
        #expect(throws: ContentDecoding.Corrupt.self) { _ = try Self.decode(corrupt, chunk: 4) }
        #expect(throws: ContentDecoding.Corrupt.self) { _ = try Self.decode(Array("hello".utf8), chunk: 5) }
    }

    @Test func aBodyCutShortIsTruncatedAndBytesAfterTheStreamAreTrailing() throws {
        let cut = #expect(throws: ContentDecoding.Corrupt.self) {
            _ = try Self.decode(Array(Self.hello.prefix(12)), chunk: 12)
        }
        #expect(cut?.reason == "truncatedData")
        let trailing = #expect(throws: ContentDecoding.Corrupt.self) {
            _ = try Self.decode(Self.hello + [0x41], chunk: 100)
        }
        #expect(trailing?.reason == "invalidTrailingData")
        #expect(throws: ContentDecoding.Corrupt.self) { _ = try Self.decode(Self.hello + Self.hello, chunk: 25) }
    }
}

/// Bodies compressed with the system's zlib, as a server would send them.
enum Gzip {
    struct Failed: Error { var status: Int32 }

    /// `bytes` as a gzip stream (`gzip: true`) or a zlib one (HTTP's deflate).
    static func compress(_ bytes: [UInt8], gzip: Bool = true) throws -> [UInt8] {
        var stream = z_stream()
        // 15: the largest window; + 16: a gzip header and trailer instead of zlib's.
        let windowBits: Int32 = gzip ? 15 + 16 : 15
        var status = deflateInit2_(
            &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, windowBits, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else { throw Failed(status: status) }
        defer { deflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let written = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = output.baseAddress
                stream.avail_out = uInt(output.count)
                status = deflate(&stream, Z_FINISH)
                return output.count - Int(stream.avail_out)
            }
        }
        guard status == Z_STREAM_END else { throw Failed(status: status) }
        return Array(output.prefix(written))
    }
}
