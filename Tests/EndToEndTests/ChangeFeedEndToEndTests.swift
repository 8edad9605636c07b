import Foundation
import TestUpstream
import Testing

/// The change feed through the real binary: the agent writes a change per
/// record each sync inserts, updates or deletes; readers follow it with
/// `sync-agent changes --follow`, `GET /v1/changes` and the `changes` event
/// (docs/api.md#the-change-feed-get-v1changes).
@Suite(.serialized, .timeLimit(.minutes(3))) struct ChangeFeedEndToEndTests {
    /// A change as the feed tells it.
    struct Change: Hashable {
        var seq: Int
        var key: String
        var op: String
        var syncRun: Int
    }

    static func changes(_ objects: [Any]) -> [Change] {
        objects.compactMap { object in
            guard let change = object as? [String: Any], let seq = change["seq"] as? Int,
                let key = change["key"] as? String, let op = change["op"] as? String,
                let run = change["syncRun"] as? Int
            else { return nil }
            return Change(seq: seq, key: key, op: op, syncRun: run)
        }
    }

    @Test func aReaderFollowingTheFeedAcrossAHundredSyncsSeesEveryChangeOnceInOrder() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 40])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [upstream.resource("items", style: "all", extra: #""interval": "1h""#)])
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { (try? workspace.value("SELECT count(*) FROM records")) == "40" })
        let follower = try workspace.start(["changes", "--after", "0", "--follow", "--json"])
        defer { follower.send(SIGKILL) }

        // The event stream, open while the first round syncs.
        let events = Task { agent.curl("GET", "/v1/events", maxTime: 3) }
        try await Task.sleep(for: .milliseconds(500))
        var expected = 40
        var size = 40
        for round in 1...100 {
            upstream.changeItems("items", ids: [round % size + 1, (round * 7) % size + 1])
            if round % 10 == 0 { upstream.removeItems("items", ids: [round / 10 + 1]) }
            if round % 9 == 0 {
                size += 1
                upstream.setCollection("items", count: size)
            }
            let result = agent.curl("POST", "/v1/resources/items/refresh").json
            let counts = result["changes"] as? [String: Int] ?? [:]
            #expect(result["outcome"] as? String == "success", "\(result)")
            expected += counts.values.reduce(0, +)
        }
        let stream = await events.value.body
        #expect(stream.contains("event: changes"), "\(stream)")

        // The follower printed each change once, in seq order, with no gap.
        var followed: [Change] = []
        #expect(
            try await eventually(timeout: .seconds(30)) {
                followed = Self.changes(
                    follower.stdoutSoFar.split(separator: "\n").compactMap {
                        try? JSONSerialization.jsonObject(with: Data($0.utf8))
                    })
                return followed.count >= expected
            }, "followed \(followed.count) of \(expected): \(follower.stderrSoFar)")
        #expect(followed.map(\.seq) == Array(1...expected))

        // The API pages through the same feed.
        var paged: [Change] = []
        var next = 0
        while true {
            let page = agent.curl("GET", "/v1/changes?resource=items&after=\(next)&limit=37").json
            let changes = Self.changes(page["changes"] as? [Any] ?? [])
            #expect(page["missed"] as? Bool == false)
            if changes.isEmpty { break }
            paged += changes
            next = page["next"] as? Int ?? 0
        }
        #expect(paged == followed)

        // Played back, the feed gives the records the table holds: nothing in
        // one that is not in the other.
        var keys: Set<String> = []
        for change in followed {
            switch change.op {
            case "insert": #expect(keys.insert(change.key).inserted, "\(change)")
            case "update": #expect(keys.contains(change.key), "\(change)")
            default: #expect(keys.remove(change.key) != nil, "\(change)")
            }
        }
        #expect(keys == Set(try workspace.records("items").keys))
        // Each run's counts are its changes.
        for row in try workspace.query("SELECT id, added, changed, removed FROM sync_runs WHERE outcome = 'success'") {
            let ops = followed.filter { $0.syncRun == Int(row[0]) }.map(\.op)
            #expect(
                [ops.count { $0 == "insert" }, ops.count { $0 == "update" }, ops.count { $0 == "delete" }]
                    == row.dropFirst().compactMap { Int($0) }, "run \(row)")
        }
        _ = try await agent.stop()

        // Without the agent, the command reads the database.
        let table = try await workspace.run(["changes", "items", "--after", String(expected - 2)])
        #expect(table.status == 0, "\(table.stderr)")
        #expect(table.stdout.hasPrefix("SEQ"), "\(table.stdout)")
        #expect(table.stdout.split(separator: "\n").count == 3, "\(table.stdout)")
        let json = try await workspace.run(["changes", "--limit", "5", "--json"])
        let answer = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect(Self.changes(answer?["changes"] as? [Any] ?? []).map(\.seq) == Array(expected - 4...expected))
        #expect(answer?["next"] as? Int == expected)
    }
}
