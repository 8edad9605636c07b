import Foundation
import NIOHTTP1
import Store
import Streams
import StreamsTesting
import Synchronization
import Testing

@testable import SyncCore

/// The engine on virtual time: polls, retries, failures, offline, slow syncs,
/// shared syncs and dependent resources, against a scripted upstream and a
/// real SQLite file.
@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct SyncEngineTests {
    @Test func pollsAnIntervalAfterEachSuccess() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users", #""interval": "60s""#)])
        let clock = harness.clock
        harness.transport.respond { _ in
            try await clock.sleep(for: .seconds(10))
            return page([1, 2])
        }
        let engine = harness.start()
        for round in 0..<3 {
            let start = Double(round) * 70
            await harness.untilRequests(round + 1)
            #expect(harness.status("users").state == .syncing)
            await harness.advance(by: 10)
            await harness.until {
                $0["users"]?.lastSuccessAt == EngineHarness.date(start + 10)
                    && $0["users"]?.nextSyncAt == EngineHarness.date(start + 70)
            }
            if round < 2 { await harness.advance(by: 60) }
        }
        // Each sync takes 10 s, and the next starts 60 s after it ended.
        #expect(harness.requestTimes() == [0, 70, 140])
        #expect(harness.status("users").items == 2)
        let runs = try await harness.store.runs(of: "users", limit: 10)
        #expect(runs.map(\.trigger).reversed() == [.startup, .poll, .poll])
        engine.cancel()
        await engine.value
    }

    @Test func duePollsStartWithinTheLimitsHostsTakeTurnsAndARefreshAnswersAQueuedOne() async throws {
        // Six resources on one host, two on another; 3 syncs at once, 2 per host.
        let resources =
            (0..<6).map { #"{"name": "a\#($0)", "url": "http://a.test/\#($0)", "items": "/items", "key": "/id"}"# }
            + (0..<2).map { #"{"name": "b\#($0)", "url": "http://b.test/\#($0)", "items": "/items", "key": "/id"}"# }
        let harness = try EngineHarness(
            topLevel: #""maxConcurrentSyncs": 3, "maxConcurrentSyncsPerHost": 2"#, resources: resources)
        let clock = harness.clock
        harness.transport.respond { _ in
            try await clock.sleep(for: .seconds(10))
            return page([1])
        }
        let engine = harness.start()
        await harness.untilRequests(3)
        // a5 is queued: a refresh runs it at once, outside the limits, and
        // its end (at 15 s) answers the queued poll.
        await harness.advance(by: 5)
        async let refreshed = harness.engine.refresh("a5")
        await harness.untilRequests(4)
        await harness.advance(by: 5)
        await harness.untilRequests(7)
        await harness.advance(by: 5)
        #expect(await refreshed?.outcome == .success)
        await harness.advance(by: 5)
        await harness.untilRequests(8)
        await harness.advance(by: 10)
        await harness.until { $0.values.allSatisfy { $0.lastSuccessAt != nil && $0.state == .idle } }
        let times = Dictionary(
            uniqueKeysWithValues: resources.indices.map { index in
                let name = index < 6 ? "a.test/\(index)" : "b.test/\(index - 6)"
                return (name, harness.requestTimes(name))
            })
        #expect(
            times == [
                "a.test/0": [0], "a.test/1": [0], "b.test/0": [0], "a.test/5": [5],
                "a.test/2": [10], "a.test/3": [10], "b.test/1": [10], "a.test/4": [20],
            ])
        // Each next poll is an interval after its own success.
        await harness.until { $0["a4"]?.nextSyncAt == EngineHarness.date(90) }
        #expect(harness.status("a5").nextSyncAt == EngineHarness.date(75))
        engine.cancel()
        await engine.value
    }

    @Test func aRefreshMovesTheNextPollAnIntervalAfterIt() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users", #""interval": "60s""#)])
        harness.transport.respond { _ in page([1]) }
        let engine = harness.start()
        await harness.until { $0["users"]?.nextSyncAt == EngineHarness.date(60) }
        await harness.advance(to: 30)
        #expect(await harness.engine.refresh("users")?.outcome == .success)
        await harness.until { $0["users"]?.nextSyncAt == EngineHarness.date(90) }
        // The timer set for 60 s finds the poll moved, and sets one for 90 s.
        await harness.advance(to: 89)
        #expect(harness.requestTimes() == [0, 30])
        await harness.advance(to: 90)
        await harness.untilRequests(3)
        #expect(harness.requestTimes() == [0, 30, 90])
        engine.cancel()
        await engine.value
    }

    @Test func aReloadReplansAChangedIntervalFromTheLastSuccessStartsTheAddedAndStopsTheRemoved() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource("users", #""interval": "60s""#), scriptedResource("groups", #""interval": "60s""#),
        ])
        harness.transport.respond { _ in page([1]) }
        let engine = harness.start()
        await harness.until { $0["users"]?.lastSuccessAt != nil && $0["groups"]?.lastSuccessAt != nil }
        await harness.advance(by: 10)
        let text =
            #"{"resources": [\#(scriptedResource("users", #""interval": "30s""#)), \#(scriptedResource("orders"))]}"#
        let new = try ConfigLoader.decode(Array(text.utf8), file: harness.config.file, environment: [:])

        let summary = await harness.engine.reload(new)

        #expect(summary.added == ["orders"] && summary.removed == ["groups"] && summary.changed == ["users"])
        #expect(harness.engine.statuses().map(\.name) == ["users", "orders"])
        // orders syncs at once; users 30 s after its last success (at 0), not 60 s, nor now.
        await harness.untilRequests(1, "orders")
        #expect(harness.requestTimes("orders") == [10])
        #expect(harness.status("users").nextSyncAt == EngineHarness.date(30))
        await harness.advance(to: 30)
        await harness.until { $0["users"]?.lastSuccessAt == EngineHarness.date(30) }
        await harness.advance(to: 60)
        await harness.untilRequests(3, "users")
        #expect(harness.requestTimes("users") == [0, 30, 60])
        #expect(harness.requestTimes("groups") == [0])
        engine.cancel()
        await engine.value
    }

    @Test func aSecretWhoseFileChangedIsReadAgainAtTheNextSyncAndIsNoChangeForAReload() async throws {
        let secrets = NSTemporaryDirectory() + "sync-agent-secrets-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: secrets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: secrets) }
        let token = secrets + "/token"
        // Each value has its own length: a file system's clock may not tick between two writes.
        func rotate(to value: String) throws {
            try Data("\(value)\n".utf8).write(to: URL(fileURLWithPath: token + ".new"))
            #expect(rename(token + ".new", token) == 0)
        }
        try rotate(to: "token-1")
        let harness = try EngineHarness(resources: [
            scriptedResource("users", #""interval": "60s", "query": {"token": "${file:\#(token)}"}"#)
        ])
        harness.transport.respond { _ in page([1]) }
        func readAgain() -> Int {
            harness.logs.messages.filter { $0.message.hasPrefix("read the secrets again") }.count
        }
        func lastToken() -> String? { harness.transport.requests.last?.url.components(separatedBy: "token=").last }
        func pollAt(_ seconds: Double) async {
            await harness.until { $0["users"]?.nextSyncAt == EngineHarness.date(seconds) }
            await harness.advance(to: seconds)
        }
        let engine = harness.start()
        await pollAt(60)
        await harness.untilRequests(2)
        // Unchanged: nothing is read again.
        #expect(lastToken() == "token-1" && readAgain() == 0)

        // A refresh after a rotation sends the new value, and its poll takes its result.
        try rotate(to: "token-22")
        await harness.until { $0["users"]?.nextSyncAt == EngineHarness.date(120) }
        await harness.advance(to: 90)
        #expect(await harness.engine.refresh("users")?.outcome == .success)
        #expect(lastToken() == "token-22" && readAgain() == 1)
        #expect(harness.logs.messages.contains { $0.message == "read the secrets again: \(token) changed" })
        await pollAt(150)
        await harness.untilRequests(4)
        #expect(lastToken() == "token-22" && readAgain() == 1)

        // A reload of the same file after a rotation reads it again, and finds no resource changed.
        try rotate(to: "token-333")
        let same = try ConfigLoader.decode(harness.config.source.bytes, file: harness.config.file, environment: [:])
        #expect(await harness.engine.reload(same).isEmpty)
        #expect(readAgain() == 2)
        await pollAt(210)
        await harness.untilRequests(5)
        #expect(lastToken() == "token-333" && readAgain() == 2)
        #expect(harness.requestTimes() == [0, 60, 90, 150, 210])
        // Both generations are scrubbed from what the agent shows.
        #expect(harness.engine.config.redactor.redact("token-22 token-333") == "${file:\(token)} ${file:\(token)}")

        // A secret that cannot be read again is told once, and the values in force stay.
        try FileManager.default.removeItem(atPath: token)
        await pollAt(270)
        await harness.untilRequests(6)
        await pollAt(330)
        await harness.untilRequests(7)
        #expect(lastToken() == "token-333")
        let warnings = harness.logs.messages.filter { $0.level == .warning }.map(\.message)
        #expect(
            warnings == [
                "\(token) changed, but the secrets cannot be read again; the agent goes on with the values it has: "
                    + "resources[0].query.token: cannot read file \(token): it does not exist"
            ], "\(warnings)")
        engine.cancel()
        await engine.value
    }

    @Test func retriesWithBackoffThenGivesUpAndWaitsForARefresh() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource(
                "users", #""retry": {"maxAttempts": 3, "initialDelay": "1s", "multiplier": 2, "jitter": 0}"#)
        ])
        harness.transport.respond { _ in ScriptedTransport.json("{}", status: 503) }
        let engine = harness.start()
        await harness.untilRequests(1)
        await harness.until { $0["users"]?.state == .retrying }
        #expect(harness.status("users").attempt == 2)
        #expect(
            harness.status("users").message?.hasPrefix("retrying GET http://upstream.test/users in 1s (attempt 2 of 3)")
                == true)
        await harness.advance(by: 1)
        await harness.untilRequests(2)
        await harness.advance(by: 2)
        await harness.untilRequests(3)
        await harness.until { $0["users"]?.state == .failed }
        #expect(harness.requestTimes() == [0, 1, 3])
        #expect(harness.status("users").nextSyncAt == nil)
        #expect(harness.status("users").lastError?.status == 503)

        // Given up: no polls, however long.
        await harness.advance(by: 600)
        #expect(harness.requestTimes().count == 3)

        // A manual refresh that succeeds resumes polling.
        harness.transport.respond { _ in page([1]) }
        let result = try #require(await harness.engine.refresh("users"))
        #expect(result.outcome == .success)
        #expect(!result.joined)
        await harness.until { $0["users"]?.state == .idle && $0["users"]?.nextSyncAt == EngineHarness.date(663) }
        await harness.advance(by: 60)
        await harness.untilRequests(5)
        #expect(harness.requestTimes() == [0, 1, 3, 603, 663])
        engine.cancel()
        await engine.value
    }

    /// An answer with `headers`.
    func answer(_ status: Int, _ headers: [(String, String)], body: String = "{}") -> HTTPResponseData {
        var response = ScriptedTransport.json(body, status: status)
        for (name, value) in headers { response.headers.add(name: name, value: value) }
        return response
    }

    @Test func aRateLimitIsWaitedOutShownAsWaitingAndUsesNoAttempt() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource("users", #""retry": {"maxAttempts": 2, "initialDelay": "1s", "jitter": 0}"#)
        ])
        let answers = Mutex([
            answer(429, [("Retry-After", "30")]), answer(403, [("x-ratelimit-remaining", "0"), ("Retry-After", "20")]),
            page([1, 2]),
        ])
        harness.transport.respond { _ in answers.withLock { $0.removeFirst() } }
        let engine = harness.start()
        await harness.until { $0["users"]?.state == .waiting }
        #expect(harness.status("users").message?.hasPrefix("rate limited until ") == true)
        #expect(harness.status("users").attempt == 1)
        await harness.advance(by: 29.9)
        #expect(harness.requestTimes() == [0])
        await harness.advance(by: 0.1)
        await harness.untilRequests(2)
        await harness.advance(by: 20)
        await harness.until { $0["users"]?.state == .idle && $0["users"]?.items == 2 }
        // Two rate limits with a policy of two attempts: neither used one up.
        #expect(harness.requestTimes() == [0, 30, 50])
        let runs = try await harness.store.runs(of: "users", limit: 1)
        #expect(runs.map(\.outcome) == [.success])
        #expect(runs.map(\.counts.attempts) == [1])
        let metrics = harness.engine.metrics.counts.rateLimitWaits["users"]?["server"]
        #expect(metrics?.count == 2)
        #expect(metrics?.seconds == 50)
        engine.cancel()
        await engine.value
    }

    @Test func aRateLimitLongerThanMaxWaitEndsTheSyncAndPollsAgainAtTheReset() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource("users", #""interval": "60s", "rateLimit": {"maxWait": "10s"}"#)
        ])
        let answers = Mutex([answer(429, [("Retry-After", "600")]), page([1])])
        harness.transport.respond { _ in answers.withLock { $0.removeFirst() } }
        let engine = harness.start()
        // Ended rateLimited at once: idle (never failed), next poll at the reset.
        await harness.until { $0["users"]?.nextSyncAt == EngineHarness.date(600) }
        #expect(harness.status("users").state == .idle)
        #expect(harness.status("users").lastError?.status == 429)
        #expect(try await harness.store.runs(of: "users", limit: 1).map(\.outcome) == [.rateLimited])
        await harness.advance(by: 599)
        #expect(harness.requestTimes() == [0])
        await harness.advance(by: 1)
        await harness.until { $0["users"]?.items == 1 }
        #expect(harness.requestTimes() == [0, 600])
        engine.cancel()
        await engine.value
    }

    @Test func aBudgetSpacesTheRequestsOfEveryResourceOfItsScope() async throws {
        // Two resources on one host, 1 request a second between them, a burst of 1.
        let budget = #""rateLimit": {"requests": 1, "per": "1s", "burst": 1}, "interval": "1h""#
        let harness = try EngineHarness(resources: [scriptedResource("a", budget), scriptedResource("b", budget)])
        harness.transport.respond { _ in page([1]) }
        let engine = harness.start()
        await harness.untilRequests(1)
        await harness.advance(by: 1)
        await harness.until { $0["a"]?.items == 1 && $0["b"]?.items == 1 }
        #expect(harness.requestTimes() == [0, 1])
        engine.cancel()
        await engine.value
    }

    @Test func anUnrecoverableAnswerFailsAtOnceWithoutRetrying() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users")])
        harness.transport.respond { _ in ScriptedTransport.json(#"{"message": "no such thing"}"#, status: 404) }
        let engine = harness.start()
        await harness.until { $0["users"]?.state == .failed }
        await harness.advance(by: 3600)
        #expect(harness.requestTimes() == [0])
        #expect(harness.status("users").lastError?.kind == .unrecoverable)
        engine.cancel()
        await engine.value
    }

    @Test func offlinePausesPollsUntilAProbeAnswers() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users"), scriptedResource("orders")])
        harness.transport.respond { _ in page([1]) }
        let engine = harness.start()
        await harness.until { $0.values.allSatisfy { $0.lastSuccessAt != nil } }
        await harness.advance(by: 10)

        // The kernel drops the default route: offline, probing with backoff.
        harness.probe.reaches = false
        harness.monitor.handle(.routesChanged(hasDefaultRoute: false), reason: "the default route is gone")
        await harness.until { $0.values.allSatisfy { $0.state == .offline } }
        #expect(harness.status("users").message == "offline: waiting for the network to come back")
        // Probes at 10, 11, 13, 17, 25, 41, 71 s; the polls due at 60 s wait.
        await harness.advance(to: 100)
        #expect(harness.probe.count == 7)
        #expect(harness.requestTimes().count == 2)
        // Paused before a sync even starts, not just held at the request.
        #expect(harness.status("users").lastAttemptAt == EngineHarness.date(0))

        // Back: the next probe (101 s) answers and the overdue polls run at once.
        harness.probe.reaches = true
        await harness.advance(to: 101)
        await harness.untilRequests(4)
        #expect(harness.requestTimes().suffix(2) == [101, 101])
        await harness.until {
            $0.values.allSatisfy { $0.state == .idle && $0.lastSuccessAt == EngineHarness.date(101) }
        }
        engine.cancel()
        await engine.value
    }

    @Test func aRequestThatFindsTheNetworkGoneWaitsWithoutUsingAnAttempt() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource("users", #""retry": {"maxAttempts": 1, "jitter": 0}"#)
        ])
        let calls = Atomic<Int>(0)
        harness.transport.respond { _ in
            if calls.add(1, ordering: .relaxed).newValue == 1 { throw ScriptedTransport.unreachable }
            return page([1])
        }
        harness.probe.reaches = false
        let engine = harness.start()
        await harness.until { $0["users"]?.state == .offline }
        // Probes at 1, 3 and 7 s fail; nothing is sent meanwhile.
        await harness.advance(to: 10)
        #expect(harness.probe.count == 3)
        #expect(harness.requestTimes() == [0])
        harness.probe.reaches = true
        await harness.advance(to: 15)
        await harness.untilRequests(2)
        // One attempt allowed, and the sync still succeeds: the offline failure did not count.
        await harness.until { $0["users"]?.state == .idle && $0["users"]?.lastSuccessAt != nil }
        let second = try #require(harness.requestTimes().last)
        #expect((15...17).contains(second))
        let runs = try await harness.store.runs(of: "users", limit: 10)
        #expect(runs.map(\.outcome) == [.success])
        engine.cancel()
        await engine.value
    }

    @Test func aRefreshWhileOfflineAnswersOfflineAtOnce() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users")])
        harness.transport.respond { _ in page([1]) }
        let engine = harness.start()
        await harness.until { $0["users"]?.lastSuccessAt != nil }
        harness.probe.reaches = false
        harness.monitor.handle(.routesChanged(hasDefaultRoute: false), reason: "the default route is gone")
        await harness.until { $0["users"]?.state == .offline }
        let result = try #require(await harness.engine.refresh("users"))
        #expect(result.outcome == .offline)
        #expect(result.error?.message.contains("offline") == true)
        #expect(harness.requestTimes() == [0])
        engine.cancel()
        await engine.value
    }

    @Test func aSlowSyncIsFlaggedAfterSlowAfterAndWarnedOnce() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users", #""slowAfter": "5s""#)])
        let clock = harness.clock
        harness.transport.respond { _ in
            try await clock.sleep(for: .seconds(20))
            return page([1])
        }
        let engine = harness.start()
        await harness.untilRequests(1)
        await harness.advance(by: 4.9)
        #expect(!harness.status("users").slow)
        await harness.advance(by: 0.1)
        await harness.until { $0["users"]?.slow == true }
        #expect(harness.status("users").message == "taking longer than expected")
        await harness.advance(by: 15)
        await harness.until { $0["users"]?.state == .idle }
        #expect(!harness.status("users").slow)
        #expect(harness.status("users").message == nil)
        let warnings = harness.logs.messages.filter { $0.message == "taking longer than expected" }
        #expect(warnings.map(\.level) == [.warning])
        engine.cancel()
        await engine.value
    }

    @Test func refreshesDuringASyncJoinItAndShareItsResult() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users")])
        let clock = harness.clock
        harness.transport.respond { _ in
            try await clock.sleep(for: .seconds(10))
            return page([1, 2, 3])
        }
        let engine = harness.start()
        await harness.untilRequests(1)
        let refreshes = (0..<5).map { _ in
            Task.inheritingExecutor { await harness.engine.refresh("users") }
        }
        await harness.advance(by: 10)
        var results: [SyncResult] = []
        for refresh in refreshes { results.append(try #require(await refresh.value)) }
        #expect(results.map(\.outcome) == Array(repeating: .success, count: 5))
        #expect(results.allSatisfy { $0.joined && $0.counts.items == 3 })
        #expect(harness.engine.metrics.counts.joined["users"] == 5)
        #expect(harness.requestTimes() == [0])
        let runs = try await harness.store.runs(of: "users", limit: 10)
        #expect(runs.count == 1)
        engine.cancel()
        await engine.value
    }

    @Test func aRefreshHearsItsSyncsRetrySlownessPagesAndEndInOrderAndMetricsCountThem() async throws {
        let harness = try EngineHarness(
            defaults: #""slowAfter": "5s", "retry": {"initialDelay": "1s", "jitter": 0}"#,
            resources: [scriptedResource("users")])
        let clock = harness.clock
        let answered = Mutex(0)
        harness.transport.respond { _ in
            let first = answered.withLock { count in
                defer { count += 1 }
                return count == 0
            }
            if first { return ScriptedTransport.json(#"{"message": "busy"}"#, status: 503) }
            try await clock.sleep(for: .seconds(10))
            return page([1, 2])
        }
        let heard = Mutex<[SyncActivity]>([])
        // The refresh starts the sync. (The engine's startup poll joins it or, when its task
        // wakes after the sync ended, finds nothing due: the joined count is not checked
        // here but in refreshesDuringASyncJoinItAndShareItsResult.)
        let refresh = Task.inheritingExecutor {
            await harness.engine.refresh("users") { report in heard.withLock { $0.append(report) } }
        }
        let engine = harness.start()
        await harness.untilRequests(1)
        await harness.advance(by: 1)
        await harness.untilRequests(2)
        await harness.advance(by: 10)
        let result = try #require(await refresh.value)
        #expect(result.outcome == .success)
        #expect(!result.joined)
        let reports = heard.withLock { $0 }
        #expect(reports.map(\.eventName) == ["retry", "slow", "progress", "result"])
        guard case .retry(_, let notice) = reports.first else { return }
        #expect(notice.attempt == 2)
        #expect(notice.delay == .seconds(1))
        #expect(reports[2] == .progress(SyncProgress(resource: "users", pages: 1, items: 2, attempts: 2)))

        await harness.until { $0["users"]?.state == .idle }
        let counts = harness.engine.metrics.counts
        #expect(counts.syncs["users"]?[.success] == 1)
        #expect(counts.requests["users"] == ["200": 1, "503": 1])
        #expect(counts.inFlight["users"] == 0)
        let durations = try #require(counts.durations["users"])
        let bucket = { (bound: Double) in durations.counts[AgentMetrics.durationBuckets.firstIndex(of: bound)!] }
        #expect(bucket(10) == 0)
        #expect(bucket(30) == 1)
        #expect(durations.count == 1)
        #expect(durations.sum == 11)
        #expect(harness.status("users").items == 2)
        engine.cancel()
        await engine.value
    }

    @Test func aRequestSlowerThanItsTimeoutIsRetriedOnTheEnginesClock() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource(
                "users",
                #""timeout": "5s", "slowAfter": "1m", "retry": {"maxAttempts": 2, "initialDelay": "1s", "jitter": 0}"#)
        ])
        let clock = harness.clock
        let calls = Mutex(0)
        harness.transport.respond { _ in
            let first = calls.withLock { calls in
                defer { calls += 1 }
                return calls == 0
            }
            if first { try await clock.sleep(for: .seconds(60)) }
            return page([1])
        }
        let engine = harness.start()
        await harness.untilRequests(1)
        await harness.advance(by: 5)
        await harness.until { $0["users"]?.state == .retrying }
        #expect(
            harness.status("users").message
                == "retrying GET http://upstream.test/users in 1s (attempt 2 of 2): no complete answer within 5s")
        await harness.advance(by: 1)
        await harness.until { $0["users"]?.state == .idle }
        #expect(harness.requestTimes() == [0, 6])
        #expect(harness.status("users").items == 1)
        engine.cancel()
        await engine.value
    }

    @Test func aWatcherThatCallsBackIntoTheEngineDoesNotDeadlock() async throws {
        let harness = try EngineHarness(resources: [scriptedResource("users")])
        harness.transport.respond { _ in page([1, 2]) }
        let engine = harness.engine
        let seen = Mutex<[String]>([])
        // The watcher reads the engine's state and causes an event of its
        // own from inside its callback: both wait for no lock of the engine.
        let result = await engine.refresh("users") { report in
            let state = engine.status(of: "users")?.state.rawValue ?? "?"
            let count = engine.statuses().count
            engine.publication.handle("users", .scheduled(EngineHarness.date(60)))
            seen.withLock { $0.append("\(report.eventName) \(state) \(count)") }
        }
        #expect(result?.outcome == .success)
        #expect(seen.withLock { $0 } == ["progress syncing 1", "result idle 1"])
        #expect(harness.status("users").nextSyncAt == EngineHarness.date(60))
    }

    @Test func aDependentResourceSwitchesToTheLatestRecord() async throws {
        let harness = try EngineHarness(resources: [
            scriptedResource("user"),
            // Its pages take 30 s: its timeout (on the engine's clock) is longer.
            #"{"name": "group", "url": "http://upstream.test/groups/{user:/group}", "items": "/items", "key": "/id", "timeout": "1m"}"#,
        ])
        let clock = harness.clock
        let group = Mutex(7)
        harness.transport.respond { spec in
            if spec.url.hasSuffix("/user") {
                let id = group.withLock { $0 }
                return ScriptedTransport.json(#"{"items": [{"id": 1, "group": \#(id)}]}"#)
            }
            try await clock.sleep(for: .seconds(30))
            let id = spec.url.split(separator: "/").last!
            return ScriptedTransport.json(#"{"items": [{"id": \#(id)}]}"#)
        }
        let engine = harness.start()
        await harness.untilRequests(1, "/groups/7")
        await harness.advance(by: 5)

        // The user moves to group 8 while group 7 is still loading.
        group.withLock { $0 = 8 }
        let user = try #require(await harness.engine.refresh("user"))
        #expect(user.outcome == .success)
        await harness.untilRequests(1, "/groups/8")
        #expect(harness.requestTimes("/groups/8") == [5])
        await harness.advance(by: 30)
        await harness.until { $0["group"]?.lastSuccessAt == EngineHarness.date(35) }

        // Group 7's answer never landed: the stale sync was cancelled.
        let records = try await harness.store.records(of: "group")
        #expect(records.map(\.key) == ["8"])
        #expect(harness.requestTimes("/groups/7").allSatisfy { $0 == 0 })
        // The cancelled sync is recorded off the virtual clock: wait for its row.
        var runs = try await harness.store.runs(of: "group", limit: 10)
        while !runs.contains(where: { $0.outcome == .cancelled }) {
            await Task.yield()
            runs = try await harness.store.runs(of: "group", limit: 10)
        }
        #expect(runs.first { $0.outcome == .success }?.trigger == .dependency)
        engine.cancel()
        await engine.value
    }
}

@Suite struct FirstRunTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func resource() throws -> ResourceConfig {
        let text =
            #"{"resources": [{"name": "r", "url": "https://api.example.com/r", "key": "/id", "interval": "10m"}]}"#
        return try ConfigLoader.decode(Array(text.utf8), file: "/etc/sync-agent/config.json", environment: [:])
            .resources[0]
    }

    @Test func theFirstSyncComesAnIntervalAfterTheLastSuccessAtMost() throws {
        let resource = try resource()
        let first = { SyncScheduler<ContinuousClock>.firstRunAfter(resource, lastSuccessAt: $0, now: now) }
        #expect(first(nil) == .zero)
        #expect(first(now.addingTimeInterval(-3600)) == .zero)
        #expect(first(now.addingTimeInterval(-240)) == .seconds(360))
        // A last success in the future (the clock was ahead, then put right) counts as now.
        #expect(first(now.addingTimeInterval(86_400 * 30)) == .seconds(600))
    }
}
