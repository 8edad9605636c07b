import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Store
import StreamsTesting
import Synchronization
import Testing

@testable import SyncCore

/// ``OAuth2Tokens``: one token request for every caller, tokens kept until
/// shortly before they expire, a 401 answered with a new token once, rotated
/// refresh tokens used from then on, and token endpoint errors classified
/// (docs/configuration.md#oauth2). Time is the virtual clock's.
@Suite struct OAuth2TokensTests {
    let clock = VirtualClock()
    let logs = LogCapture()

    func tokens(_ transport: ScriptedTransport, store: (any SyncStore)? = nil) -> OAuth2Tokens {
        let clock = clock
        return OAuth2Tokens(
            transport: transport, store: store, logger: logs.logger, clock: clock, elapsed: { clock.now.offset })
    }

    static let page = HTTPRequestSpec(method: .get, url: "https://api.example.com/users", headers: [])
    static let auth = OAuth2Settings(
        identity: "auths.idp", tokenURL: "https://idp.example.com/token", clientID: "agent",
        clientSecret: "s3cr3t/+", grant: .clientCredentials)

    /// A token endpoint that issues `at-1`, `at-2`, … valid `lifetime` seconds, after `delay`.
    func endpoint(lifetime: Int? = 100, delay: Duration = .zero) -> ScriptedTransport {
        let issued = Mutex(0)
        let clock = clock
        return ScriptedTransport(clock: clock) { _ in
            if delay > .zero { try await clock.sleep(for: delay) }
            let number = issued.withLock {
                $0 += 1
                return $0
            }
            let expiry = lifetime.map { #","expires_in":\#($0)"# } ?? ""
            return ScriptedTransport.json(#"{"access_token":"at-\#(number)","token_type":"bearer"\#(expiry)}"#)
        }
    }

    @Test func callersAtOnceShareOneRequestAndTheTokenIsKeptUntilShortlyBeforeItExpires() async throws {
        let transport = endpoint(lifetime: 100, delay: .seconds(1))
        let tokens = tokens(transport)
        let results = Task {
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 { group.addTask { try await tokens.token(for: Self.auth, like: Self.page) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        // The endpoint's delay and the token request's time limit: advanced before both wait, one would never wake.
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(1))
        #expect(try await results.value == Array(repeating: "at-1", count: 20))
        #expect(transport.requests.count == 1)
        // Renewed a tenth of its life (at most a minute) before it ends, counted from
        // when it was asked for: at 0 + 100 - 10 s.
        await clock.advance(to: VirtualClock.Instant(offset: .milliseconds(89_900)))
        #expect(try await tokens.token(for: Self.auth, like: Self.page) == "at-1")
        await clock.advance(to: VirtualClock.Instant(offset: .seconds(90)))
        let renewal = Task { try await tokens.token(for: Self.auth, like: Self.page) }
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(1))
        #expect(try await renewal.value == "at-2")
        #expect(transport.requests.count == 2)
    }

    @Test func theClientAuthenticatesAsConfiguredAndTheFormCarriesTheGrant() async throws {
        let bodies = Mutex<[(String, String?)]>([])
        let transport = ScriptedTransport(clock: clock) { spec in
            let authorization = spec.headers.first { $0.name == "Authorization" }?.value
            bodies.withLock { $0.append((spec.body?.text ?? "", authorization)) }
            return ScriptedTransport.json(#"{"access_token":"at","token_type":"Bearer"}"#)
        }
        var auth = Self.auth
        auth.scopes = ["api", "read:users"]
        auth.audience = "https://api.example.com"
        _ = try await tokens(transport).token(for: auth, like: Self.page)
        auth.clientAuth = .body
        auth.identity = "other"
        _ = try await tokens(transport).token(for: auth, like: Self.page)
        let seen = bodies.withLock { $0 }
        #expect(
            seen.first?.0
                == "grant_type=client_credentials&scope=api%20read%3Ausers&audience=https%3A%2F%2Fapi.example.com")
        // RFC 6749 §2.3.1: the id and secret form-encoded, then base64 ("agent:s3cr3t%2F%2B").
        #expect(seen.first?.1 == "Basic " + Data("agent:s3cr3t%2F%2B".utf8).base64EncodedString())
        #expect(seen.last?.0.hasSuffix("&client_id=agent&client_secret=s3cr3t%2F%2B") == true)
        #expect(seen.last?.1 == nil)
    }

    @Test func anAPIThatRefusesTheTokenGetsANewOneOnceWithinTheAttempt() async throws {
        let transport = endpoint(lifetime: nil)
        let tokens = tokens(transport)
        let api = ScriptedTransport(clock: clock) { spec in
            let authorization = spec.headers.first { $0.name == "Authorization" }?.value
            // The API has forgotten at-1 (Salesforce's session ended): at-2 works.
            return ScriptedTransport.json("{}", status: authorization == "Bearer at-1" ? 401 : 200)
        }
        let request = HTTPRequestSpec(method: .get, url: "https://api.example.com/users", headers: [])
        #expect(try await tokens.send(request, auth: Self.auth, via: api, maxBytes: 1024).status == 200)
        #expect(api.requests.count == 2)
        #expect(transport.requests.count == 2)
        // The new token is kept: no lifetime told, it lasts until refused.
        await clock.advance(by: .seconds(86_400))
        #expect(try await tokens.send(request, auth: Self.auth, via: api, maxBytes: 1024).status == 200)
        #expect(transport.requests.count == 2)
    }

    @Test func aRotatedRefreshTokenIsUsedFromThenOn() async throws {
        let presented = Mutex<[String]>([])
        let transport = ScriptedTransport(clock: clock) { spec in
            let form = spec.body?.text ?? ""
            let token = form.split(separator: "&").first { $0.hasPrefix("refresh_token=") }?.dropFirst(14) ?? ""
            let count = presented.withLock {
                $0.append(String(token))
                return $0.count
            }
            return ScriptedTransport.json(
                #"{"access_token":"at-\#(count)","expires_in":10,"refresh_token":"rt-\#(count)"}"#)
        }
        var auth = Self.auth
        auth.grant = .refreshToken
        auth.refreshToken = "rt-0"
        let tokens = tokens(transport)
        _ = try await tokens.token(for: auth, like: Self.page)
        await clock.advance(by: .seconds(10))
        _ = try await tokens.token(for: auth, like: Self.page)
        #expect(presented.withLock { $0 } == ["rt-0", "rt-1"])
    }

    @Test func settingsChangedByAReloadGetANewTokenFromTheSameRefreshTokenChain() async throws {
        let forms = Mutex<[String]>([])
        let transport = ScriptedTransport(clock: clock) { spec in
            let count = forms.withLock {
                $0.append(spec.body?.text ?? "")
                return $0.count
            }
            return ScriptedTransport.json(
                #"{"access_token":"at-\#(count)","expires_in":3600,"refresh_token":"rt-\#(count)"}"#)
        }
        var auth = Self.auth
        auth.grant = .refreshToken
        auth.refreshToken = "rt-0"
        auth.scopes = ["read"]
        let tokens = tokens(transport)
        #expect(try await tokens.token(for: auth, like: Self.page) == "at-1")
        #expect(try await tokens.token(for: auth, like: Self.page) == "at-1")
        auth.scopes = ["read", "write"]
        #expect(try await tokens.token(for: auth, like: Self.page) == "at-2")
        let sent = forms.withLock { $0 }
        #expect(sent.count == 2)
        // The second request presents the refresh token the first one rotated to, with the new scopes.
        #expect(sent.last?.contains("refresh_token=rt-1") == true, "\(sent)")
        #expect(sent.last?.contains("scope=read%20write") == true, "\(sent)")
    }

    @Test func aCancelledCallerStartsNoTokenRequest() async throws {
        let transport = endpoint()
        let tokens = tokens(transport)
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await tokens.token(for: Self.auth, like: Self.page)
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(transport.requests.isEmpty)
    }

    @Test func finishingWaitsForARequestInFlightAtMostItsLimitThenCancelsIt() async throws {
        let transport = endpoint(delay: .seconds(3600))
        let tokens = tokens(transport)
        let stalled = Task { try await tokens.token(for: Self.auth, like: Self.page) }
        // The endpoint's answer and the token request's time limit.
        await clock.waitForSleepers(2)
        let finished = Task { await tokens.finish(within: .seconds(3)) }
        await clock.waitForSleepers(3)
        await clock.advance(by: .seconds(3))
        await finished.value
        await #expect(throws: (any Error).self) { try await stalled.value }

        // A stop that cannot wait (the caller is cancelled) ends at once too.
        let again = Task { try await tokens.token(for: Self.auth, like: Self.page) }
        await clock.waitForSleepers(2)
        let impatient = Task { await tokens.finish(within: .seconds(3)) }
        await clock.waitForSleepers(3)
        impatient.cancel()
        await impatient.value
        await #expect(throws: (any Error).self) { try await again.value }
    }

    @Test func tokenEndpointErrorsAreClassifiedLikeAnyRequest() async throws {
        let answers: [(HTTPResponseData, FetchError.Kind, String)] = [
            (
                ScriptedTransport.json(
                    #"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#,
                    status: 400),
                .unrecoverable, "the token endpoint refused: invalid_grant (Token has been expired or revoked.)"
            ),
            (
                ScriptedTransport.json(#"{"error":"invalid_client"}"#, status: 401), .unrecoverable,
                "the token endpoint refused: invalid_client"
            ),
            (ScriptedTransport.json("<html>", status: 503), .transient, "the token endpoint answered 503"),
            (
                ScriptedTransport.json(#"{"token":"x"}"#), .unrecoverable,
                "the token endpoint answered 200 without an access_token"
            ),
            (
                ScriptedTransport.json(#"{"access_token":"x","token_type":"mac"}"#), .unrecoverable,
                #"the token endpoint gave a token of type "mac""#
            ),
        ]
        for (answer, kind, cause) in answers {
            let transport = ScriptedTransport(clock: clock) { _ in answer }
            do {
                _ = try await tokens(transport).token(for: Self.auth, like: Self.page)
                Issue.record("no error for \(cause)")
            } catch {
                let classified = FetchError.classify(
                    error, resource: "users", request: "GET https://api.example.com/users", host: "api.example.com",
                    timeout: .seconds(30), maxBytes: 1024)
                #expect(classified.kind == kind, "\(classified)")
                #expect(classified.description.hasPrefix("users: POST https://idp.example.com/token failed: \(cause)"))
            }
        }
        let unreachable = ScriptedTransport(clock: clock) { _ in throw ScriptedTransport.unreachable }
        do {
            _ = try await tokens(unreachable).token(for: Self.auth, like: Self.page)
            Issue.record("no error when the token endpoint cannot be reached")
        } catch {
            let classified = FetchError.classify(
                error, resource: "users", request: "", host: "", timeout: .seconds(30), maxBytes: 1024)
            #expect(classified.kind == .offline, "\(classified)")
        }
    }

    @Test func aTokenEndpointThatStallsEndsAfterItsTimeLimitAndTheNextRequestTriesAgain() async throws {
        let calls = Mutex(0)
        let transport = ScriptedTransport(clock: clock) { [clock] _ in
            let call = calls.withLock {
                $0 += 1
                return $0
            }
            // The first answer never comes.
            if call == 1 { try await clock.sleep(for: .seconds(3600)) }
            return ScriptedTransport.json(#"{"access_token":"at-2","expires_in":60}"#)
        }
        let tokens = tokens(transport)
        let stalled = Task { try await tokens.token(for: Self.auth, like: Self.page) }
        await clock.waitForSleepers(2)
        await clock.advance(by: OAuth2Tokens.timeout)
        do {
            _ = try await stalled.value
            Issue.record("a stalled token request ended without an error")
        } catch {
            let classified = FetchError.classify(
                error, resource: "users", request: "", host: "", timeout: .seconds(5), maxBytes: 1024)
            #expect(classified.kind == .transient, "\(classified)")
            #expect(classified.cause == "the token endpoint: no complete answer within 30s", "\(classified)")
        }
        #expect(try await tokens.token(for: Self.auth, like: Self.page) == "at-2")
    }

    @Test func aRotatedRefreshTokenIsKeptInTheDatabaseAndANewConfiguredOneStartsAfresh() async throws {
        let folder = NSTemporaryDirectory() + "oauth2-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try SQLiteStore(path: folder + "/state.db")
        let presented = Mutex<[String]>([])
        let transport = ScriptedTransport(clock: clock) { spec in
            let form = spec.body?.text ?? ""
            let token = String(form.split(separator: "&").first { $0.hasPrefix("refresh_token=") }?.dropFirst(14) ?? "")
            let count = presented.withLock {
                $0.append(token)
                return $0.count
            }
            return ScriptedTransport.json(#"{"access_token":"at-\#(count)","refresh_token":"rt-\#(count)"}"#)
        }
        var auth = Self.auth
        auth.grant = .refreshToken
        auth.refreshToken = "rt-0"
        // Each process (each OAuth2Tokens) starts from what the database holds.
        _ = try await tokens(transport, store: store).token(for: auth, like: Self.page)
        _ = try await tokens(transport, store: store).token(for: auth, like: Self.page)
        auth.refreshToken = "rt-new"
        _ = try await tokens(transport, store: store).token(for: auth, like: Self.page)
        #expect(presented.withLock { $0 } == ["rt-0", "rt-1", "rt-new"])
        let stored = try await store.rotatedRefreshToken(
            for: auth.identity, configured: OAuth2Tokens.fingerprint("rt-new"))
        #expect(stored == "rt-3")
    }
}
