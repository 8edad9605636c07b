import Foundation
import Testing

@testable import SyncCore

/// `user:password@` in a resource's URL is Basic auth, as curl sends it
/// (docs/configuration.md#credentials-in-the-url): decoded, taken out of the
/// URL, kept secret, and never beside another `Authorization`.
@Suite(.timeLimit(.minutes(1))) struct URLCredentialsTests {
    @Test func theUserAndPasswordBecomeBasicAuthAndLeaveTheURL() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [\#(resource(url: "https://sync%40example.com%2Ftoken:p%40ss%3Aw0rd@api.example.com/v1/users?page=1"))]}
            """#)
        let users = try #require(config.resource(named: "users"))
        let basic = "Basic " + Data("sync@example.com/token:p@ss:w0rd".utf8).base64EncodedString()
        #expect(users.headers.map(\.name) == ["Authorization"])
        #expect(users.headers.first?.value == basic)
        #expect(users.url.render() == "https://api.example.com/v1/users?page=1")
        #expect(users.url.display == "https://sync%40example.com%2Ftoken:[password]@api.example.com/v1/users?page=1")
        // The password decoded and as written, and the header, are secrets.
        let shown = config.redactor.redact("p@ss:w0rd p%40ss%3Aw0rd \(basic)")
        #expect(!shown.contains("w0rd") && shown.hasSuffix(" Basic [credentials]"), "\(shown)")
    }

    @Test func aPasswordFilledByAReferenceIsShownAsTheReference() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource(url: "https://agent:${API_PASSWORD}@api.example.com/v1/users"))]}"#,
            environment: ["API_PASSWORD": "s3cret-from-env"])
        let users = try #require(config.resource(named: "users"))
        #expect(users.headers.first?.value == "Basic " + Data("agent:s3cret-from-env".utf8).base64EncodedString())
        #expect(users.url.display == "https://agent:${API_PASSWORD}@api.example.com/v1/users")
        #expect(config.redactor.redact("s3cret-from-env") == "${API_PASSWORD}")
    }

    @Test func aPasswordFromAFileReferenceKeepsItsSlashes() throws {
        let folder = NSTemporaryDirectory() + "url-credentials-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("pa/ss\n".utf8).write(to: URL(fileURLWithPath: folder + "/password"))
        let config = try decodeConfig(
            #"{"resources": [\#(resource(url: "https://bob:${file:\(folder)/password}@api.example.com/z"))]}"#)
        let users = try #require(config.resource(named: "users"))
        #expect(users.headers.first?.value == "Basic " + Data("bob:pa/ss".utf8).base64EncodedString())
        #expect(users.url.render() == "https://api.example.com/z")
    }

    @Test func aUserAloneIsBasicAuthWithAnEmptyPassword() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource(url: "https://sk_test_4eC39Hq@api.example.com/v1/charges"))]}"#)
        let users = try #require(config.resource(named: "users"))
        #expect(users.headers.first?.value == "Basic c2tfdGVzdF80ZUMzOUhxOg==")
        #expect(users.url.render() == "https://api.example.com/v1/charges")
    }

    @Test func anAtSignAfterTheHostIsNoCredential() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource(url: "https://api.example.com/users/@me?email=a@b.example"))]}"#)
        let users = try #require(config.resource(named: "users"))
        #expect(users.headers.isEmpty)
        #expect(users.url.render() == "https://api.example.com/users/@me?email=a@b.example")
    }

    @Test func authOrAnAuthorizationHeaderComesFirstAsInCurl() throws {
        let url = "https://agent:s3cret@api.example.com/v1/users"
        let config = try decodeConfig(
            #"""
            {"resources": [\#(resource("users", url: url, #""auth": {"type": "bearer", "token": "t0ken"}"#)),
                           \#(resource("orders", url: url, #""headers": {"Authorization": "Bearer x-t0ken"}"#))]}
            """#)
        let users = try #require(config.resource(named: "users"))
        let orders = try #require(config.resource(named: "orders"))
        #expect(users.headers.map(\.value) == ["Bearer t0ken"])
        #expect(orders.headers.map(\.value) == ["Bearer x-t0ken"])
        #expect(users.url.render() == "https://api.example.com/v1/users")
        #expect(config.redactor.redact("s3cret") == "[password]")
    }

    @Test func aUserWithAColonIsAProblem() {
        #expect(
            configProblems(#"{"resources": [\#(resource(url: "https://a%3Ab:pw@api.example.com/"))]}"#)
                == [#"resources[0].url: the user of user:password@ must not contain ":" (written %3A)"#])
    }

    @Test func credentialsThatAReferenceFillsWithTheWholeURLAreAProblemNotIgnored() {
        #expect(
            configProblems(
                #"{"resources": [\#(resource(url: "${API_URL}"))]}"#,
                environment: ["API_URL": "https://agent:s3cret@api.example.com/v1/users"])
                == [
                    "resources[0].url: has a user:password@ that a ${…} reference fills, which is not sent: "
                        + "write user:password@ in url itself (each part may be a reference) or use auth"
                ])
    }
}
