import Foundation
import TestServers
import TestUpstream
import Testing

/// Requests through real forward proxies (docs/configuration.md#proxies):
/// Debian's Squid in its default configuration, with and without proxy
/// authentication, and Debian's tinyproxy. `http://` URLs go to the proxy in
/// absolute form and `https://` ones through `CONNECT`, as curl sends them; the
/// proxy is named by `proxy` or by the environment as curl reads it, bypassed
/// for the hosts `NO_PROXY` names, its password never shown. And
/// `user:password@` in a resource's URL is Basic auth, never shown either.
@Suite(.timeLimit(.minutes(5))) struct ProxyEndToEndTests {
    /// A static-file API of one page of five items; with `port`, on that port of an address of its own.
    func catalog(tls: PrivateCA? = nil, port: Int? = nil) async throws -> Nginx {
        let nginx = try await Nginx.start(tls: tls, port: port)
        let items = (1...5).map { #"{"id": \#($0)}"# }.joined(separator: ", ")
        try nginx.write(
            "catalog.json", #"{"items": [\#(items)]}"#, modified: Date(timeIntervalSince1970: 1_790_000_000))
        return nginx
    }

    /// A resource of that API, with `extra` members.
    func resource(_ nginx: Nginx, _ extra: String = "") -> String {
        #"{"name": "catalog", "url": "\#(nginx.baseURL)/catalog.json", "items": "/items", "key": "/id"\#(extra)}"#
    }

    /// The proxy's `CONNECT` requests to `nginx`.
    func tunnels(_ proxy: TinyProxy, to nginx: Nginx) -> Int {
        proxy.requests().filter { $0 == "CONNECT 127.0.0.1:\(nginx.port)" }.count
    }

    @Test func aConfiguredProxyCarriesTheRequests() async throws {
        let (proxy, nginx) = (try await TinyProxy.start(), try await catalog())
        defer {
            proxy.stop()
            nginx.stop()
        }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [resource(nginx, #", "proxy": "\#(proxy.url)""#)])

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "5")
        // http:// URLs go to the proxy in absolute form, as curl sends them; no tunnel.
        #expect(proxy.requests() == ["GET \(nginx.baseURL)/catalog.json"], "\(proxy.requests())")
        #expect(tunnels(proxy, to: nginx) == 0, "\(proxy.requests())")
        #expect(nginx.requests().map(\.path) == ["/catalog.json"])
    }

    @Test func httpsProxyInTheEnvironmentTunnelsHTTPSAndNoProxyBypassesIt() async throws {
        let ca = try PrivateCA()
        let (proxy, nginx) = (try await TinyProxy.start(), try await catalog(tls: ca))
        defer {
            proxy.stop()
            nginx.stop()
        }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [resource(nginx, #", "tls": {"caFile": "\#(ca.caFile)"}"#)])

        let through = try await workspace.run(["refresh", "--json"], environment: ["HTTPS_PROXY": proxy.url])
        #expect(through.status == 0, "\(through.stdout)\n\(through.stderr)")
        #expect(tunnels(proxy, to: nginx) == 1, "\(proxy.requests())")

        for noProxy in ["127.0.0.1", "localhost,127.0.0.0/8", "127.0.0.1:\(nginx.port)", "*"] {
            let direct = try await workspace.run(
                ["refresh", "--json"], environment: ["HTTPS_PROXY": proxy.url, "NO_PROXY": noProxy])
            #expect(direct.status == 0, "\(noProxy): \(direct.stdout)\n\(direct.stderr)")
        }
        // A NO_PROXY entry for another port does not bypass it.
        let otherPort = try await workspace.run(
            ["refresh", "--json"], environment: ["https_proxy": proxy.url, "no_proxy": "127.0.0.1:1"])
        #expect(otherPort.status == 0, "\(otherPort.stdout)\n\(otherPort.stderr)")
        #expect(tunnels(proxy, to: nginx) == 2, "\(proxy.requests())")
        #expect(nginx.requests().count == 6)
    }

    @Test func aProxyThatIsNotThereIsANetworkFaultNamingItNotAFailure() async throws {
        let nginx = try await catalog()
        defer { nginx.stop() }
        var port = 0
        repeat { port = Int.random(in: 20_000..<60_000) } while loopbackAccepts(port: port)
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [resource(nginx)])

        let result = try await workspace.run(
            ["refresh", "--json"], environment: ["http_proxy": "http://sync:n0t-shown-secret@127.0.0.1:\(port)"])

        #expect(result.status == 1)
        #expect(
            result.stdout.contains(
                "the proxy http://127.0.0.1:\(port) cannot be reached: 127.0.0.1 refused the connection"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("n0t-shown-secret"))
        // Transient: retried, never failed for good as a 407 is.
        #expect(try workspace.query("SELECT last_error_kind FROM resources") == [["transient"]])
        #expect(try workspace.value("SELECT outcome FROM sync_runs") == "gaveUp")
        #expect(nginx.requests().isEmpty)
    }

    // MARK: Debian's Squid

    /// Squid's requests of `method` for `target`, once its access log has one
    /// (it logs a `CONNECT` when the tunnel closes).
    func logged(_ squid: Squid, _ method: String, _ target: String) async throws -> [Squid.Request] {
        let matching = { squid.requests().filter { $0.method == method && $0.target == target } }
        _ = try await eventually(timeout: .seconds(10)) { !matching().isEmpty }
        return matching()
    }

    @Test(arguments: [false, true])
    func plainHTTPGoesThroughDebiansSquidInAbsoluteForm(authenticated: Bool) async throws {
        let password = "sq-Pa55word-http"
        let squid = try await Squid.start(credentials: authenticated ? ("sync", password) : nil)
        let nginx = try await catalog()
        defer {
            squid.stop()
            nginx.stop()
        }
        let workspace = try Workspace()
        let proxy = authenticated ? "http://sync:${PROXY_PASSWORD}@127.0.0.1:\(squid.port)" : squid.url
        try workspace.writeConfig(resources: [resource(nginx, #", "proxy": "\#(proxy)""#)])

        let result = try await workspace.run(["refresh", "--json"], environment: ["PROXY_PASSWORD": password])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)\n\(squid.log())")
        #expect(try workspace.value("SELECT count(*) FROM records") == "5")
        // `GET http://127.0.0.1:PORT/catalog.json`, which Debian's rules allow to any port above 1024.
        let requests = try await logged(squid, "GET", "\(nginx.baseURL)/catalog.json")
        #expect(requests.map(\.result) == ["TCP_MISS/200"], "\(squid.requests())")
        #expect(requests.map(\.user) == [authenticated ? "sync" : "-"])
        #expect(!squid.requests().contains { $0.method == "CONNECT" }, "\(squid.requests())")
        #expect(nginx.requests().map(\.path) == ["/catalog.json"])
        #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
    }

    @Test(arguments: [false, true])
    func httpsGoesThroughDebiansSquidByConnectToPort443(authenticated: Bool) async throws {
        let password = "sq-Pa55word-https"
        let ca = try PrivateCA()
        let squid = try await Squid.start(credentials: authenticated ? ("sync", password) : nil)
        // Debian's rules allow CONNECT to port 443 only: the server listens there, on an address of its own.
        let nginx = try await catalog(tls: ca, port: 443)
        defer {
            squid.stop()
            nginx.stop()
        }
        let workspace = try Workspace()
        // The password written in the file as it is: a secret all the same.
        let proxy = authenticated ? "http://sync:\(password)@127.0.0.1:\(squid.port)" : squid.url
        try workspace.writeConfig(resources: [
            resource(nginx, #", "proxy": "\#(proxy)", "tls": {"caFile": "\#(ca.caFile)"}"#)
        ])

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)\n\(squid.log())")
        #expect(try workspace.value("SELECT count(*) FROM records") == "5")
        let tunnels = try await logged(squid, "CONNECT", "\(nginx.address):443")
        #expect(tunnels.map(\.result) == ["TCP_TUNNEL/200"], "\(squid.requests())")
        #expect(tunnels.map(\.user) == [authenticated ? "sync" : "-"])
        #expect(!squid.requests().contains { $0.method == "GET" }, "\(squid.requests())")
        #expect(nginx.requests().map(\.path) == ["/catalog.json"])
        #expect(!result.stdout.contains(password) && !result.stderr.contains(password))
    }

    @Test func aProxyThatWantsCredentialsFailsTheResourceClearlyAndThePasswordIsNeverShown() async throws {
        let (right, wrong) = ("sq-R1ght-Pa55word", "sq-Wr0ng-Pa55word")
        let ca = try PrivateCA()
        let squid = try await Squid.start(credentials: ("sync", right))
        let (plain, secure) = (try await catalog(), try await catalog(tls: ca, port: 443))
        defer {
            squid.stop()
            plain.stop()
            secure.stop()
        }
        let workspace = try Workspace()
        // An http:// resource (sent in absolute form) and an https:// one (through CONNECT).
        func config(_ proxy: String) throws {
            try workspace.writeConfig(
                #"""
                {"defaults": {"interval": "1h", "timeout": "5s", "retry": {"maxAttempts": 2, "initialDelay": "100ms"},
                              "proxy": "\#(proxy)"},
                 "resources": [\#(resource(plain)),
                   {"name": "secure", "url": "\#(secure.baseURL)/catalog.json", "items": "/items", "key": "/id",
                    "tls": {"caFile": "\#(ca.caFile)"}}]}
                """#)
        }

        // No credentials: failed, and told how to give them.
        try config(squid.url)
        let missing = try await workspace.run(["refresh", "--json"])
        #expect(missing.status == 1)
        let asks =
            "the proxy \(squid.url) asks for credentials (407 Proxy Authentication Required): "
            + "give them in proxy as http://user:password@host:port"
        #expect(missing.stdout.contains(asks), "\(missing.stdout)")
        #expect(
            try workspace.query(
                "SELECT name, state, last_error_kind, instr(last_error, '\(asks)') > 0 FROM resources ORDER BY name")
                == [["catalog", "failed", "unrecoverable", "1"], ["secure", "failed", "unrecoverable", "1"]])

        // The right user and password, the password filled from the environment.
        try config("http://sync:${PROXY_PASSWORD}@127.0.0.1:\(squid.port)")
        let fine = try await workspace.run(["refresh", "--json"], environment: ["PROXY_PASSWORD": right])
        #expect(fine.status == 0, "\(fine.stdout)\n\(fine.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "10")

        // A wrong password, in the running agent: Squid answers 407 to both requests.
        let agent = try await RunningAgent.start(
            in: workspace, arguments: ["--log-level", "trace"], environment: ["PROXY_PASSWORD": wrong])
        var outputs: [String] = []
        for command in [["refresh", "--json"], ["status", "--json"], ["history", "--json"]] {
            let result = try await workspace.run(command + ["--log-level", "trace"])
            outputs.append(result.stdout + result.stderr)
        }
        outputs += [agent.curl("GET", "/v1/status").body, agent.curl("GET", "/v1/resources/catalog").body]
        #expect(agent.state(of: "catalog") == "failed")
        #expect(agent.state(of: "secure") == "failed")
        let stopped = try await agent.stop()
        outputs.append(stopped.stdout + stopped.stderr)
        let database = try workspace.query(".dump").map { $0.joined(separator: "\t") }.joined(separator: "\n")
        outputs.append(database)

        let refused =
            "the proxy \(squid.url) refused the credentials (407 Proxy Authentication Required): "
            + "check the user and password given for it"
        #expect(stopped.stderr.contains(refused), "\(stopped.stderr)")
        #expect(
            try workspace.query("SELECT last_error_kind, instr(last_error, '\(refused)') > 0 FROM resources")
                == [["unrecoverable", "1"], ["unrecoverable", "1"]])
        let denied = squid.requests().filter { $0.result == "TCP_DENIED/407" }.map { "\($0.method) \($0.target)" }
        #expect(denied.contains("GET \(plain.baseURL)/catalog.json"), "\(squid.requests())")
        #expect(denied.contains("CONNECT \(secure.address):443"), "\(squid.requests())")
        // Only the right password reached the servers.
        #expect(plain.requests().count == 1 && secure.requests().count == 1)
        for output in outputs {
            #expect(!output.contains(right) && !output.contains(wrong), "\(output)")
        }
    }

    @Test func aUserAndPasswordInTheURLAreBasicAuthAndNeverShown() async throws {
        let token = "zd-T0ken-7c41e9b2"
        let upstream = try await TestUpstream.start(collections: ["tickets": 7])
        upstream.requireToken(token, for: .zendesk)
        let squid = try await Squid.start()
        defer {
            squid.stop()
            Task { await upstream.stop() }
        }
        let workspace = try Workspace()
        // Zendesk's API tokens are Basic auth as `EMAIL/token:TOKEN`: the user is written percent-encoded.
        let origin = "\(upstream.host):\(upstream.port)"
        let url = "http://ops%40example.com%2Ftoken:\(token)@\(origin)/zendesk/tickets"
        try workspace.writeConfig(resources: [
            #"{"name": "tickets", "url": "\#(url)", "items": "/tickets", "key": "/id", "proxy": "\#(squid.url)"}"#
        ])

        let validate = try await workspace.run(["validate"])
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stdout.contains("GET http://ops%40example.com%2Ftoken:[password]@\(origin)/zendesk/tickets"),
            "\(validate.stdout)")
        let agent = try await RunningAgent.start(in: workspace, arguments: ["--log-level", "trace"])
        let refresh = try await workspace.run(["refresh", "--json"])
        let status = try await workspace.run(["status", "--json"])
        let history = try await workspace.run(["history", "--json"])
        let stopped = try await agent.stop()

        #expect(refresh.status == 0, "\(refresh.stdout)\n\(refresh.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "7")
        let basic = "Basic " + Data("ops@example.com/token:\(token)".utf8).base64EncodedString()
        // Every request (the agent's first sync, then the refresh) carries them, and only as Basic auth.
        #expect(!upstream.requests.isEmpty)
        #expect(upstream.requests.allSatisfy { $0.headers["authorization"] == basic }, "\(upstream.requests)")
        // Neither the request line nor Host carries them.
        #expect(upstream.requests.allSatisfy { $0.headers["host"] == origin }, "\(upstream.requests)")
        let lines = squid.requests().map { "\($0.method) \($0.target) \($0.user)" }
        #expect(Set(lines) == ["GET http://\(origin)/zendesk/tickets -"], "\(lines)")
        let database = try workspace.query(".dump").map { $0.joined(separator: "\t") }.joined(separator: "\n")
        for output in [
            validate.stdout, refresh.stdout, refresh.stderr, status.stdout, history.stdout, stopped.stdout,
            stopped.stderr, database,
        ] {
            #expect(!output.contains(token) && !output.contains(basic.dropFirst(6)), "\(output)")
        }
    }
}
