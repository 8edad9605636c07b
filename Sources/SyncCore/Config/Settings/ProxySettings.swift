import Foundation

/// An HTTP proxy, from `http://[user[:password]@]host[:port]` as curl reads it
/// (docs/configuration.md#proxies): the scheme may be left out, the port
/// defaults to 1080, the user and password are percent-decoded.
package struct ProxyServer: Sendable, Hashable, CustomStringConvertible {
    /// The proxy's host name or address (an IPv6 address without brackets).
    package var host: String
    /// Its TCP port.
    package var port: Int
    /// The user and password sent in `Proxy-Authorization` (Basic), if any.
    package var username: String?
    package var password: String?

    /// curl's default proxy port.
    package static let defaultPort = 1080

    /// The proxy as `http://host:port`: never its credentials.
    package var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    /// A value that is not a proxy URL the agent can use.
    package struct Problem: Error, Sendable {
        /// What is wrong, for `path: message`.
        package var message: String
    }

    /// Parses `[http://][user[:password]@]host[:port][/]`.
    package init(parsing text: String) throws(Problem) {
        let shape = "must look like http://[user:password@]host[:port]"
        var rest = Substring(text)
        if let separator = rest.range(of: "://") {
            let scheme = rest[..<separator.lowerBound].lowercased()
            guard scheme == "http" else {
                throw Problem(
                    message: scheme.hasPrefix("socks") || scheme == "https"
                        ? "\(shape): \(scheme) proxies are not supported, only http (HTTPS goes through it with CONNECT)"
                        : shape)
            }
            rest = rest[separator.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard let components = URLComponents(string: "http://" + rest), let rawHost = components.host,
            !rawHost.isEmpty, components.path.isEmpty, components.query == nil, components.fragment == nil
        else { throw Problem(message: shape) }
        host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        port = components.port ?? Self.defaultPort
        guard (1...65535).contains(port) else { throw Problem(message: "\(shape): the port must be 1 to 65535") }
        username = components.user
        password = components.password
    }
}

/// Which proxy each request goes through (docs/configuration.md#proxies):
/// the proxy for its scheme, unless `NO_PROXY` names its host.
package struct ProxySettings: Sendable, Hashable {
    /// The proxy of `http://` URLs.
    package var http: ProxyServer?
    /// The proxy of `https://` URLs.
    package var https: ProxyServer?
    /// The hosts reached directly all the same.
    package var noProxy = NoProxy("")

    /// No proxy at all.
    package init() {}

    /// The same proxy for both schemes, with these exceptions.
    package init(server: ProxyServer?, noProxy: NoProxy) {
        http = server
        https = server
        self.noProxy = noProxy
    }

    /// The proxy a request to `url` goes through, or `nil` to go directly.
    package func server(for url: String) -> ProxyServer? {
        guard let components = URLComponents(string: url), let host = components.host else { return nil }
        let secure = components.scheme?.lowercased() == "https"
        guard let server = secure ? https : http else { return nil }
        return noProxy.matches(host: host, port: components.port ?? (secure ? 443 : 80)) ? nil : server
    }

    /// The variables read, first set first: curl's, with `HTTP_PROXY` accepted too.
    package static let httpVariables = ["http_proxy", "HTTP_PROXY"]
    package static let httpsVariables = ["https_proxy", "HTTPS_PROXY"]
    package static let allVariables = ["all_proxy", "ALL_PROXY"]
    package static let noProxyVariables = ["no_proxy", "NO_PROXY"]

    /// The first of `names` set to a value that is not empty, and its value.
    package static func variable(_ names: [String], in environment: [String: String]) -> (String, String)? {
        for name in names {
            if let value = environment[name], !value.isEmpty { return (name, value) }
        }
        return nil
    }
}
