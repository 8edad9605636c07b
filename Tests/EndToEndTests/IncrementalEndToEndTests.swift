import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Incremental resources through the real binary (docs/configuration.md#incremental-resources):
/// only what changed is asked for, merged by key, deletions applied, each page
/// a checkpoint, and a full sync now and then for hard deletions.
@Suite(.serialized, .timeLimit(.minutes(3))) struct IncrementalEndToEndTests {
    /// The change feed as `op key` lines, after `seq`.
    func feed(_ workspace: Workspace, after seq: Int = 0) throws -> [String] {
        try workspace.query("SELECT op, key FROM changes WHERE seq > \(seq) ORDER BY seq").map {
            $0.joined(separator: " ")
        }
    }

    func lastSeq(_ workspace: Workspace) throws -> Int {
        Int(try workspace.value("SELECT coalesce(max(seq), 0) FROM changes") ?? "") ?? 0
    }

    /// The runs `history --json` shows, newest first: each as its JSON object.
    func history(_ workspace: Workspace) async throws -> [[String: Any]] {
        let shown = try await workspace.run(["history", "--json"])
        try #require(shown.status == 0, "\(shown.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(shown.stdout.utf8)) as? [String: Any]
        return json?["runs"] as? [[String: Any]] ?? []
    }

    /// The message of a run whose process stopped before the sync ended (docs/schema.md#running-finished-and-cut-off-rows).
    static let cutOff =
        "items: the sync was cut off: its process stopped before the sync ended; the next sync goes on from what "
        + "it committed"

    @Test func aZendeskStyleExportAsksFromTheLastEndTimeAndMergesDuplicatesAndDeletions() async throws {
        let upstream = try await TestUpstream.start(collections: ["tickets": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "tickets", "url": "\#(upstream.baseURL)/api/v2/incremental/tickets.json", "query": {"per_page": "100"},
             "items": "/tickets", "key": "/id",
             "pagination": {"style": "nextUrl", "next": "/next_page", "stopWhen": {"pointer": "/end_of_stream", "equals": true}},
             "mode": "incremental", "since": {"fromBody": "/end_time", "param": "start_time", "format": "unixSeconds"},
             "deleted": {"pointer": "/status", "equals": "deleted"}}
            """#
        ])
        let first = try await workspace.run(["refresh", "--json"])
        #expect(first.status == 0, "\(first.stdout) \(first.stderr)")
        // Pages of 100 from start_time=0; each next page starts at the last one's end_time, so
        // its first item is the previous page's last again: merged, not an error.
        let asked = upstream.requests.filter { $0.path.hasPrefix("/api/") }.map(\.query)
        #expect(asked.count == 3, "\(asked)")
        #expect(asked.first?.contains("start_time=0") == true, "\(asked)")
        #expect(try workspace.records("tickets").count == 250)
        #expect(try feed(workspace).count == 250)
        #expect(try feed(workspace).allSatisfy { $0.hasPrefix("insert ") })
        let endTime = 1_767_225_600 + 250
        #expect(try workspace.value("SELECT since FROM resources WHERE name = 'tickets'") == "2026-01-01T00:04:10.000Z")

        upstream.clearRequests()
        upstream.changeItems("tickets", ids: [3, 77])
        upstream.removeItems("tickets", ids: [200])
        let second = try await workspace.run(["refresh", "--json"])
        #expect(second.status == 0, "\(second.stdout) \(second.stderr)")
        let again = upstream.requests.filter { $0.path.hasPrefix("/api/") }.map(\.query)
        #expect(again.count == 1, "\(again)")
        #expect(again.first?.contains("start_time=\(endTime)") == true, "\(again)")
        #expect(try feed(workspace, after: 250) == ["update 3", "update 77", "delete 200"])
        let records = try workspace.records("tickets")
        #expect(records.count == 249)
        #expect(records["3"]?.contains(#""revision":2"#) == true)
        // The next sync asks from the end_time of the last page: the tombstone's time.
        let status = try await workspace.run(["status", "tickets", "--json"])
        #expect(status.stdout.contains(#""since": "2026-01-12T13:46:42.000Z""#), "\(status.stdout)")
        let history = try workspace.query(
            "SELECT outcome, added, changed, removed, since FROM sync_runs WHERE resource = 'tickets' ORDER BY id")
        #expect(history.map { $0.prefix(4).joined(separator: " ") } == ["success 250 0 0", "success 0 2 1"])
        #expect(history.last?.last?.isEmpty == false)
    }

    @Test func anUpdatedSinceAPIWithTombstonesResumesAfterTheLastCheckpointWhenKilled() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 1000])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "items", "url": "\#(upstream.baseURL)/incremental/items", "items": "/data", "key": "/id",
             "pagination": {"style": "page", "size": 50}, "maxPages": 12,
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since", "lookback": "1s"},
             "deleted": {"pointer": "/deleted"}}
            """#
        ])
        // Page 11 never answers: the refresh is killed while it waits, once page 10 is
        // committed (page 11 is asked for while page 10 is still being applied).
        upstream.inject(Fault(path: "/incremental/items", query: "page=11&", delay: .seconds(120)))
        let killed = try workspace.start(["refresh"])
        #expect(
            try await eventually(timeout: .seconds(60)) {
                upstream.requests.contains { $0.path == "/incremental/items" && $0.query.contains("page=11&") }
                    && (try? workspace.value("SELECT walk_pages FROM cursors WHERE resource = 'items'")) == "10"
            })
        killed.send(SIGKILL)
        _ = try await killed.finish()
        // Ten pages were committed, each with its changes and the walk's next page.
        #expect(try workspace.records("items").count == 500)
        #expect(try feed(workspace).count == 500)
        #expect(try workspace.value("SELECT walk_pages FROM cursors WHERE resource = 'items'") == "10")
        // Its row is running still: nothing has found it cut off yet.
        let left = try #require(try await history(workspace).first)
        #expect(left["outcome"] is NSNull && left["finishedAt"] is NSNull, "\(left)")

        upstream.clearFaults()
        upstream.clearRequests()
        let resumed = try await workspace.run(["refresh", "--json"])
        #expect(resumed.status == 0, "\(resumed.stdout) \(resumed.stderr)")
        // The sync that went on has a row of its own; the one cut off says so.
        let runs = try await history(workspace)
        #expect(runs.map { $0["outcome"] as? String } == ["success", "cancelled"], "\(runs)")
        #expect(runs.last?["id"] as? Int == left["id"] as? Int)
        #expect((runs.last?["error"] as? [String: Any])?["message"] as? String == Self.cutOff, "\(runs)")
        let pages = upstream.requests.filter { $0.path == "/incremental/items" }.map { Routes.parameters($0.query) }
        // It went on from its first page, asking from the largest updated_at it committed (item
        // 500's) less the lookback (docs/configuration.md#how-a-walk-cut-off-goes-on): the 502
        // items left, in 11 pages, skipping none.
        #expect(pages.first?["page"] == "1", "\(pages)")
        #expect(pages.allSatisfy { $0["updated_since"] == "2026-01-01T00:08:19Z" }, "\(pages)")
        #expect(pages.count == 11, "\(pages)")
        #expect(try workspace.records("items").count == 1000)
        #expect(try feed(workspace).count == 1000)
        #expect(try workspace.value("SELECT count(*) FROM cursors WHERE walk IS NOT NULL") == "0")

        // Then only what changed: two changes and a tombstone, asked with the largest
        // updated_at seen less the lookback.
        let seq = try lastSeq(workspace)
        upstream.clearRequests()
        upstream.changeItems("items", ids: [10, 990])
        upstream.removeItems("items", ids: [500])
        let third = try await workspace.run(["refresh", "--json"])
        #expect(third.status == 0, "\(third.stdout) \(third.stderr)")
        let asked = upstream.requests.filter { $0.path == "/incremental/items" }.map(\.query)
        #expect(asked.count == 1, "\(asked)")
        #expect(
            asked.first?.removingPercentEncoding?.contains("updated_since=2026-01-01T00:16:39Z") == true, "\(asked)")
        #expect(try feed(workspace, after: seq) == ["update 10", "update 990", "delete 500"])
        #expect(try workspace.records("items").count == 999)
    }

    @Test func aRunningSyncShowsRunningAndTheAgentStartingAfterItWasKilledMarksItCutOff() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "items", "url": "\#(upstream.baseURL)/incremental/items", "items": "/data", "key": "/id",
             "pagination": {"style": "page", "size": 50}, "interval": "1h",
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"}}
            """#
        ])
        // The agent's first sync commits page 1, then waits on page 2.
        upstream.inject(Fault(path: "/incremental/items", query: "page=2&", delay: .seconds(120)))
        let agent = try await RunningAgent.start(in: workspace)
        #expect(
            try await eventually(timeout: .seconds(60)) {
                upstream.requests.contains { $0.path == "/incremental/items" && $0.query.contains("page=2&") }
                    && (try? workspace.value("SELECT walk_pages FROM cursors WHERE resource = 'items'")) == "1"
            })
        // While it runs, history shows it running: no outcome, no end, no duration.
        let running = try #require(try await history(workspace).first)
        #expect(running["outcome"] is NSNull, "\(running)")
        #expect(running["finishedAt"] is NSNull && running["durationMs"] is NSNull, "\(running)")
        #expect(running["error"] is NSNull && running["startedAt"] is String, "\(running)")
        #expect((running["changes"] as? [String: Any])?["added"] as? Int == 50, "\(running)")
        let table = try await workspace.run(["history", "items"])
        let row = table.stdout.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(row.contains(" running ") && row.contains(" - ") && !row.contains(" ms "), "\(table.stdout)")

        agent.process.send(SIGKILL)
        _ = try await agent.process.finish()
        #expect(try workspace.records("items").count == 50)
        #expect(try await history(workspace).first?["outcome"] is NSNull)

        // Started again: the row is found cut off, and the sync goes on from item 50's updated_at.
        upstream.clearFaults()
        upstream.clearRequests()
        let restarted = try await RunningAgent.start(in: workspace)
        #expect(
            try await eventually(timeout: .seconds(30)) {
                try workspace.value("SELECT count(*) FROM sync_runs WHERE outcome = 'success'") == "1"
            })
        #expect(try workspace.records("items").count == 150)
        let runs = try await history(workspace)
        #expect(runs.map { $0["outcome"] as? String } == ["success", "cancelled"], "\(runs)")
        let cut = try #require(runs.last)
        #expect(cut["id"] as? Int == running["id"] as? Int)
        #expect(cut["outcome"] as? String == "cancelled" && cut["finishedAt"] is String, "\(cut)")
        #expect(cut["durationMs"] is Int, "\(cut)")
        #expect((cut["error"] as? [String: Any])?["message"] as? String == Self.cutOff, "\(cut)")
        #expect((cut["changes"] as? [String: Any])?["added"] as? Int == 50, "\(cut)")
        #expect((runs.first?["changes"] as? [String: Any])?["added"] as? Int == 100, "\(runs)")
        let asked = upstream.requests.filter { $0.path == "/incremental/items" }.map { Routes.parameters($0.query) }
        #expect(asked.first?["page"] == "1" && asked.first?["updated_since"] == "2026-01-01T00:00:50Z", "\(asked)")
        let stopped = try await restarted.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        // The agent found it as it started, before any sync.
        #expect(stopped.stderr.contains("a sync was cut off when its process stopped"), "\(stopped.stderr)")
    }

    @Test func aFullSyncEveryPeriodFindsHardDeletions() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 120])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "items", "url": "\#(upstream.baseURL)/incremental/items", "items": "/data", "key": "/id",
             "pagination": {"style": "page", "size": 50},
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"},
             "deleted": {"pointer": "/deleted"}, "fullResyncEvery": "1s"}
            """#
        ])
        #expect(try await workspace.run(["refresh"]).status == 0)
        let seq = try lastSeq(workspace)
        // Gone without a tombstone: an incremental sync cannot see it.
        upstream.setCollection("items", count: 115)
        try await Task.sleep(for: .milliseconds(1100))
        let full = try await workspace.run(["refresh", "--json"])
        #expect(full.status == 0, "\(full.stdout) \(full.stderr)")
        #expect(
            try feed(workspace, after: seq) == ["delete 116", "delete 117", "delete 118", "delete 119", "delete 120"])
        #expect(try workspace.records("items").count == 115)
        // The next sync is incremental again, from the largest updated_at the full one saw.
        upstream.clearRequests()
        #expect(try await workspace.run(["refresh"]).status == 0)
        let asked = upstream.requests.filter { $0.path == "/incremental/items" }.map(\.query)
        #expect(asked.first?.contains("updated_since=") == true, "\(asked)")
    }

    @Test func aDependentResourceKeepsItsOwnValuePerParentValue() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 60, "groups": 3])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"{"name": "me", "url": "\#(upstream.baseURL)/one/groups/2", "key": "/id"}"#,
            #"""
            {"name": "members", "url": "\#(upstream.baseURL)/incremental/items?group={me:/revision}", "items": "/data",
             "key": "/id", "pagination": {"style": "page", "size": 50},
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"}}
            """#,
        ])
        #expect(try await workspace.run(["refresh", "me"]).status == 0)
        #expect(try await workspace.run(["refresh", "members"]).status == 0)
        upstream.clearRequests()
        #expect(try await workspace.run(["refresh", "members"]).status == 0)
        // The same group: from its own value.
        let again = upstream.requests.filter { $0.path == "/incremental/items" }.map(\.query)
        #expect(
            again.first?.removingPercentEncoding?.contains("updated_since=2026-01-01T00:01:00Z") == true, "\(again)")
        // Another group: from the initial value, with a cursor of its own.
        upstream.changeItems("groups", ids: [2])
        #expect(try await workspace.run(["refresh", "me"]).status == 0)
        upstream.clearRequests()
        #expect(try await workspace.run(["refresh", "members"]).status == 0)
        let other = upstream.requests.filter { $0.path == "/incremental/items" }.map(\.query)
        #expect(
            other.first?.removingPercentEncoding?.contains("updated_since=1970-01-01T00:00:00Z") == true, "\(other)")
        #expect(
            try workspace.query("SELECT scope FROM cursors WHERE resource = 'members' ORDER BY scope").map(\.[0])
                == ["me/revision=1", "me/revision=2"])
    }

    @Test func aFullSyncOfAZendeskExportMergesPageEdgesAndAChangedRequestReplacesTheRecords() async throws {
        let upstream = try await TestUpstream.start(collections: ["tickets": 230])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        func config(query: String) throws {
            try workspace.writeConfig(resources: [
                #"""
                {"name": "tickets", "url": "\#(upstream.baseURL)/api/v2/incremental/tickets.json", "query": {\#(query)},
                 "items": "/tickets", "key": "/id",
                 "pagination": {"style": "nextUrl", "next": "/next_page", "stopWhen": {"pointer": "/end_of_stream", "equals": true}},
                 "mode": "incremental", "since": {"fromBody": "/end_time", "param": "start_time", "format": "unixSeconds"},
                 "deleted": {"pointer": "/status", "equals": "deleted"}, "fullResyncEvery": "1s"}
                """#
            ])
        }
        try config(query: #""per_page": "100""#)
        #expect(try await workspace.run(["refresh"]).status == 0)
        let seq = Int(try workspace.value("SELECT max(seq) FROM changes") ?? "") ?? 0
        // A ticket gone without a tombstone, and one deleted with one, then a full export:
        // the ticket at each page edge comes twice, which a full sync merges too.
        upstream.setCollection("tickets", count: 229)
        upstream.removeItems("tickets", ids: [5])
        try await Task.sleep(for: .milliseconds(1100))
        let full = try await workspace.run(["refresh", "--json"])
        #expect(full.status == 0, "\(full.stdout) \(full.stderr)")
        #expect(try feed(workspace, after: seq) == ["delete 230", "delete 5"])
        #expect(try workspace.records("tickets").count == 228)

        // Another request: a full sync at once, from the initial value.
        let before = try lastSeq(workspace)
        upstream.setCollection("tickets", count: 200)
        try config(query: #""per_page": "50""#)
        upstream.clearRequests()
        #expect(try await workspace.run(["refresh"]).status == 0)
        let asked = upstream.requests.filter { $0.path.hasPrefix("/api/") }.map(\.query)
        #expect(asked.first?.contains("start_time=0") == true, "\(asked)")
        #expect(try workspace.records("tickets").count == 199)
        #expect(try feed(workspace, after: before) == (201...229).map { "delete \($0)" })
    }
}
