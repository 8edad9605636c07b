import Testing

@testable import SyncCore

/// `proxy` and the environment's proxies (docs/configuration.md#proxies): read
/// as curl reads them, their passwords kept secret.
@Suite struct ProxyConfigTests {
    func settings(_ extra: String = "", environment: [String: String] = [:]) throws -> ProxySettings {
        let config = try decodeConfig(#"{"resources": [\#(resource("users", extra))]}"#, environment: environment)
        return try #require(config.resource(named: "users")).settings.proxy
    }

    @Test func theKeyNamesOneProxyForBothSchemesWithItsCredentialsDecoded() throws {
        let proxy = try settings(#""proxy": "http://sync%40corp:p%3Ass-w0rd@proxy.corp:3128""#)
        let server = try #require(proxy.https)
        #expect(proxy.http == server)
        #expect(server.host == "proxy.corp" && server.port == 3128)
        #expect(server.username == "sync@corp" && server.password == "p:ss-w0rd")
        #expect(server.description == "http://proxy.corp:3128")
    }

    @Test func theSchemeMayBeLeftOutAndThePortDefaultsToCurls() throws {
        let server = try #require(try settings(#""proxy": "proxy.corp""#).https)
        #expect(server.port == 1080)
        #expect(server.username == nil && server.password == nil)
        let ipv6 = try #require(try settings(#""proxy": "http://[::1]:3128/""#).http)
        #expect(ipv6.host == "::1" && ipv6.description == "http://[::1]:3128")
    }

    @Test func theEnvironmentIsReadAsCurlReadsItWhenTheKeyIsNotSet() throws {
        let environment = [
            "https_proxy": "http://secure:3128", "HTTPS_PROXY": "http://ignored:3128",
            "HTTP_PROXY": "plain:8080", "NO_PROXY": "internal.example.com",
        ]
        let proxy = try settings(environment: environment)
        #expect(proxy.https?.host == "secure")
        #expect(proxy.http?.host == "plain")
        #expect(proxy.server(for: "https://api.example.com/v1")?.host == "secure")
        #expect(proxy.server(for: "http://api.example.com/v1")?.host == "plain")
        #expect(proxy.server(for: "https://a.internal.example.com/v1") == nil)

        let all = try settings(environment: ["ALL_PROXY": "http://all:3128", "https_proxy": ""])
        #expect(all.https?.host == "all" && all.http?.host == "all")
    }

    @Test func theKeyReplacesTheEnvironmentsProxiesAndAnEmptyOneGoesDirectly() throws {
        let environment = ["HTTPS_PROXY": "http://environment:3128", "NO_PROXY": ".example.org"]
        let configured = try settings(#""proxy": "http://configured:3128""#, environment: environment)
        #expect(configured.server(for: "https://api.example.com")?.host == "configured")
        // NO_PROXY applies to a configured proxy too, as in curl.
        #expect(configured.server(for: "https://api.example.org") == nil)
        let direct = try settings(#""proxy": """#, environment: environment)
        #expect(direct.server(for: "https://api.example.com") == nil)
        // Set in defaults, taken by the resources.
        let config = try decodeConfig(
            #"{"defaults": {"proxy": "http://defaults:3128"}, "resources": [\#(resource("users"))]}"#)
        #expect(config.resource(named: "users")?.settings.proxy.https?.host == "defaults")
    }

    @Test func passwordsFromTheKeyAndTheEnvironmentAreSecretsAndSubstitutionFillsThem() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource("users", #""proxy": "http://sync:${PROXY_PASSWORD}@proxy.corp:3128""#))]}"#,
            environment: ["PROXY_PASSWORD": "hunter2-hunter2", "HTTP_PROXY": "http://env:s%2Fcr3t-env@other:3128"])
        #expect(config.resource(named: "users")?.settings.proxy.https?.password == "hunter2-hunter2")
        let shown = config.redactor.redact("hunter2-hunter2 s/cr3t-env s%2Fcr3t-env")
        #expect(!shown.contains("hunter2") && !shown.contains("cr3t"), "\(shown)")
    }

    @Test func theProbeGoesToTheFirstResourcesProxy() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource("users", #""proxy": "http://proxy.corp:3128""#))]}"#)
        #expect(config.probeTarget == ProbeTarget(host: "proxy.corp", port: 3128))
    }

    @Test func mistakesAreNamed() {
        let shape = "must look like http://[user:password@]host[:port]"
        let cases: [(String, String)] = [
            (#""proxy": "socks5://proxy.corp:1080""#, "resources[0].proxy: \(shape): socks5 proxies are not supported"),
            (#""proxy": "https://proxy.corp""#, "resources[0].proxy: \(shape): https proxies are not supported"),
            (#""proxy": "ftp://proxy.corp""#, "resources[0].proxy: \(shape)"),
            (#""proxy": "http://proxy.corp:99999""#, "resources[0].proxy: \(shape)"),
            (#""proxy": "http://proxy.corp/path""#, "resources[0].proxy: \(shape)"),
            (#""proxy": "http://""#, "resources[0].proxy: \(shape)"),
            (#""proxy": 3128"#, "resources[0].proxy: must be a string"),
            (#""proxy": "http://u:${NOPE}@proxy.corp""#, "resources[0].proxy: environment variable NOPE is not set"),
        ]
        for (extra, problem) in cases {
            let problems = configProblems(#"{"resources": [\#(resource("users", extra))]}"#)
            #expect(problems.contains { $0.hasPrefix(problem) }, "\(extra): \(problems)")
        }
        let fromEnvironment = configProblems(
            #"{"resources": [\#(resource("users"))]}"#, environment: ["ALL_PROXY": "socks5h://proxy.corp"])
        #expect(
            fromEnvironment == [
                "$ALL_PROXY: \(shape): socks5h proxies are not supported, only http (HTTPS goes through it with CONNECT)"
            ])
    }
}
