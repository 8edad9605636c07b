import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The optional TCP listener for monitoring (docs/observability.md#the-http-listener):
/// `"http": {"listen": "127.0.0.1:9464", "control": false, "token": "${credential:http-token}"}`.
///
/// It serves the metrics, the health checks, the status page and the
/// read-only requests of the status API; the requests that change something
/// (refresh, reload) only with `control` and the bearer `token`.
package struct HTTPListenerSettings: Sendable, Hashable {
    /// The address to bind: an IPv4 or IPv6 literal, or `localhost`.
    package var host: String
    /// The TCP port.
    package var port: Int
    /// Whether the listener takes the requests that change something, with the token.
    package var control = false
    /// The bearer token of those requests (a secret; it is never shown).
    package var token: String?

    /// The shortest token accepted: one that can be guessed is no token.
    package static let minimumTokenLength = 16

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `127.0.0.1:9464`, or `[::1]:9464`, as written in the configuration.
    package var listen: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// The listener's base URL, such as `http://127.0.0.1:9464`.
    package var url: String { "http://\(listen)" }

    /// Whether only this machine can reach the listener (a loopback address).
    package var isLoopback: Bool { Self.isLoopback(host: host) }

    /// Whether `host` (a name or an address, IPv6 without brackets) is this
    /// machine's loopback: `localhost`, `::1` or an address of 127.0.0.0/8.
    package static func isLoopback(host: String) -> Bool {
        let host = host.lowercased()
        if host == "localhost" || host == "::1" { return true }
        var address = in_addr()
        guard inet_pton(AF_INET, host, &address) == 1 else { return false }
        return UInt32(bigEndian: address.s_addr) >> 24 == 127
    }

    /// Reads `HOST:PORT` (`[IPV6]:PORT` for an IPv6 address), or says why it is not one.
    package static func parse(listen text: String) -> Result<HTTPListenerSettings, Problem> {
        let host: Substring
        let port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[close...].hasPrefix("]:") else {
                return .failure(Problem("must look like \"[::1]:9464\" for an IPv6 address"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
            var address = in6_addr()
            guard inet_pton(AF_INET6, String(host), &address) == 1 else {
                return .failure(Problem("\(host) is not an IPv6 address"))
            }
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else {
                return .failure(
                    Problem("must look like \"127.0.0.1:9464\" (an address and a port; \"[::1]:9464\" for IPv6)"))
            }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
            var address = in_addr()
            guard host == "localhost" || inet_pton(AF_INET, String(host), &address) == 1 else {
                return .failure(
                    Problem(
                        "\(host.isEmpty ? "the address" : String(host)) is not an IPv4 address; use one such as "
                            + "127.0.0.1 (this machine only) or 0.0.0.0 (every interface), or [::1] for IPv6"))
            }
        }
        guard let number = Int(port), (1...65_535).contains(number) else {
            return .failure(Problem("the port must be a number from 1 to 65535, not \"\(port)\""))
        }
        return .success(HTTPListenerSettings(host: String(host), port: number))
    }

    /// Why a `listen` value is refused.
    package struct Problem: Error, Sendable {
        package var message: String

        init(_ message: String) {
            self.message = message
        }
    }
}
