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
        ]
        expectRefused(cases)
    }

    @Test func mistakesAreNamed() {
        let cases: [(String, String)] = [
            (#""auth": {"type": "digest"}"#, #"resources[0].auth.type: must be "basic" or "bearer""#),
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
}
