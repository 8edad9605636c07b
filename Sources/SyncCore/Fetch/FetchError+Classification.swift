import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Streams

extension FetchError {
    /// Classifies an error thrown while sending a request
    /// (docs/configuration.md#failures-and-retries): what the network layer says
    /// becomes `transient`, `offline` or `unrecoverable`, with a phrase a person
    /// understands. Only what can succeed later is transient: an error of a kind
    /// not recognised here is unrecoverable. A request sent through `proxy` names
    /// the proxy when it is the proxy that failed (docs/configuration.md#proxies).
    static func classify(
        _ error: any Error, resource: String, request: String, host: String, proxy: ProxyServer? = nil,
        timeout: Duration, maxBytes: Int
    ) -> FetchError {
        if let failure = error as? OAuth2Tokens.Failure {
            // The token request failed, not the page's: its own words.
            var classified = FetchError(
                failure.kind, resource: resource, request: failure.request, cause: failure.cause,
                status: failure.status, retryAfter: failure.retryAfter)
            classified.ofMachine = failure.ofMachine
            return classified
        }
        let (kind, cause) =
            proxy.flatMap { describe(error, proxy: $0, host: host, timeout: timeout, maxBytes: maxBytes) }
            ?? describe(error, host: host, timeout: timeout, maxBytes: maxBytes)
        var classified = FetchError(kind, resource: resource, request: request, cause: cause)
        classified.ofMachine = isMachineCondition(error)
        return classified
    }

    /// Whether `error` is the machine running out of file descriptors or memory.
    static func isMachineCondition(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError: [EMFILE, ENFILE, ENOMEM, ENOBUFS].contains(error.errnoCode)
        case let error as NIOConnectionError: error.connectionErrors.contains { isMachineCondition($0.error) }
        default: false
        }
    }

    private static func describe(_ error: any Error, host: String, timeout: Duration, maxBytes: Int) -> (Kind, String) {
        switch error {
        case is TimeoutError:
            return (.transient, "no complete answer within \(DurationText.format(timeout))")
        case is NIOTooManyBytesError:
            return (.unrecoverable, "the response is larger than maxResponseSize (\(ByteSizeText.format(maxBytes)))")
        case let error as ContentLengthTooLarge:
            return (
                .unrecoverable,
                "the response is larger than maxResponseSize (\(ByteSizeText.format(error.maxBytes))): "
                    + "its Content-Length is \(error.shown)"
            )
        case let problem as Redirect.Problem:
            return (.unrecoverable, problem.message)
        case let error as ContentDecoding.TooLarge:
            return (
                .unrecoverable,
                "the response is larger than maxResponseSize (\(ByteSizeText.format(error.maxBytes))) once decompressed"
            )
        case let error as ContentDecoding.Unsupported:
            return (
                .unrecoverable,
                "the server sent the body encoded as \(error.coding), which the agent cannot read "
                    + "(it reads gzip and deflate: check the resource's Accept-Encoding header)"
            )
        case let error as ContentDecoding.Corrupt:
            // A body cut or garbled on the way may come whole next time.
            return (.transient, "the \(error.coding) body does not decompress (\(error.reason))")
        case let error as NIOConnectionError:
            // Failures while connecting: a timeout here means the host cannot be reached.
            if let failure = error.connectionErrors.first {
                if let io = failure.error as? IOError, io.errnoCode == ETIMEDOUT {
                    return (.offline, "could not connect to \(host) (connect timeout)")
                }
                return describe(failure.error, host: host, timeout: timeout, maxBytes: maxBytes)
            }
            return (.offline, "the host \(host) could not be resolved (DNS)")
        case let error as SocketAddressError:
            if case .unknown = error { return (.offline, "the host \(host) could not be resolved (DNS)") }
            return (.unrecoverable, "the address of \(host) is not usable (\(error))")
        case let error as IOError:
            return describe(errno: error.errnoCode, host: host)
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return (.offline, "could not connect to \(host) (connect timeout)")
            case .eof, .ioOnClosedChannel, .inputClosed, .outputClosed, .alreadyClosed:
                return (.transient, "the connection closed before the whole answer arrived")
            default: return (.transient, "the connection failed (\(error))")
            }
        case let error as HTTPClientError:
            return describe(error, host: host)
        case let error as HTTPParserError:
            if case .invalidContentLength = error {
                // The HTTP parser refuses it before the agent sees its value.
                return (
                    .unrecoverable,
                    "the answer is not valid HTTP: its Content-Length is no size (not digits, or 2^64 or more)"
                )
            }
            if case .invalidEOFState = error {
                return (.transient, "the connection closed before the whole body arrived")
            }
            return (.unrecoverable, "the answer is not valid HTTP (\(error))")
        case let error as NIOSSLError:
            if case .uncleanShutdown = error {
                return (.transient, "the TLS connection closed before the whole answer arrived")
            }
            if case .handshakeFailed = error {
                return (
                    .unrecoverable,
                    "the TLS connection to \(host) failed (\(error)): its certificate is not trusted, or it wants "
                        + "a client certificate; tls.caFile trusts a private CA, tls.clientCertificate presents one"
                )
            }
            return (.unrecoverable, "the TLS connection to \(host) failed (\(error))")
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return (
                .unrecoverable,
                "the certificate of \(host) is not issued for \(host) (tls.serverName names the name to expect)"
            )
        case is CancellationError:
            return (.transient, "the request was cancelled")
        default:
            return (.unrecoverable, "\(error)")
        }
    }

    /// The failures of a proxy: one that cannot be reached is a network fault,
    /// as a server would be; one that asks for credentials (407) cannot succeed
    /// as configured; one that answers but opens no tunnel may do so later.
    /// `nil` for the failures of the server behind it.
    private static func describe(
        _ error: any Error, proxy: ProxyServer, host: String, timeout: Duration, maxBytes: Int
    ) -> (Kind, String)? {
        switch error {
        case let error as HTTPClientError where error == .proxyAuthenticationRequired:
            let want =
                proxy.username == nil
                ? "asks for credentials (407 Proxy Authentication Required): give them in proxy as "
                    + "http://user:password@host:port"
                : "refused the credentials (407 Proxy Authentication Required): check the user and password "
                    + "given for it"
            return (.unrecoverable, "the proxy \(proxy) \(want)")
        case let error as HTTPClientError where error == .invalidProxyResponse:
            // AsyncHTTPClient keeps no status; some proxies (tinyproxy) refuse credentials with a 401.
            let reasons =
                proxy.username == nil
                ? "it cannot reach the host, or does not allow it"
                : "it cannot reach the host, does not allow it, or refuses the credentials given"
            return (
                .transient,
                "the proxy \(proxy) did not open a tunnel to \(host) (it answered CONNECT with an error: \(reasons))"
            )
        case let error as HTTPClientError where error == .httpProxyHandshakeTimeout:
            return (.transient, "the proxy \(proxy) did not answer CONNECT in time")
        case let error as HTTPClientError where error == .connectTimeout:
            return (.offline, "could not connect to the proxy \(proxy) (connect timeout)")
        case is NIOConnectionError, is SocketAddressError, ChannelError.connectTimeout:
            let (kind, cause) = describe(error, host: proxy.host, timeout: timeout, maxBytes: maxBytes)
            return (kind, "the proxy \(proxy) cannot be reached: \(cause)")
        default:
            return nil
        }
    }

    private static func describe(_ error: HTTPClientError, host: String) -> (Kind, String) {
        switch error {
        case .connectTimeout: return (.offline, "could not connect to \(host) (connect timeout)")
        case .readTimeout, .writeTimeout, .deadlineExceeded, .getConnectionFromPoolTimeout:
            return (.transient, "the server stopped answering (\(error))")
        case .tlsHandshakeTimeout: return (.transient, "the TLS handshake with \(host) timed out")
        case .remoteConnectionClosed, .uncleanShutdown:
            return (.transient, "the connection closed before the whole answer arrived")
        case .bodyLengthMismatch: return (.transient, "the body was shorter than its Content-Length")
        case .cancelled: return (.transient, "the request was cancelled")
        default: return (.unrecoverable, "the request cannot be made (\(error))")
        }
    }

    /// An operating-system error on an established connection (connecting
    /// failures come wrapped in `NIOConnectionError`).
    private static func describe(errno code: Int32, host: String) -> (Kind, String) {
        switch code {
        case ECONNREFUSED: return (.transient, "\(host) refused the connection")
        case ECONNRESET: return (.transient, "the connection was reset")
        case EPIPE: return (.transient, "the connection was closed while sending")
        case ETIMEDOUT: return (.transient, "the connection timed out")
        case ENETUNREACH: return (.offline, "the network is unreachable")
        case EHOSTUNREACH: return (.offline, "the host \(host) is unreachable")
        case ENETDOWN: return (.offline, "the network is down")
        default: return (.transient, "the connection failed: \(String(cString: strerror(code)))")
        }
    }
}
