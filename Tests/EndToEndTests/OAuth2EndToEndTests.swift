import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// OAuth2 with the real binary (docs/configuration.md#oauth2): the test upstream's
/// token endpoint issues tokens valid for a second or two and rotates refresh tokens,
/// as Microsoft's and Xero's do.
@Suite(.serialized) struct OAuth2EndToEndTests {
    static let clientSecret = "cs_live_7f3a9bQx2"
    /// The runs that did not succeed (a sync cancelled as the agent stops is no failure).
    static let failed = "outcome NOT IN ('success', 'notModified', 'cancelled')"
    static let succeeded = "outcome IN ('success', 'notModified')"

    /// The resources' config: `count` of them sharing the auth `idp` at `interval`.
    func config(_ upstream: TestUpstream, auth: String, count: Int, interval: String) -> String {
        let resources = (0..<count).map { index in
            #"""
            {"name": "items-\#(index)", "url": "\#(upstream.baseURL)/page/items", "items": "/data", "key": "/id",
             "pagination": {"style": "page", "param": "page", "sizeParam": "per_page", "size": 50}}
            """#
        }
        return #"""
            {"auths": {"idp": \#(auth)},
             "defaults": {"auth": "idp", "interval": "\#(interval)", "timeout": "5s",
                          "retry": {"maxAttempts": 3, "initialDelay": "100ms"}},
             "resources": [\#(resources.joined(separator: ",\n"))]}
            """#
    }

    /// Whether `text` shows an access or refresh token the upstream issued (`at-N-…`, `rt-N-…`)
    /// or the client secret.
    func showsASecret(_ text: String) -> Bool {
        text.range(of: #"\b[ar]t-[0-9]+-"#, options: .regularExpression) != nil || text.contains("7f3a9bQx2")
    }

    @Test func twentyResourcesSharingOneAuthFetchOneTokenPerExpiry() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 120])
        defer { Task { await upstream.stop() } }
        upstream.requireOAuth2(
            OAuth2Server(clientID: "sync-agent", clientSecret: Self.clientSecret, tokenLifetime: .seconds(2)))
        let workspace = try Workspace()
        let credentials = try workspace.writeCredential("idp-secret", Self.clientSecret)
        try workspace.writeConfig(
            config(
                upstream,
                auth: #"""
                    {"type": "oauth2", "tokenUrl": "\#(upstream.baseURL)/oauth/token", "clientId": "sync-agent",
                     "clientSecret": "${credential:idp-secret}", "scopes": ["items:read"]}
                    """#, count: 20, interval: "300ms"))

        let agent = try await RunningAgent.start(
            in: workspace, environment: ["CREDENTIALS_DIRECTORY": credentials])
        // Four tokens: the first, and three renewals as each nears its end.
        let renewed = try await eventually(timeout: .seconds(60)) {
            upstream.requestCount(path: "/oauth/token") >= 4
        }
        let status = agent.curl("GET", "/v1/status").body
        let output = try await agent.stop()
        #expect(renewed, "\(output.stderr)")

        let requests = upstream.requests
        let tokenTimes = requests.filter { $0.path == "/oauth/token" }.map(\.arrived)
        let gaps = zip(tokenTimes, tokenTimes.dropFirst()).map { $0.duration(to: $1) }
        // One request per expiry for all twenty: each token is renewed a tenth of its
        // life before it ends, never sooner, never by two resources at once.
        #expect(gaps.allSatisfy { $0 >= .milliseconds(1500) }, "\(gaps)")
        let pages = requests.filter { $0.path == "/page/items" }
        #expect(pages.count >= 20 * 4, "\(pages.count) page requests")
        let span = tokenTimes.first.map { $0.duration(to: requests.last?.arrived ?? $0) } ?? .zero
        print(
            "20 resources, 2 s tokens: \(tokenTimes.count) token requests for \(pages.count) page requests in \(span)")
        let refused = pages.filter { $0.headers["authorization"] == nil }
        #expect(refused.isEmpty)
        #expect(
            try workspace.value("SELECT count(*) FROM sync_runs WHERE \(Self.failed)") == "0",
            "\((try? workspace.query("SELECT outcome, error FROM sync_runs WHERE \(Self.failed)")) ?? [])")
        // RFC 6749 §2.3.1: the client authenticates with Basic by default; the scope goes in the form.
        let first = try #require(requests.first { $0.path == "/oauth/token" })
        #expect(first.headers["authorization"]?.hasPrefix("Basic ") == true)
        #expect(first.body == "grant_type=client_credentials&scope=items%3Aread")
        for text in [status, output.stdout, output.stderr] { #expect(!showsASecret(text), "\(text)") }
    }

    @Test func aRotatedRefreshTokenIsKeptAcrossARestart() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 60])
        defer { Task { await upstream.stop() } }
        upstream.requireOAuth2(
            OAuth2Server(
                clientID: "sync-agent", clientSecret: Self.clientSecret, tokenLifetime: .seconds(1),
                refreshToken: "rt-0-initial", rotatesRefreshTokens: true))
        let workspace = try Workspace()
        try workspace.writeConfig(
            config(
                upstream,
                auth: #"""
                    {"type": "oauth2", "tokenUrl": "\#(upstream.baseURL)/oauth/token", "clientId": "sync-agent",
                     "clientSecret": "\#(Self.clientSecret)", "grant": "refresh_token",
                     "refreshToken": "rt-0-initial", "clientAuth": "body"}
                    """#, count: 1, interval: "400ms"))

        var agent = try await RunningAgent.start(in: workspace)
        // The token lasts a second: the running agent refreshes (and the server rotates) twice.
        let rotated = try await eventually { upstream.requestCount(path: "/oauth/token") >= 3 }
        let first = try await agent.stop()
        #expect(rotated, "\(first.stderr)")
        let newest = try #require(upstream.oauth2RefreshToken)
        #expect(newest != "rt-0-initial")
        #expect(try workspace.value("SELECT refresh_token FROM oauth2_refresh_tokens") == newest)

        // Restarted between two syncs: the configured token is spent, the stored one works.
        let runsBefore =
            try workspace.value("SELECT count(*) FROM sync_runs WHERE \(Self.succeeded)").flatMap(Int.init) ?? 0
        upstream.clearRequests()
        agent = try await RunningAgent.start(in: workspace)
        let synced = try await eventually {
            (try workspace.value("SELECT count(*) FROM sync_runs WHERE \(Self.succeeded)").flatMap(Int.init) ?? 0)
                > runsBefore
        }
        let status = agent.curl("GET", "/v1/status").body
        let history = try await workspace.run(["history", "items-0", "--json"])
        let second = try await agent.stop()
        #expect(synced, "\(second.stderr)")
        #expect(upstream.requests.first { $0.path == "/oauth/token" }?.body.contains("refresh_token=\(newest)") == true)
        #expect(
            try workspace.value("SELECT count(*) FROM sync_runs WHERE \(Self.failed)") == "0",
            "\((try? workspace.query("SELECT outcome, error FROM sync_runs WHERE \(Self.failed)")) ?? [])")
        #expect(first.stderr.contains("the token endpoint rotated the refresh token"), "\(first.stderr)")
        for text in [status, history.stdout, first.stderr, second.stderr] {
            #expect(!showsASecret(text), "\(text)")
        }
    }

    @Test func aTokenEndpointDownIsRetriedAndARefusedClientFailsWithTheServersWords() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 60])
        defer { Task { await upstream.stop() } }
        upstream.requireOAuth2(OAuth2Server(clientID: "sync-agent", clientSecret: Self.clientSecret))
        upstream.inject(Fault(path: "/oauth/token", times: 1, action: .status(503)))
        let workspace = try Workspace()
        let auth = #"""
            {"type": "oauth2", "tokenUrl": "\#(upstream.baseURL)/oauth/token", "clientId": "sync-agent",
             "clientSecret": "${credential:secret}"}
            """#
        try workspace.writeConfig(config(upstream, auth: auth, count: 1, interval: "1h"))
        let credentials = try workspace.writeCredential("secret", Self.clientSecret)

        let retried = try await workspace.run(
            ["refresh", "--json"], environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(retried.status == 0, "\(retried.stdout)\n\(retried.stderr)")
        #expect(try workspace.value("SELECT attempts FROM sync_runs") == "2")

        _ = try workspace.writeCredential("secret", "cs_live_wrong0")
        let refused = try await workspace.run(
            ["refresh", "--json"], environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(refused.status == 1)
        #expect(
            refused.stdout.contains(
                "POST \(upstream.baseURL)/oauth/token failed: the token endpoint refused: invalid_client "
                    + "(Client authentication failed)"), "\(refused.stdout)")
        #expect(try workspace.value("SELECT attempts FROM sync_runs ORDER BY id DESC LIMIT 1") == "1")
        for text in [retried.stdout, retried.stderr, refused.stdout, refused.stderr] {
            #expect(!showsASecret(text) && !text.contains("wrong0"), "\(text)")
        }
    }

    @Test func aTokenTheAPIRefusesIsReplacedWithinTheSameAttempt() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 40])
        defer { Task { await upstream.stop() } }
        // As Salesforce's client credentials flow: no expires_in, the session ends when it ends.
        upstream.requireOAuth2(
            OAuth2Server(clientID: "sync-agent", clientSecret: Self.clientSecret, tokenLifetime: nil))
        let workspace = try Workspace()
        let auth = #"""
            {"type": "oauth2", "tokenUrl": "\#(upstream.baseURL)/oauth/token", "clientId": "sync-agent",
             "clientSecret": "\#(Self.clientSecret)", "clientAuth": "body"}
            """#
        try workspace.writeConfig(config(upstream, auth: auth, count: 1, interval: "1h"))
        let agent = try await RunningAgent.start(in: workspace)
        let synced = try await eventually { agent.state(of: "items-0") == "idle" }
        #expect(synced, "\((try? workspace.query("SELECT outcome, error FROM sync_runs")) ?? [])")
        #expect(agent.curl("POST", "/v1/resources/items-0/refresh").status == 200)
        #expect(upstream.requestCount(path: "/oauth/token") == 1)

        upstream.revokeOAuth2AccessTokens()
        let refreshed = agent.curl("POST", "/v1/resources/items-0/refresh")
        let output = try await agent.stop()
        #expect(refreshed.status == 200, "\(refreshed.body)\n\(output.stderr)")
        #expect(upstream.requestCount(path: "/oauth/token") == 2)
        // One attempt: the 401 and the request repeated with the new token.
        #expect(try workspace.value("SELECT attempts FROM sync_runs ORDER BY id DESC LIMIT 1") == "1")
        // One page each: the first sync, the first refresh, then 401 and its repeat.
        let pages = upstream.requests.filter { $0.path == "/page/items" }.count
        #expect(pages == 4, "\(pages) page requests")
    }
}
