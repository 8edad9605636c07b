import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StreamsTesting
import Synchronization
import TestServers
import Testing

@testable import Store
@testable import Streams
@testable import SyncAgentDaemon
@testable import SyncCore

/// What the HTTP listener serves besides the socket's API, without a network
/// (docs/observability.md): nothing changes without the token, health checks,
/// the runs of a resource, the status page, JSON log lines and metrics that
/// Prometheus's own checker accepts.
@Suite(.timeLimit(.minutes(1))) struct HTTPListenerTests {
    typealias FakeAgent = StatusAPITests.FakeAgent
    static let token = "3f1c9a7be02d44c1a8e6"

    let agent = FakeAgent()

    /// Sends `method uri` with `headers` to the API served on `listener`.
    func send(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:],
        listener: StatusAPI<FakeAgent>.Listener, readiness: Readiness = Readiness(), timers: Timers? = nil
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var api = StatusAPI(control: agent, pid: 4242)
        api.listener = listener
        api.readiness = readiness
        if let timers { api.timers = timers }
        let app = Application(router: api.router())
        return try await app.test(.router) { client in
            try await client.execute(uri: uri, method: method, headers: headers) { response in
                (response.status, response.headers, String(buffer: response.body))
            }
        }
    }

    static let readOnly = StatusAPI<FakeAgent>.Listener.network(control: false, token: { nil }, loopbackHosts: true)
    static let withControl = StatusAPI<FakeAgent>.Listener.network(
        control: true, token: { token }, loopbackHosts: true)

    @Test func aReadOnlyListenerReadsEverythingAndChangesNothing() async throws {
        #expect(try await send(.get, "/v1/status", listener: Self.readOnly).status == .ok)
        #expect(try await send(.get, "/v1/resources/users", listener: Self.readOnly).status == .ok)
        #expect(try await send(.get, "/metrics", listener: Self.readOnly).status == .ok)
        for uri in ["/v1/resources/users/refresh", "/v1/refresh", "/v1/reload"] {
            let answer = try await send(
                .post, uri, headers: [.authorization: "Bearer \(Self.token)"], listener: Self.readOnly)
            #expect(answer.status == .forbidden)
            let json = try JSONValue(parsing: Array(answer.body.utf8))
            #expect(json["error"]?["code"] == "read_only")
        }
        #expect(agent.refreshed.withLock { $0 }.isEmpty)
    }

    @Test func controlTakesOnlyTheBearerToken() async throws {
        let missing = try await send(.post, "/v1/resources/users/refresh", listener: Self.withControl)
        #expect(missing.status == .unauthorized)
        #expect(missing.headers[.wwwAuthenticate] == #"Bearer realm="sync-agent""#)
        #expect(missing.body.contains("Authorization: Bearer TOKEN"))
        for wrong in ["Bearer 3f1c9a7be02d44c1a8e", "Bearer \(Self.token)0", "Basic \(Self.token)", Self.token] {
            let answer = try await send(
                .post, "/v1/resources/users/refresh", headers: [.authorization: wrong], listener: Self.withControl)
            #expect(answer.status == .unauthorized, "\(wrong)")
        }
        for uri in ["/v1/refresh", "/v1/reload"] {
            let answer = try await send(
                .post, uri, headers: [.authorization: "Bearer wrong-token-0000000"], listener: Self.withControl)
            #expect(answer.status == .unauthorized, "\(uri)")
        }
        let streamed = try await send(
            .post, "/v1/resources/users/refresh", headers: [.accept: "text/event-stream"], listener: Self.withControl)
        #expect(streamed.status == .unauthorized)
        #expect(agent.refreshed.withLock { $0 }.isEmpty)
        let right = try await send(
            .post, "/v1/resources/users/refresh", headers: [.authorization: "Bearer \(Self.token)"],
            listener: Self.withControl)
        #expect(right.status == .ok)
        #expect(agent.refreshed.withLock { $0 } == ["users"])
        // The scheme in any case (RFC 9110).
        let lowercase = try await send(
            .post, "/v1/refresh", headers: [.authorization: "bearer \(Self.token)"], listener: Self.withControl)
        #expect(lowercase.status == .ok)
        // The socket needs no token: whoever may open it may do everything.
        #expect(try await send(.post, "/v1/refresh", listener: .socket).status == .ok)
    }

    @Test func aNewTokenTakesEffectAtTheNextRequest() async throws {
        let current = Mutex("3f1c9a7be02d44c1a8e6")
        let listener = StatusAPI<FakeAgent>.Listener.network(
            control: true, token: { current.withLock { $0 } }, loopbackHosts: true)
        let old: HTTPFields = [.authorization: "Bearer 3f1c9a7be02d44c1a8e6"]
        #expect(try await send(.post, "/v1/refresh", headers: old, listener: listener).status == .ok)
        current.withLock { $0 = "0000111122223333aaaa" }
        #expect(try await send(.post, "/v1/refresh", headers: old, listener: listener).status == .unauthorized)
        let new: HTTPFields = [.authorization: "Bearer 0000111122223333aaaa"]
        #expect(try await send(.post, "/v1/refresh", headers: new, listener: listener).status == .ok)
    }

    @Test(arguments: [
        ("localhost:9464", true), ("127.0.0.1:9464", true), ("127.0.0.1", true), ("[::1]:9464", true),
        ("LOCALHOST", true), ("127.1.2.3:80", true), ("rebound.example.com:9464", false), ("10.0.0.1:9464", false),
        ("127.0.0.1.example.com", false), ("[::2]:9464", false),
    ])
    func aLoopbackListenerAnswersOnlyLoopbackHosts(host: String, answered: Bool) {
        // The router's requests all name localhost; the end-to-end tests send other names with curl.
        #expect(LoopbackHostMiddleware<ControlRequestContext>.isLoopback(host) == answered)
    }

    @Test func tokensAreComparedWholly() {
        let equal = StatusAPI<FakeAgent>.constantTimeEqual
        #expect(equal(Array("abc".utf8), Array("abc".utf8)))
        #expect(!equal(Array("abc".utf8), Array("abd".utf8)))
        #expect(!equal(Array("abc".utf8), Array("abcd".utf8)))
        #expect(!equal([], Array("a".utf8)))
        #expect(equal([], []))
    }

    @Test func healthIsTheProcessAndReadinessTheSocketTheDatabaseAndNoShutdown() async throws {
        let health = try await send(.get, "/healthz", listener: Self.readOnly)
        let alive = try JSONValue(parsing: Array(health.body.utf8))
        #expect(health.status == .ok && alive["status"] == "ok")

        let placed = Mutex(true)
        let readiness = Readiness(socketInPlace: { placed.withLock { $0 } })
        func ready() async throws -> (HTTPResponse.Status, [String]) {
            let answer = try await send(.get, "/readyz", listener: Self.readOnly, readiness: readiness)
            let json = try JSONValue(parsing: Array(answer.body.utf8))
            return (answer.status, json["reasons"]?.arrayValue?.compactMap(\.stringValue) ?? [])
        }
        #expect(try await ready() == (.serviceUnavailable, ["the status socket is not listening yet"]))
        readiness.socketListens()
        #expect(try await ready() == (.ok, []))
        placed.withLock { $0 = false }
        #expect(try await ready() == (.serviceUnavailable, ["the status socket was removed; the agent puts it back"]))
        placed.withLock { $0 = true }
        agent.storeFailure.withLock { $0 = "the database cannot be read: disk I/O error" }
        #expect(try await ready() == (.serviceUnavailable, ["the database cannot be read: disk I/O error"]))
        agent.storeFailure.withLock { $0 = nil }
        // A database that does not answer: the probe answers at the deadline, not later.
        let clock = VirtualClock()
        agent.storeHangs.withLock { $0 = true }
        let probe = Task {
            try await send(.get, "/readyz", listener: Self.readOnly, readiness: readiness, timers: Timers(clock: clock))
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(3))
        let stuck = try await probe.value
        let reasons = try JSONValue(parsing: Array(stuck.body.utf8))["reasons"]?.arrayValue
        #expect(stuck.status == .serviceUnavailable)
        #expect(reasons == ["the database did not answer within 3s"])
        agent.storeHangs.withLock { $0 = false }
        readiness.stopping()
        #expect(try await ready() == (.serviceUnavailable, ["the agent is shutting down"]))
    }

    @Test func theRunsOfAResourceAreNewestFirstAndBounded() async throws {
        let answer = try await send(.get, "/v1/resources/users/runs?limit=1", listener: Self.readOnly)
        #expect(answer.status == .ok)
        let runs = try JSONValue(parsing: Array(answer.body.utf8))["runs"]?.arrayValue ?? []
        #expect(runs.map { $0["id"] } == [2])
        #expect(runs.first?["outcome"] == "failed" && runs.first?["durationMs"] == 900)
        let all = try await send(.get, "/v1/resources/users/runs", listener: .socket)
        #expect(try JSONValue(parsing: Array(all.body.utf8))["runs"]?.arrayValue?.count == 2)
        #expect(try await send(.get, "/v1/resources/users/runs?limit=0", listener: .socket).status == .badRequest)
        #expect(try await send(.get, "/v1/resources/users/runs?limit=101", listener: .socket).status == .badRequest)
        #expect(try await send(.get, "/v1/resources/nope/runs", listener: .socket).status == .notFound)
    }

    @Test func theStatusPageShowsEveryResourceAndRefreshOnlyWithControl() async throws {
        let page = try await send(.get, "/", listener: Self.withControl)
        #expect(page.status == .ok)
        #expect(page.headers[.contentType] == "text/html; charset=utf-8")
        #expect(page.headers[.contentSecurityPolicy] == StatusPage.contentSecurityPolicy)
        #expect(page.body.contains(#"<tr data-resource="users""#))
        #expect(page.body.contains(#"<tr data-resource="groups""#))
        #expect(page.body.contains(#"class="refresh""#))
        #expect(page.body.contains(#"id="token""#))
        // Nothing from elsewhere: the page works on a machine with no internet.
        #expect(!page.body.contains("http://") && !page.body.contains("https://"))
        let readOnly = try await send(.get, "/", listener: Self.readOnly)
        #expect(!readOnly.body.contains(#"class="refresh""#) && !readOnly.body.contains(#"id="token""#))
    }

    @Test(arguments: [false, true])
    func prometheusOwnCheckerAcceptsTheMetrics(synced: Bool) throws {
        var page = agent.metricsPage()
        if synced {
            // With every kind of sample: a last success, a slow sync, a failed resource.
            var users = ResourceStatus(name: "users", state: .syncing)
            users.lastSuccessAt = Date(timeIntervalSince1970: 1_795_000_100.25)
            users.slow = true
            let metrics = AgentMetrics(resources: ["users", "groups"])
            page = metrics.render(
                statuses: [users, ResourceStatus(name: "groups", state: .failed)], online: true,
                startedAt: Date(timeIntervalSince1970: 1_795_000_000))
            #expect(page.contains(#"sync_agent_last_success_timestamp_seconds{resource="users"} 1795000100.25"#))
        }
        #expect(try Promtool.problems(inMetrics: page) == "")
    }
}
