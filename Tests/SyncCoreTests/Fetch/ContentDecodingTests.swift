import NIOCore
import NIOEmbedded
import Testing

@testable import SyncCore

/// A decoder gives back its channel (the decompressor's pipeline, its handler and its
/// zlib stream) however the body ends: decoded, refused, or cut short.
@Suite(.timeLimit(.minutes(1))) struct ContentDecodingTests {
    /// "hello", gzipped.
    static let hello: [UInt8] = [
        0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x07, 0x00, 0x86,
        0xA6, 0x10, 0x36, 0x05, 0x00, 0x00, 0x00,
    ]

    @Test func aWholeBodyIsDecodedAndTheDecoderFreed() throws {
        weak var channel: EmbeddedChannel?
        var body = ByteBuffer()
        do {
            var decoder = try ContentDecoding(contentEncoding: "gzip", maxBytes: 1024)
            channel = decoder.channel
            try decoder.feed(ByteBuffer(bytes: Self.hello), into: &body)
            try decoder.finish(into: &body)
        }
        #expect(String(buffer: body) == "hello")
        #expect(channel == nil)
    }

    @Test func aBodyThatDoesNotDecodeStillFreesTheDecoder() throws {
        weak var channel: EmbeddedChannel?
        do {
            var decoder = try ContentDecoding(contentEncoding: "gzip", maxBytes: 1024)
            channel = decoder.channel
            var body = ByteBuffer()
            // A gzip header, then bytes that are no deflate stream.
            let corrupt = Array(Self.hello.prefix(10)) + [0xFF, 0xFF, 0xFF, 0xFF]
            #expect(throws: (any Error).self) { try decoder.feed(ByteBuffer(bytes: corrupt), into: &body) }
        }
        #expect(channel == nil)
    }

    @Test func aBodyCutShortStillFreesTheDecoder() throws {
        weak var channel: EmbeddedChannel?
        do {
            var decoder = try ContentDecoding(contentEncoding: "gzip", maxBytes: 1024)
            channel = decoder.channel
            var body = ByteBuffer()
            // The connection ends (or the sync is cancelled) before the body does.
            try decoder.feed(ByteBuffer(bytes: Self.hello.prefix(12)), into: &body)
        }
        #expect(channel == nil)
    }
}
