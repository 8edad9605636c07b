import Foundation
import Testing

/// Requests through Debian's tinyproxy, a real forward proxy
/// (docs/configuration.md#proxies): named by `proxy` or by the environment as
/// curl reads it, bypassed for the hosts `NO_PROXY` names, its password never
/// shown.
@Suite(.timeLimit(.minutes(5))) struct ProxyEndToEndTests {
    /// A static-file API of one page of five items.
    func catalog(tls: PrivateCA? = nil) async throws -> Nginx {
        let nginx = try await Nginx.start(tls: tls)
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
        // http:// URLs go through a CONNECT tunnel too.
        #expect(tunnels(proxy, to: nginx) == 1, "\(proxy.requests())")
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

    @Test func aProxyThatWantsCredentialsFailsTheResourceClearlyAndThePasswordIsNeverShown() async throws {
        let password = "pr0xy-Pa55word"
        let (proxy, nginx) = (try await TinyProxy.start(credentials: ("sync", password)), try await catalog())
        defer {
            proxy.stop()
            nginx.stop()
        }
        let workspace = try Workspace()
        func config(_ proxyURL: String) throws {
            try workspace.writeConfig(
                #"""
                {"defaults": {"interval": "1h", "timeout": "5s", "retry": {"maxAttempts": 2, "initialDelay": "100ms"}},
                 "resources": [\#(resource(nginx, #", "proxy": "\#(proxyURL)""#))]}
                """#)
        }

        // No credentials: failed, and told how to give them.
        try config(proxy.url)
        let missing = try await workspace.run(["refresh", "--json"])
        #expect(missing.status == 1)
        #expect(
            missing.stdout.contains(
                "the proxy \(proxy.url) asks for credentials (407 Proxy Authentication Required): "
                    + "give them in proxy as http://user:password@host:port"), "\(missing.stdout)")
        #expect(try workspace.query("SELECT state, last_error_kind FROM resources") == [["failed", "unrecoverable"]])

        // The right user and password, the password filled from the environment.
        try config("http://sync:${PROXY_PASSWORD}@127.0.0.1:\(proxy.port)")
        let right = try await workspace.run(["refresh", "--json"], environment: ["PROXY_PASSWORD": password])
        #expect(right.status == 0, "\(right.stdout)\n\(right.stderr)")

        // A wrong password, in the running agent: tinyproxy answers its CONNECT
        // with 401, not 407, so the agent can only tell that the tunnel was refused.
        let wrong = "wr0ng-Pa55word"
        let agent = try await RunningAgent.start(
            in: workspace, arguments: ["--log-level", "trace"], environment: ["PROXY_PASSWORD": wrong])
        var outputs: [String] = []
        for command in [["refresh", "--json"], ["status", "--json"], ["history", "--json"]] {
            let result = try await workspace.run(command + ["--log-level", "trace"])
            outputs.append(result.stdout + result.stderr)
        }
        outputs += [agent.curl("GET", "/v1/status").body, agent.curl("GET", "/v1/resources/catalog").body]
        #expect(agent.state(of: "catalog") == "failed")
        let stopped = try await agent.stop()
        outputs.append(stopped.stdout + stopped.stderr)
        let database = try workspace.query(".dump").map { $0.joined(separator: "\t") }.joined(separator: "\n")
        outputs.append(database)

        let refused =
            "the proxy \(proxy.url) did not open a tunnel to 127.0.0.1 (it answered CONNECT with an error: "
            + "it cannot reach the host, does not allow it, or refuses the credentials given)"
        #expect(stopped.stderr.contains(refused), "\(stopped.stderr)")
        #expect(try workspace.value("SELECT last_error FROM resources")?.contains(refused) == true)
        // Only the right password opened a tunnel to the server.
        #expect(nginx.requests().count == 1, "\(nginx.requests())")
        for output in outputs {
            #expect(!output.contains(password) && !output.contains(wrong), "\(output)")
        }
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
}
