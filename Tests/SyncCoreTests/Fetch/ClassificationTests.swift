import AsyncHTTPClient
import Glibc
import NIOCore
import NIOHTTP1
import NIOSSL
import Streams
import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct ClassificationTests {
    struct Example: Sendable, CustomTestStringConvertible {
        var error: any Error & Sendable
        var kind: FetchError.Kind
        var cause: String
        var testDescription: String { cause }
    }

    static let examples: [Example] = [
        Example(error: TimeoutError(), kind: .transient, cause: "no complete answer within 30s"),
        Example(
            error: NIOTooManyBytesError(maxBytes: 1024), kind: .unrecoverable,
            cause: "the response is larger than maxResponseSize (32 MiB)"),
        Example(
            error: ContentLengthTooLarge(stated: "9223372036854775808", maxBytes: 32 * 1024 * 1024),
            kind: .unrecoverable,
            cause: "the response is larger than maxResponseSize (32 MiB): its Content-Length is 9223372036854775808"),
        Example(
            error: ContentLengthTooLarge(stated: String(repeating: "9", count: 60), maxBytes: 1024),
            kind: .unrecoverable,
            cause: "the response is larger than maxResponseSize (1 KiB): its Content-Length is "
                + String(repeating: "9", count: 40) + "…"),
        Example(
            error: HTTPParserError.invalidContentLength, kind: .unrecoverable,
            cause: "the answer is not valid HTTP: its Content-Length is no size (not digits, or 2^64 or more)"),
        Example(
            error: HTTPClientError.connectTimeout, kind: .offline, cause: "could not connect to h (connect timeout)"),
        Example(
            error: HTTPClientError.readTimeout, kind: .transient,
            cause: "the server stopped answering (HTTPClientError.readTimeout)"),
        Example(
            error: HTTPClientError.remoteConnectionClosed, kind: .transient,
            cause: "the connection closed before the whole answer arrived"),
        Example(
            error: HTTPClientError.invalidURL, kind: .unrecoverable,
            cause: "the request cannot be made (HTTPClientError.invalidURL)"),
        Example(
            error: IOError(errnoCode: ECONNREFUSED, reason: "connect"), kind: .transient,
            cause: "h refused the connection"),
        Example(
            error: IOError(errnoCode: ECONNRESET, reason: "read"), kind: .transient, cause: "the connection was reset"),
        Example(
            error: IOError(errnoCode: ETIMEDOUT, reason: "read"), kind: .transient, cause: "the connection timed out"),
        Example(
            error: IOError(errnoCode: ENETUNREACH, reason: "connect"), kind: .offline,
            cause: "the network is unreachable"),
        Example(
            error: IOError(errnoCode: EHOSTUNREACH, reason: "connect"), kind: .offline,
            cause: "the host h is unreachable"),
        Example(
            error: ChannelError.eof, kind: .transient, cause: "the connection closed before the whole answer arrived"),
        Example(
            error: HTTPParserError.invalidEOFState, kind: .transient,
            cause: "the connection closed before the whole body arrived"),
        Example(
            error: HTTPParserError.invalidHeaderToken, kind: .unrecoverable,
            cause: "the answer is not valid HTTP (invalid character in header)"),
        Example(
            error: NIOSSLError.uncleanShutdown, kind: .transient,
            cause: "the TLS connection closed before the whole answer arrived"),
        Example(
            error: NIOSSLError.unableToValidateCertificate, kind: .unrecoverable,
            cause: "the TLS connection to h failed (unableToValidateCertificate)"),
        Example(
            error: Redirect.Problem(message: "more than 5 redirects"), kind: .unrecoverable,
            cause: "more than 5 redirects"),
        Example(
            error: ContentDecoding.TooLarge(maxBytes: 1024 * 1024), kind: .unrecoverable,
            cause: "the response is larger than maxResponseSize (1 MiB) once decompressed"),
        Example(
            error: ContentDecoding.Unsupported(coding: "br"), kind: .unrecoverable,
            cause:
                "the server sent the body encoded as br, which the agent cannot read (it reads gzip and deflate: "
                + "check the resource's Accept-Encoding header)"),
        Example(
            error: ContentDecoding.Corrupt(coding: "gzip", reason: "truncatedData"), kind: .transient,
            cause: "the gzip body does not decompress (truncatedData)"),
    ]

    @Test func contentEncodingsAreReadAsGzipOrDeflateOrRefused() {
        #expect(ContentDecoding.plan(for: nil) == .identity)
        #expect(ContentDecoding.plan(for: "identity") == .identity)
        #expect(ContentDecoding.plan(for: "GZIP") == .decode)
        #expect(ContentDecoding.plan(for: "x-gzip") == .decode)
        #expect(ContentDecoding.plan(for: "deflate") == .decode)
        #expect(ContentDecoding.plan(for: "br") == .unsupported("br"))
        #expect(ContentDecoding.plan(for: "gzip, gzip") == .unsupported("gzip, gzip"))
    }

    @Test(arguments: examples)
    func classifiesWhatTheNetworkLayerReports(_ example: Example) {
        let error = FetchError.classify(
            example.error, resource: "r", request: "GET http://h/", host: "h", timeout: .seconds(30),
            maxBytes: 32 * 1024 * 1024)
        #expect(error.kind == example.kind)
        #expect(error.cause == example.cause)
    }

    @Test func runningOutOfFilesOrMemoryIsTheMachinesCondition() {
        func classify(_ error: any Error) -> FetchError {
            FetchError.classify(
                error, resource: "r", request: "GET http://h/", host: "h", timeout: .seconds(1), maxBytes: 1)
        }
        let outOfFiles = classify(IOError(errnoCode: EMFILE, reason: "socket"))
        #expect(outOfFiles.kind == .transient && outOfFiles.ofMachine)
        #expect(outOfFiles.cause == "the connection failed: Too many open files")
        #expect(classify(IOError(errnoCode: ENFILE, reason: "socket")).ofMachine)
        #expect(classify(IOError(errnoCode: ENOMEM, reason: "read")).ofMachine)
        #expect(!classify(IOError(errnoCode: ECONNRESET, reason: "read")).ofMachine)
        #expect(!classify(TimeoutError()).ofMachine)
    }

    @Test func aProxysFailuresNameTheProxyAndNeverItsCredentials() throws {
        func classify(_ error: any Error, credentials: Bool = false) throws -> FetchError {
            var proxy = try ProxyServer(parsing: credentials ? "http://sync:s3cr3t@proxy.corp:3128" : "proxy.corp:3128")
            if !credentials { proxy.username = nil }
            return FetchError.classify(
                error, resource: "r", request: "GET https://h/", host: "h", proxy: proxy, timeout: .seconds(30),
                maxBytes: 1)
        }
        let asks = try classify(HTTPClientError.proxyAuthenticationRequired)
        #expect(asks.kind == .unrecoverable)
        #expect(
            asks.cause
                == "the proxy http://proxy.corp:3128 asks for credentials (407 Proxy Authentication Required): "
                + "give them in proxy as http://user:password@host:port")
        let refused = try classify(HTTPClientError.proxyAuthenticationRequired, credentials: true)
        #expect(refused.kind == .unrecoverable)
        #expect(refused.cause.hasPrefix("the proxy http://proxy.corp:3128 refused the credentials (407"))
        let noTunnel = try classify(HTTPClientError.invalidProxyResponse, credentials: true)
        #expect(noTunnel.kind == .transient)
        #expect(noTunnel.cause.hasPrefix("the proxy http://proxy.corp:3128 did not open a tunnel to h"))
        let timeout = try classify(HTTPClientError.connectTimeout, credentials: true)
        #expect(timeout.kind == .offline)
        #expect(timeout.cause == "could not connect to the proxy http://proxy.corp:3128 (connect timeout)")
        let unreached = try classify(ChannelError.connectTimeout(.seconds(10)), credentials: true)
        #expect(unreached.kind == .offline)
        #expect(
            unreached.cause
                == "the proxy http://proxy.corp:3128 cannot be reached: could not connect to proxy.corp (connect timeout)"
        )
        // The server's own failures behind the proxy are told as without it.
        #expect(try classify(HTTPClientError.remoteConnectionClosed).cause.hasPrefix("the connection closed"))
        // Every failure but the first had credentials to give away.
        for error in [asks, refused, noTunnel, timeout, unreached] {
            #expect(!error.description.contains("s3cr3t") && !error.description.contains("sync:"))
        }
    }

    struct Unknown: Error {}

    @Test func anUnknownErrorIsNotRetried() {
        let error = FetchError.classify(
            Unknown(), resource: "r", request: "GET http://h/", host: "h", timeout: .seconds(1), maxBytes: 1)
        #expect(error.kind == .unrecoverable)
    }
}
