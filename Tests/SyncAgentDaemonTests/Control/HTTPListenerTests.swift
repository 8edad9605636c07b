import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import Store
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
        listener: StatusAPI<FakeAgent>.Listener, readiness: Readiness = Readiness()
    ) async throws -> (status: HTTPResponse.Status, headers: HTTPFields, body: String) {
        var api = StatusAPI(control: agent, pid: 4242)
        api.listener = listener
        api.readiness = readiness
        let app = Application(router: api.router())
        return try await app.test(.router) { client in
            try await client.execute(uri: uri, method: method, headers: headers) { response in
                (response.status, response.headers, String(buffer: response.body))
            }
        }
    }

    static let readOnly = StatusAPI<FakeAgent>.Listener.network(control: false, token: { nil })
    static let withControl = StatusAPI<FakeAgent>.Listener.network(control: true, token: { token })

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
        #expect(agent.refreshed.withLock { $0 }.isEmpty)
        let right = try await send(
            .post, "/v1/resources/users/refresh", headers: [.authorization: "Bearer \(Self.token)"],
            listener: Self.withControl)
        #expect(right.status == .ok)
        #expect(agent.refreshed.withLock { $0 } == ["users"])
        // The socket needs no token: whoever may open it may do everything.
        #expect(try await send(.post, "/v1/refresh", listener: .socket).status == .ok)
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

    @Test func thePageEscapesWhatItShows() {
        var status = ResourceStatus(name: "users", state: .failed)
        status.lastError = StoredError(
            kind: "unrecoverable", message: #"<script>alert("x")</script> & more"#, status: 400)
        let html = StatusPage.render(
            StatusPage.Input(
                agent: AgentInfo(version: "1", pid: 1, startedAt: Date(), online: true), resources: [status],
                durations: ["users": [.init(milliseconds: 120, failed: false), .init(milliseconds: 80, failed: true)]],
                control: false, now: Date()))
        #expect(!html.contains("<script>alert"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more"))
    }

    @Test func jsonLogLinesAreOneObjectWithTypedFields() throws {
        let event = LogEvent(
            level: .warning, message: "the server answered 503", metadata: nil, source: nil, file: "", function: "",
            line: 0)
        let metadata: Logger.Metadata = [
            "resource": "users", "sync_id": "17", "attempt": "2", "outcome": "failed", "duration": "1.25",
            "trigger": "poll",
        ]
        let line = LineLogHandler.jsonLine(event, metadata, time: "2026-11-26T10:00:00.123Z")
        #expect(!line.contains("\n"))
        let json = try JSONValue(parsing: Array(line.utf8))
        #expect(json["time"] == "2026-11-26T10:00:00.123Z" && json["level"] == "warning")
        #expect(json["message"] == "the server answered 503" && json["resource"] == "users")
        #expect(json["sync_id"] == 17 && json["attempt"] == 2 && json["duration"] == .number("1.25"))
        #expect(json["outcome"] == "failed" && json["trigger"] == "poll")
    }

    @Test func prometheusOwnCheckerAcceptsTheMetrics() throws {
        let page = agent.metricsPage()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
        process.arguments = ["check", "metrics"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        input.fileHandleForWriting.write(Data(page.utf8))
        try input.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "promtool check metrics: \(said)")
        #expect(said.isEmpty, "promtool check metrics: \(said)")
    }
}
