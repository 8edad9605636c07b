import Testing

@testable import SyncCore

/// `auth` and `tls`: Basic and bearer credentials become an `Authorization` header,
/// kept secret (docs/configuration.md#authentication); TLS files must be readable.
@Suite struct AuthConfigTests {
    /// Checks that a resource with each `extra` member is refused with a problem starting with `problem`.
    func expectRefused(_ cases: [(extra: String, problem: String)]) {
        for (extra, problem) in cases {
            do {
                _ = try decodeConfig(#"{"resources": [\#(resource("users", extra))]}"#)
                Issue.record("accepted: \(extra)")
            } catch {
                #expect(error.problems.map(\.description).contains { $0.hasPrefix(problem) }, "\(error.problems)")
            }
        }
    }

    @Test func basicAndBearerBecomeTheAuthorizationHeaderAndDefaultsApply() throws {
        let config = try decodeConfig(
            #"""
            {"defaults": {"auth": {"type": "bearer", "token": "${TOKEN}"}},
             "resources": [\#(resource("users")),
                           \#(resource("orders", #""auth": {"type": "basic", "username": "sk_test_4eC39Hq", "password": ""}"#))]}
            """#, environment: ["TOKEN": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"])
        let users = try #require(config.resource(named: "users"))
        let orders = try #require(config.resource(named: "orders"))
        #expect(users.headers.map(\.name) == ["Authorization"])
        #expect(users.headers.first?.value == "Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a")
        // RFC 7617: base64 of "username:password".
        #expect(orders.headers.first?.value == "Basic c2tfdGVzdF80ZUMzOUhxOg==")
        // Never shown: not the header, nor the token inside it.
        let shown = config.redactor.redact(
            "sent Basic c2tfdGVzdF80ZUMzOUhxOg== and ghp_16C7e42F292c6912E7710c838347Ae178B4a")
        #expect(!shown.contains("c2tfdGVzdF80ZUMzOUhxOg=="), "\(shown)")
        #expect(!shown.contains("ghp_16C7e42F"), "\(shown)")
    }

    @Test func tlsFilesMustBeReadableAndTheClientPairComplete() {
        let cases: [(String, String)] = [
            (
                #""tls": {"caFile": "/nonexistent/ca.pem"}"#,
                "resources[0].tls.caFile: /nonexistent/ca.pem cannot be read"
            ),
            (
                #""tls": {"clientCertificate": "/etc/hostname"}"#,
                "resources[0].tls.clientCertificate: and clientKey go together"
            ),
            (#""tls": {"minimumVersion": "1.0"}"#, #"resources[0].tls.minimumVersion: must be "1.2" or "1.3""#),
            (#""tls": {"verify": false}"#, "resources[0].tls.verify: unknown key"),
            (#""tls": {"serverName": "api internal"}"#, "resources[0].tls.serverName: must be a host name"),
        ]
        expectRefused(cases)
    }

    @Test func mistakesAreNamed() {
        let cases: [(String, String)] = [
            (#""auth": {"type": "digest"}"#, #"resources[0].auth.type: must be "basic", "bearer" or "oauth2""#),
            (#""auth": {"type": "bearer"}"#, "resources[0].auth.token: is required"),
            (#""auth": {"type": "bearer", "token": ""}"#, "resources[0].auth.token: must not be empty"),
            (#""auth": {"type": "basic", "username": "a:b"}"#, #"resources[0].auth.username: must not contain ":""#),
            (#""auth": {"type": "basic", "username": "u", "token": "t"}"#, "resources[0].auth.token: unknown key"),
            (
                #""auth": {"type": "bearer", "token": "t"}, "headers": {"Authorization": "Bearer x"}"#,
                "resources[0].headers: sets Authorization, and so does auth (here or in defaults): keep one"
            ),
        ]
        expectRefused(cases)
    }

    @Test func oauth2IsNamedOnceAndSharedWithItsSecretsKept() throws {
        let config = try decodeConfig(
            #"""
            {"auths": {"salesforce": {"type": "oauth2", "tokenUrl": "https://login.example.com/services/oauth2/token",
                                      "clientId": "3MVG9", "clientSecret": "${SECRET}", "scopes": "api refresh_token",
                                      "extraParams": {"resource": "https://api.example.com"}, "clientAuth": "body"}},
             "defaults": {"auth": "salesforce"},
             "resources": [\#(resource("users")), \#(resource("orders")),
                           \#(resource("events", #""auth": {"type": "oauth2", "tokenUrl": "https://idp.example.com/token", "clientId": "agent", "grant": "refresh_token", "refreshToken": "1//0gRefreshTokenValue"}"#))]}
            """#, environment: ["SECRET": "8A4BE698BCA21671"])
        let users = try #require(config.resource(named: "users"))
        let orders = try #require(config.resource(named: "orders"))
        let events = try #require(config.resource(named: "events"))
        guard case .oauth2(let shared) = users.settings.auth, case .oauth2(let own) = events.settings.auth else {
            Issue.record("not oauth2: \(String(describing: users.settings.auth))")
            return
        }
        #expect(orders.settings.auth == users.settings.auth)
        #expect(shared.identity == "auths.salesforce")
        #expect(shared.clientSecret == "8A4BE698BCA21671")
        #expect(shared.scopes == ["api", "refresh_token"])
        #expect(shared.extraParams == [.init(name: "resource", value: "https://api.example.com")])
        #expect(shared.clientAuth == .body && shared.grant == .clientCredentials)
        // An inline auth is known by a fingerprint: its client id may be a secret.
        #expect(own.identity.hasPrefix("oauth2:") && !own.identity.contains("agent"))
        #expect(own.grant == .refreshToken && own.refreshToken == "1//0gRefreshTokenValue" && own.clientAuth == .basic)
        // The token is fetched at each request: no fixed header.
        #expect(users.headers.isEmpty)
        let shown = config.redactor.redact("sent 8A4BE698BCA21671 and 1//0gRefreshTokenValue")
        #expect(!shown.contains("8A4BE698BCA21671") && !shown.contains("1//0gRefreshTokenValue"), "\(shown)")
    }

    @Test func oauth2MistakesAreNamed() {
        let token = #""type": "oauth2", "tokenUrl": "https://idp.example.com/token", "clientId": "c""#
        let cases: [(String, String)] = [
            (
                #""auth": {"type": "oauth2", "clientId": "c", "clientSecret": "s"}"#,
                "resources[0].auth.tokenUrl: is required"
            ),
            (
                #""auth": {"type": "oauth2", "tokenUrl": "idp/token", "clientId": "c", "clientSecret": "s"}"#,
                "resources[0].auth.tokenUrl: must be an absolute http:// or https:// URL"
            ),
            (
                #""auth": {\#(token)}"#,
                #"resources[0].auth.clientSecret: is required with "grant": "client_credentials""#
            ),
            (
                #""auth": {\#(token), "grant": "refresh_token"}"#,
                #"resources[0].auth.refreshToken: is required with "grant": "refresh_token""#
            ),
            (
                #""auth": {\#(token), "grant": "password"}"#,
                #"resources[0].auth.grant: must be "client_credentials" or"#
            ),
            (
                #""auth": {\#(token), "clientSecret": "s", "clientAuth": "jwt"}"#,
                "resources[0].auth.clientAuth: must be"
            ),
            (
                #""auth": {\#(token), "clientSecret": "s", "scopes": ["a b"]}"#,
                "resources[0].auth.scopes: must not hold"
            ),
            (#""auth": {\#(token), "clientSecret": "s", "scope": "a"}"#, "resources[0].auth.scope: unknown key"),
            (#""auth": "nobody""#, "resources[0].auth: names no entry of the top-level auths"),
        ]
        expectRefused(cases)
    }
}
