import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOSSL
import Streams
import Synchronization

/// One HTTP request as the agent sends it.
package struct HTTPRequestSpec: Sendable {
    package var method: HTTPMethod
    package var url: String
    package var headers: [(name: String, value: String)]
    package var body: RequestBody?
    /// Whom HTTPS trusts, and the client certificate it shows.
    package var tls = TLSSettings()
    /// The proxies it may go through, chosen for each URL it goes to.
    package var proxy = ProxySettings()
}

/// One HTTP response with its whole body.
package struct HTTPResponseData: Sendable {
    package var status: Int
    package var headers: HTTPHeaders
    /// The body, decoded if it was sent compressed.
    package var body: ByteBuffer
    /// The URL that answered, after redirects.
    package var url: String
    /// The body's size on the wire: smaller than ``body`` when it came compressed.
    package var wireBytes: Int

    package init(status: Int, headers: HTTPHeaders, body: ByteBuffer, url: String, wireBytes: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.wireBytes = wireBytes ?? body.readableBytes
    }
}

/// Sends one request and collects its answer: ``HTTPTransport`` over the
/// network, or a scripted stand-in in unit tests.
package protocol PageTransport: Sendable {
    /// Sends a request, follows its redirects and collects the body.
    ///
    /// - Throws: the network error as the HTTP stack reported it,
    ///   `NIOTooManyBytesError` past `maxBytes` (``ContentLengthTooLarge`` when
    ///   the header says so),
    ///   or ``Redirect/Problem``.
    func send(_ spec: HTTPRequestSpec, maxBytes: Int) async throws -> HTTPResponseData
}

/// Sends requests with AsyncHTTPClient: connections are pooled and reused
/// across pages, and the body must fit its size cap. (The resource's timeout
/// covers the whole exchange, redirects and body included: ``ResourceFetch``
/// applies it with the `timeout` operator, on the engine's clock.)
/// Redirects are followed by ``Redirect``'s rules. Through a proxy
/// (docs/configuration.md#proxies), an `https://` request opens a `CONNECT`
/// tunnel: AsyncHTTPClient sets the proxy per client, so there is one client
/// per proxy, made when first needed, beside the direct one. An `http://`
/// request goes to the proxy in absolute form, as curl sends it, through
/// ``ProxyForwarder``.
///
/// Thread-safety: `Sendable`; call ``send(_:maxBytes:)`` from any task; the
/// clients of proxies are behind a `Mutex`. Call ``shutdown()`` once, when done.
package final class HTTPTransport: PageTransport {
    /// What sets a client apart: its proxy, and the address it connects to for a `tls.serverName`.
    private struct ClientKey: Hashable {
        var proxy: ProxyServer?
        /// `[serverName: address]`, AsyncHTTPClient's `dnsOverride`.
        var addresses: [String: String] = [:]
    }

    private let direct: HTTPClient
    private let others = Mutex<[ClientKey: HTTPClient]>([:])
    /// Sends `http://` requests through their proxy.
    private let forwarder = ProxyForwarder(connectTimeout: HTTPTransport.connectTimeout)

    /// The longest a new connection may take before the request fails with a connect timeout.
    static let connectTimeout: TimeAmount = .seconds(10)

    /// The CA bundle `SSL_CERT_FILE` (else `SSL_CERT_DIR`) names, as OpenSSL and curl read it.
    private let environmentCAs: String?
    /// The TLS configurations made so far, by settings.
    private let tlsConfigurations = Mutex<[TLSSettings: MadeTLSConfiguration]>([:])

    /// Creates a transport on the shared event loop group; `environment` may name a CA bundle.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        environmentCAs = [environment["SSL_CERT_FILE"], environment["SSL_CERT_DIR"]].compactMap { $0 }.first {
            !$0.isEmpty
        }
        direct = Self.client(ClientKey())
    }

    /// A client that goes through the key's proxy (or directly), to its addresses.
    private static func client(_ key: ClientKey) -> HTTPClient {
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow, timeout: .init(connect: Self.connectTimeout))
        // A connection that cannot be made must fail now, so that the agent's own
        // retry policy and offline detection see it.
        configuration.connectionPool.retryConnectionEstablishment = false
        // HTTP/2 where a server offers it over TLS (one connection carries the
        // syncs of every resource on that host); else HTTP/1.1 with keep-alive,
        // at most 8 connections per host, each closed after 60 s idle.
        configuration.httpVersion = .automatic
        configuration.dnsOverride = key.addresses
        if let proxy = key.proxy {
            let authorization = proxy.username.map {
                HTTPClient.Authorization.basic(username: $0, password: proxy.password ?? "")
            }
            configuration.proxy = .server(host: proxy.host, port: proxy.port, authorization: authorization)
        }
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// The client for requests to `url` under `settings`, connecting to `addresses`.
    private func client(for url: String, _ settings: ProxySettings, addresses: [String: String]) -> HTTPClient {
        let key = ClientKey(proxy: settings.server(for: url), addresses: addresses)
        guard key != ClientKey() else { return direct }
        return others.withLock { clients in
            if let client = clients[key] { return client }
            let client = Self.client(key)
            clients[key] = client
            return client
        }
    }

    /// Closes every connection.
    package func shutdown() async {
        let clients = others.withLock { clients in
            defer { clients = [:] }
            return Array(clients.values)
        }
        for client in [direct] + clients {
            try? await client.shutdown()
        }
    }

    /// Sends a request with AsyncHTTPClient, follows its redirects and collects the body
    /// (docs/configuration.md#tls for `tls.serverName`).
    package func send(_ spec: HTTPRequestSpec, maxBytes: Int) async throws -> HTTPResponseData {
        // With tls.serverName, the request is made to that name, which connects to the URL's address;
        // the answer tells the URL as the resource wrote it, so that relative links lead there too.
        guard let name = spec.tls.serverName, let host = URLComponents(string: spec.url)?.host,
            host.lowercased() != name
        else { return try await send(spec, maxBytes: maxBytes, addresses: [:]) }
        var named = spec
        named.url = Self.replacingHost(of: spec.url, with: name)
        // An IPv6 address is connected to without its brackets.
        let address = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var response = try await send(named, maxBytes: maxBytes, addresses: [name: address])
        if URLComponents(string: response.url)?.host == name {
            response.url = Self.replacingHost(of: response.url, with: host)
        }
        return response
    }

    /// `url` with its host replaced (an IPv6 address written within brackets, as URLs write it).
    static func replacingHost(of url: String, with host: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        let written = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        components.percentEncodedHost = written
        return components.string ?? url
    }

    private func send(
        _ spec: HTTPRequestSpec, maxBytes: Int, addresses: [String: String]
    ) async throws -> HTTPResponseData {
        var current = spec
        var visited = [current.url]
        while true {
            let request = Self.request(for: current, tls: try tlsConfiguration(for: current))
            let response: HTTPClientResponse
            if let proxy = current.proxy.server(for: current.url), !Self.isSecure(current.url) {
                // The proxy resolves the URL's host: `addresses` are not for it.
                response = try await forwarder.execute(
                    request, body: current.body.map { ByteBuffer(string: $0.text) }, via: proxy)
            } else {
                let client = self.client(for: current.url, current.proxy, addresses: addresses)
                response = try await client.execute(request, deadline: .distantFuture)
            }
            let status = Int(response.status.code)
            if let next = try Redirect.follow(
                current, status: status, location: response.headers.first(name: "Location"), visited: visited)
            {
                // Drain the redirect's body so its connection can be reused.
                _ = try? await response.body.collect(upTo: 64 * 1024)
                current = next
                visited.append(next.url)
                continue
            }
            if let length = response.headers.first(name: "Content-Length") {
                // Read exactly: digits past Int (2^63) are too large too, not a short body to retry.
                let stated = StatedCount(header: length)
                if stated == .tooLarge || (stated.value ?? 0) > maxBytes {
                    throw ContentLengthTooLarge(stated: length, maxBytes: maxBytes)
                }
            }
            let encoding = response.headers.first(name: "Content-Encoding")
            switch ContentDecoding.plan(for: encoding) {
            case .identity:
                let body = try await response.body.collect(upTo: maxBytes)
                return HTTPResponseData(status: status, headers: response.headers, body: body, url: current.url)
            case .unsupported(let coding):
                throw ContentDecoding.Unsupported(coding: coding)
            case .decode:
                var decoder = try ContentDecoding(contentEncoding: encoding ?? "", maxBytes: maxBytes)
                var body = ByteBuffer()
                var wire = 0
                for try await chunk in response.body {
                    wire += chunk.readableBytes
                    try decoder.feed(chunk, into: &body)
                }
                try decoder.finish(into: &body)
                return HTTPResponseData(
                    status: status, headers: response.headers, body: body, url: current.url, wireBytes: wire)
            }
        }
    }

    /// Whether `url` is an `https://` URL.
    private static func isSecure(_ url: String) -> Bool {
        url.lowercased().hasPrefix("https:")
    }

    private static func request(for spec: HTTPRequestSpec, tls: TLSConfiguration?) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: spec.url)
        request.tlsConfiguration = tls
        request.method = spec.method == .post ? .POST : .GET
        request.headers.add(name: "User-Agent", value: "sync-agent/\(SyncAgentVersion.current)")
        request.headers.add(name: "Accept", value: "application/json")
        // A header of the resource's own replaces it; what comes is decoded all the same.
        request.headers.add(name: "Accept-Encoding", value: ContentDecoding.accepted)
        for header in spec.headers {
            request.headers.replaceOrAdd(name: header.name, value: header.value)
        }
        if let body = spec.body {
            if !request.headers.contains(name: "Content-Type") {
                request.headers.add(name: "Content-Type", value: body.contentType)
            }
            request.body = .bytes(ByteBuffer(string: body.text))
        }
        return request
    }

    /// The TLS configuration of an HTTPS request, made once per `tls` settings
    /// and again when its client certificate or key file changes (one `stat`
    /// each, as for secrets: docs/configuration.md#substitution-and-secrets).
    private func tlsConfiguration(for spec: HTTPRequestSpec) throws -> TLSConfiguration? {
        guard Self.isSecure(spec.url) else { return nil }
        let tls = spec.tls
        let stamps = [tls.clientCertificate, tls.clientKey].compactMap { $0 }.map { SecretFiles.Stamp(at: $0) }
        if let made = tlsConfigurations.withLock({ $0[tls] }), made.stamps == stamps { return made.configuration }
        let configuration = try Self.tlsConfiguration(tls, environmentCAs: environmentCAs)
        tlsConfigurations.withLock { $0[tls] = MadeTLSConfiguration(stamps: stamps, configuration: configuration) }
        return configuration
    }

    /// A TLS configuration, and the stamps of the client certificate and key it was read from.
    private struct MadeTLSConfiguration: Sendable {
        var stamps: [SecretFiles.Stamp?]
        var configuration: TLSConfiguration?
    }

    /// The TLS configuration of `tls` (docs/configuration.md#tls): the system's
    /// CAs unless `caFile` (or the environment's bundle) names others, verification always on.
    static func tlsConfiguration(_ tls: TLSSettings, environmentCAs: String?) throws -> TLSConfiguration? {
        guard tls != TLSSettings() || environmentCAs != nil else { return nil }
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = tls.minimumVersion == "1.3" ? .tlsv13 : .tlsv12
        if let authorities = tls.caFile ?? environmentCAs { configuration.trustRoots = .file(authorities) }
        if let certificate = tls.clientCertificate, let key = tls.clientKey {
            configuration.certificateChain = try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }
            configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
        }
        return configuration
    }
}
