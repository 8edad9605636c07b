import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// `sync-agent refresh` as a user runs it: the real binary, a real HTTP server
/// on loopback, a real SQLite file read back with the `sqlite3` shell. (Longer
/// under a sanitizer: fifty rounds of eight refreshes whose first answer waits 3.2 s.)
@Suite(.timeLimit(.minutes(5 * Sanitizer.slowdown))) struct RefreshEndToEndTests {
    @Test(arguments: ["page", "offset", "cursor", "link", "nextUrl", "none"])
    func syncsEveryPaginationStyle(_ style: String) async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: style)])

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 0, "\(result.stderr)")
        let pages = style == "none" ? 1 : 3
        #expect(result.stdout.contains("items  synced  \(pages) page"), "\(result.stdout)")
        let records = try workspace.records("items")
        #expect(records.count == 250)
        #expect(Set(records.keys) == Set((1...250).map(String.init)))
        for id in [1, 100, 101, 250] {
            #expect(records["\(id)"] == upstream.item("items", id: id))
        }
        #expect(
            try workspace.query("SELECT state, item_count FROM resources WHERE name = 'items'") == [["idle", "250"]])
        #expect(
            try workspace.query("SELECT trigger, outcome, pages, items FROM sync_runs")
                == [["refresh", "success", "\(pages)", "250"]])
    }

    @Test func aSecondRefreshAsksOnlyForWhatChangedAndWritesNoRecord() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
        #expect(try await workspace.run(["refresh"]).status == 0)
        let times = try workspace.updateTimes("items")
        upstream.clearRequests()

        let second = try await workspace.run(["refresh", "--json"])

        #expect(second.status == 0)
        #expect(second.stdout.contains(#""outcome": "notModified""#))
        // Each of the two pages is asked for with its own ETag, and answers 304.
        let requests = upstream.requests
        #expect(requests.map(\.query) == ["page=1&per_page=100", "page=2&per_page=100"])
        #expect(requests.allSatisfy { $0.headers["if-none-match"] != nil })
        #expect(Set(requests.compactMap { $0.headers["if-none-match"] }).count == 2)
        #expect(try workspace.updateTimes("items") == times)
        #expect(
            try workspace.query("SELECT outcome FROM sync_runs ORDER BY id") == [["success"], ["notModified"]])
    }

    /// A fault injected on page 2 of 3, and how the failure must be classified.
    struct PageFault: Sendable, CustomTestStringConvertible {
        var action: Fault.Action
        var kind: String
        var cause: String
        var testDescription: String { cause }
    }

    @Test(arguments: [
        PageFault(action: .status(503), kind: "transient", cause: "the server answered 503 Service Unavailable"),
        PageFault(action: .reset, kind: "transient", cause: "the connection was reset"),
        PageFault(action: .truncate, kind: "transient", cause: "the connection closed before the whole body arrived"),
        PageFault(action: .invalidJSON, kind: "unrecoverable", cause: "the body is not valid JSON"),
        PageFault(action: .status(404), kind: "unrecoverable", cause: "the server answered 404 Not Found"),
    ])
    func aPageFailingMidSyncLeavesThePreviousSnapshotWhole(_ fault: PageFault) async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
        #expect(try await workspace.run(["refresh"]).status == 0)
        let before = try workspace.query("SELECT key, data, updated_at FROM records ORDER BY key")
        upstream.changeItems("items", ids: Array(1...10))
        upstream.removeItems("items", ids: Array(240...250))
        upstream.inject(Fault(path: "/page/items", query: "page=2", action: fault.action))

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 1)
        let line = "items: GET \(upstream.baseURL)/page/items?page=2&per_page=100 failed: \(fault.cause)"
        #expect(result.stdout.contains(line), "\(result.stdout)")
        #expect(try workspace.query("SELECT key, data, updated_at FROM records ORDER BY key") == before)
        let resource = try workspace.query("SELECT state, last_error_kind, item_count FROM resources")
        #expect(resource == [["failed", fault.kind, "250"]])
        #expect(try workspace.value("SELECT last_error FROM resources")?.contains(fault.cause) == true)
        // Transient faults were retried (once: maxAttempts is 1 here) and gave up.
        let outcome = fault.kind == "transient" ? "gaveUp" : "failed"
        #expect(try workspace.value("SELECT outcome FROM sync_runs ORDER BY id DESC LIMIT 1") == outcome)
    }

    @Test func vanishedKeysAreDeletedAndOnlyChangedRowsMoveTheirTime() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "cursor")])
        #expect(try await workspace.run(["refresh"]).status == 0)
        let before = try workspace.updateTimes("items")
        upstream.changeItems("items", ids: [5, 50])
        upstream.removeItems("items", ids: [7, 8, 9])
        upstream.setCollection("items", count: 251)

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0)
        #expect(result.stdout.contains(#""added": 1"#) && result.stdout.contains(#""changed": 2"#))
        #expect(result.stdout.contains(#""removed": 3"#))
        let after = try workspace.updateTimes("items")
        #expect(after.count == 248)
        #expect(after["7"] == nil && after["8"] == nil && after["9"] == nil)
        #expect(after["5"] != before["5"] && after["50"] != before["50"])
        #expect(after["251"] != nil)
        let untouched = before.keys.filter { !["5", "50", "7", "8", "9"].contains($0) }
        #expect(untouched.allSatisfy { after[$0] == before[$0] })
        #expect(try workspace.records("items")["5"]?.contains(#""revision":2"#) == true)
    }

    @Test func aRefreshKilledMidSyncLeavesThePreviousSnapshotAndTheNextOneWorks() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
        #expect(try await workspace.run(["refresh"]).status == 0)
        let before = try workspace.query("SELECT key, data, updated_at FROM records ORDER BY key")
        upstream.changeItems("items", ids: [1, 2, 3])
        upstream.inject(Fault(path: "/page/items", query: "page=3", times: 1, delay: .seconds(30)))
        upstream.clearRequests()

        let refresh = try workspace.start(["refresh"])
        #expect(try await eventually { upstream.requests.contains { $0.query.contains("page=3") } })
        refresh.send(SIGKILL)
        let killed = try await refresh.finish()

        #expect(killed.status == SIGKILL)
        #expect(try workspace.query("SELECT key, data, updated_at FROM records ORDER BY key") == before)
        let next = try await workspace.run(["refresh", "--json"])
        #expect(next.status == 0, "\(next.stdout)")
        #expect(next.stdout.contains(#""changed": 3"#))
        #expect(try workspace.value("SELECT count(*) FROM sync_runs") == "2")
    }

    @Test func twoConcurrentRefreshesMakeOneUpstreamRequest() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 40])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
        // The first request is slow, so the second refresh starts while it is in flight.
        upstream.inject(Fault(path: "/page/items", times: 1, delay: .seconds(3)))

        let first = try workspace.start(["refresh", "--json"])
        #expect(try await eventually { upstream.requestCount(path: "/page/items") == 1 })
        let second = try workspace.start(["refresh", "--json"])
        let results = try await [first.finish(), second.finish()]

        #expect(results.map(\.status) == [0, 0], "\(results.map(\.stderr))")
        #expect(upstream.requestCount(path: "/page/items") == 1)
        #expect(results[0].stdout.contains(#""joined": false"#))
        #expect(results[1].stdout.contains(#""joined": true"#))
        #expect(results[1].stdout.contains(#""outcome": "success""#))
        #expect(try workspace.value("SELECT count(*) FROM sync_runs") == "1")
    }

    @Test func aWriterHoldingTheDatabaseLongerThanTheBusyTimeoutDelaysTheSyncNeverLosesIt() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"{"defaults": {"retry": {"initialDelay": "1s", "jitter": 0}}, "resources": [\#(upstream.resource("items", style: "page"))]}"#
        )
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        upstream.changeItems("items", ids: [120])
        // Another program holds the write lock for 7 s: longer than the busy timeout (5 s).
        let holder = try await workspace.holdWriteLock(seconds: 7)

        let result = try await workspace.run(["refresh", "--json"])
        holder.waitUntilExit()

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(#""outcome": "success""#), "\(result.stdout)")
        #expect(result.stdout.contains(#""attempts": 2"#), "\(result.stdout)")
        #expect(result.stderr.contains("database is locked by another process"), "\(result.stderr)")
        #expect(try workspace.records("items")["120"]?.contains(#""revision":2"#) == true)
        #expect(
            try workspace.query("SELECT trigger, outcome, attempts FROM sync_runs ORDER BY id")
                == [["startup", "success", "1"], ["refresh", "success", "2"]])
        #expect(agent.state(of: "items") == "idle")
        _ = try await agent.stop()
    }

    @Test func aRefreshOpeningADatabaseAnotherProgramHoldsWaitsForIt() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
        #expect(try await workspace.run(["refresh"]).status == 0)
        upstream.changeItems("items", ids: [7])
        // The database closed cleanly (no WAL); another program opens it and
        // holds the write lock for 7 s, longer than the busy timeout (5 s).
        let holder = try await workspace.holdWriteLock(seconds: 7)

        let started = ContinuousClock.now
        let result = try await workspace.run(["refresh"])
        holder.waitUntilExit()

        #expect(result.status == 0, "\(result.stderr)")
        #expect(ContinuousClock.now - started > .seconds(5))
        #expect(try workspace.records("items")["7"]?.contains(#""revision":2"#) == true)
    }

    @Test func eightRefreshesOfAFreshDatabaseAllSucceedFiftyTimesInARow() async throws {
        // Creating the file, the switch to WAL and the migrations are serialized:
        // every process opens the new database, and they share one sync.
        let upstream = try await TestUpstream.start(collections: ["items": 40])
        defer { Task { await upstream.stop() } }
        for round in 1...50 {
            let workspace = try Workspace()
            try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
            upstream.clearRequests()
            // The first answer is slow, so every process starts while it is in flight
            // (slower under a sanitizer, where starting eight takes longer).
            upstream.inject(
                Fault(path: "/page/items", times: 1, delay: .milliseconds(800) * Sanitizer.slowdown))
            let refreshes = try (0..<8).map { _ in try workspace.start(["refresh"]) }
            var results: [ProcessResult] = []
            for refresh in refreshes { results.append(try await refresh.finish()) }
            #expect(results.allSatisfy { $0.status == 0 }, "round \(round): \(results.map(\.stderr))")
            #expect(upstream.requestCount(path: "/page/items") == 1, "round \(round)")
            if results.contains(where: { $0.status != 0 }) { break }
        }
    }

    @Test func aDependentResourceFillsItsURLFromItsDependencysRecord() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 100])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        // Item 7's score is 49, so `mine` reads /one/items/49.
        try workspace.writeConfig(resources: [
            #"{"name": "mine", "url": "\#(upstream.baseURL)/one/items/{me:/score}", "items": "", "key": "/id"}"#,
            #"{"name": "me", "url": "\#(upstream.baseURL)/one/items/7", "items": "", "key": "/id"}"#,
        ])

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 0, "\(result.stdout)")
        #expect(try workspace.records("me").keys.sorted() == ["7"])
        #expect(try workspace.records("mine") == ["49": upstream.item("items", id: 49)!])
    }

    @Test func aDependentResourceWithoutItsDependencyFailsClearly() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 100])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"{"name": "me", "url": "\#(upstream.baseURL)/one/items/7", "items": "", "key": "/id"}"#,
            #"{"name": "mine", "url": "\#(upstream.baseURL)/one/items/{me:/score}", "items": "", "key": "/id"}"#,
        ])

        let result = try await workspace.run(["refresh", "mine"])

        #expect(result.status == 1)
        #expect(result.stdout.contains(#"resource "me" has no record yet"#), "\(result.stdout)")
        #expect(upstream.requests.isEmpty)
    }

    @Test func requestsCarryTheMethodHeadersQueryAndBody() async throws {
        let upstream = try await TestUpstream.start()
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "echo", "url": "\#(upstream.baseURL)/echo", "method": "POST", "items": "", "key": "/id",
             "headers": {"X-Team": "blue"}, "query": {"q": "a b&c", "n": 3}, "body": {"since": "${SINCE}"}}
            """#
        ])

        let result = try await workspace.run(["refresh"], environment: ["SINCE": "2026-01-01"])

        #expect(result.status == 0, "\(result.stdout)")
        let record = try #require(try workspace.records("echo")["echo"])
        #expect(record.contains(#""method":"POST""#))
        #expect(record.contains(#""query":"q=a%20b%26c&n=3""#))
        #expect(record.contains(#""x-team":"blue""#))
        #expect(record.contains(#""content-type":"application/json""#))
        #expect(record.contains(#""body":"{\"since\":\"2026-01-01\"}""#))
        #expect(record.contains(#""user-agent":"sync-agent/"#))
    }

    @Test func redirectsAreFollowedButConfiguredHeadersStayWithTheirOrigin() async throws {
        let upstream = try await TestUpstream.start()
        let elsewhere = try await TestUpstream.start()
        defer {
            Task {
                await upstream.stop()
                await elsewhere.stop()
            }
        }
        let workspace = try Workspace()
        func redirect(to target: String) -> String {
            "\(upstream.baseURL)/redirect?to="
                + (target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
        }
        try workspace.writeConfig(resources: [
            #"{"name": "same", "url": "\#(redirect(to: upstream.baseURL + "/echo"))", "items": "", "key": "/id", "headers": {"X-Api-Key": "${KEY}"}}"#,
            #"{"name": "other", "url": "\#(redirect(to: elsewhere.baseURL + "/echo"))", "items": "", "key": "/id", "headers": {"X-Api-Key": "${KEY}"}}"#,
        ])

        let result = try await workspace.run(["refresh"], environment: ["KEY": "k-12345"])

        #expect(result.status == 0, "\(result.stdout)")
        #expect(upstream.requests.filter { $0.path == "/echo" }.first?.headers["x-api-key"] == "k-12345")
        let abroad = try #require(elsewhere.requests.first { $0.path == "/echo" })
        #expect(abroad.headers["x-api-key"] == nil)
        #expect(abroad.headers["user-agent"]?.hasPrefix("sync-agent/") == true)
    }

    @Test func limitsRefuseTooManyPagesTooLargeBodiesAndDuplicateKeys() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            upstream.resource("pages", style: "page", extra: #""maxPages": 2"#),
            upstream.resource("big", style: "none", extra: #""maxResponseSize": "4KiB""#),
            #"{"name": "dupes", "url": "\#(upstream.baseURL)/all/items", "key": "/score"}"#,
        ])

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 1)
        #expect(result.stdout.contains("the upstream has more than maxPages (2) pages"), "\(result.stdout)")
        #expect(result.stdout.contains("the response is larger than maxResponseSize (4 KiB)"))
        #expect(
            result.stdout.contains(#"dupes: GET \#(upstream.baseURL)/all/items failed: two items have the same key ""#))
        #expect(try workspace.value("SELECT count(*) FROM records") == "0")
        #expect(
            try workspace.query("SELECT name, last_error_kind FROM resources ORDER BY name")
                == [["big", "unrecoverable"], ["dupes", "unrecoverable"], ["pages", "unrecoverable"]])
    }

    @Test func anUpstreamOfExactlyMaxPagesFullPagesIsWhole() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 200])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page", extra: #""maxPages": 2"#)])

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 0, "\(result.stdout)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "200")
    }

    @Test func validatorsAreNotSentWithADifferentRequest() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page")])
        #expect(try await workspace.run(["refresh"]).status == 0)
        // The configuration changes what is asked for: the old ETag says nothing about it.
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page", extra: #""query": {"v": 2}"#)])
        upstream.clearRequests()

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.stdout.contains(#""outcome": "success""#), "\(result.stdout)")
        #expect(upstream.requests.first?.headers["if-none-match"] == nil)
        #expect(try await workspace.run(["refresh", "--json"]).stdout.contains(#""outcome": "notModified""#))
    }

    @Test func aSlowAnswerTimesOut() async throws {
        let upstream = try await TestUpstream.start()
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "page", extra: #""timeout": "300ms""#)])
        upstream.inject(Fault(path: "/page/items", delay: .seconds(5)))

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 1)
        #expect(result.stdout.contains("failed: no complete answer within 300ms"), "\(result.stdout)")
    }

    @Test func anUnresolvableHostIsOfflineAndARefusedConnectionFails() async throws {
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"{"name": "nowhere", "url": "http://no-such-host.invalid/items", "key": "/id"}"#
        ])
        // A resolver that does not answer must not outlast the request's timeout.
        let offline = try await workspace.run(["refresh"], environment: ["RES_OPTIONS": "timeout:1 attempts:1"])
        #expect(offline.status == 75, "\(offline.stdout)")
        #expect(offline.stdout.contains("could not be resolved"))
        #expect(try workspace.value("SELECT state FROM resources") == "offline")

        try workspace.writeConfig(resources: [#"{"name": "closed", "url": "http://127.0.0.1:1/items", "key": "/id"}"#])
        let refused = try await workspace.run(["refresh"])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("127.0.0.1 refused the connection"))
    }

    @Test func anUnknownResourceNameIsAUsageError() async throws {
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [#"{"name": "users", "url": "http://127.0.0.1:1/u", "key": "/id"}"#])
        let result = try await workspace.run(["refresh", "userz"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(#"no resource named "userz""#) && result.stderr.contains("(resources: users)"))
        #expect(!FileManager.default.fileExists(atPath: workspace.databasePath))
    }
}
