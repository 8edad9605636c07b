import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Deletions however the API says them (docs/configuration.md#deletions), through the
/// real binary: tombstones a list includes are no records of a snapshot, and an
/// incremental resource deletes records told by one of several values, by the mere
/// presence of a member, or by a key at a pointer of the deletion's own.
@Suite(.timeLimit(.minutes(3))) struct DeletionsEndToEndTests {
    /// The change feed as `op key` lines, after `seq`.
    func feed(_ workspace: Workspace, after seq: Int = 0) throws -> [String] {
        try workspace.query("SELECT op, key FROM changes WHERE seq > \(seq) ORDER BY seq").map {
            $0.joined(separator: " ")
        }
    }

    func lastSeq(_ workspace: Workspace) throws -> Int {
        Int(try workspace.value("SELECT coalesce(max(seq), 0) FROM changes") ?? "") ?? 0
    }

    @Test func aSnapshotLeavesOutTheTombstonesItsListIncludes() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 20])
        defer { Task { await upstream.stop() } }
        // Listed oldest change first: 11…20, then the tombstones of 1…5 (a whole page of
        // them), then 6…10, changed after.
        upstream.removeItems("items", ids: [1, 2, 3, 4, 5])
        upstream.changeItems("items", ids: [6, 7, 8, 9, 10])
        let workspace = try Workspace()
        func resource(_ name: String, _ extra: String) -> String {
            #"""
            {"name": "\#(name)", "url": "\#(upstream.baseURL)/incremental/items", "items": "/data", "key": "/id",
             "pagination": {"style": "page", "size": 5}\#(extra)}
            """#
        }
        try workspace.writeConfig(resources: [
            resource("items", #", "deleted": {"pointer": "/deleted"}"#),
            // The same list without the rule: its tombstones are records.
            resource("everything", ""),
        ])

        let first = try await workspace.run(["refresh", "--json"])

        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        let records = try workspace.records("items")
        // The page of tombstones is a full page: the walk goes on past it.
        #expect(Set(records.keys) == Set((6...20).map(String.init)), "\(records.keys.sorted())")
        #expect(records.values.allSatisfy { !$0.contains(#""deleted":true"#) })
        #expect(try workspace.records("everything").count == 20)

        // An item removed since: the next snapshot lists its tombstone, and its record goes.
        let seq = try lastSeq(workspace)
        upstream.removeItems("items", ids: [20])
        let second = try await workspace.run(["refresh", "items", "--json"])
        #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
        #expect(Set(try workspace.records("items").keys) == Set((6...19).map(String.init)))
        #expect(try feed(workspace, after: seq) == ["delete 20"])
    }

    @Test func anIncrementalResourceDeletesOnAnyOfSeveralValues() async throws {
        let upstream = try await TestUpstream.start(collections: ["tickets": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "tickets", "url": "\#(upstream.baseURL)/incremental/tickets", "items": "/data", "key": "/id",
             "pagination": {"style": "page", "size": 10},
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"},
             "deleted": {"pointer": "/status", "equals": ["removed", "deleted"]}}
            """#
        ])
        #expect(try await workspace.run(["refresh"]).status == 0)
        #expect(try workspace.records("tickets").count == 30)
        let seq = try lastSeq(workspace)

        upstream.changeItems("tickets", ids: [4])
        upstream.removeItems("tickets", ids: [12, 25])
        let second = try await workspace.run(["refresh", "--json"])

        #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
        // The tombstones say "status": "deleted", the second value of the list.
        #expect(try feed(workspace, after: seq) == ["update 4", "delete 12", "delete 25"])
        #expect(try workspace.records("tickets").count == 28)
    }

    @Test func anIncrementalResourceDeletesOnAMembersPresenceOrAtTheDeletionsOwnKey() async throws {
        let upstream = try await TestUpstream.start(collections: ["users": 30, "events": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        func resource(_ name: String, tombstones: String, deleted: String) -> String {
            #"""
            {"name": "\#(name)", "url": "\#(upstream.baseURL)/feed/\#(name)", "query": {"tombstones": "\#(tombstones)"},
             "items": "/value", "key": "/id", "pagination": {"style": "page", "size": 10},
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"},
             "deleted": \#(deleted)}
            """#
        }
        try workspace.writeConfig(resources: [
            // Microsoft Graph's delta: {"id": 7, "@removed": {"reason": "deleted"}}.
            resource("users", tombstones: "removed", deleted: #"{"pointer": "/@removed", "present": true}"#),
            // A feed whose deletions say {"deleted_id": 7, "type": "deleted"}, with no "id".
            resource(
                "events", tombstones: "events",
                deleted: #"{"pointer": "/type", "equals": "deleted", "key": "/deleted_id"}"#),
        ])
        #expect(try await workspace.run(["refresh"]).status == 0)
        #expect(try workspace.records("users").count == 30)
        #expect(try workspace.records("events").count == 30)
        let seq = try lastSeq(workspace)

        for name in ["users", "events"] {
            upstream.changeItems(name, ids: [3])
            upstream.removeItems(name, ids: [7, 30])
        }
        let second = try await workspace.run(["refresh", "--json"])

        #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
        let changes = try workspace.query(
            "SELECT resource, op, key FROM changes WHERE seq > \(seq) ORDER BY resource, seq"
        ).map { $0.joined(separator: " ") }
        #expect(
            changes == [
                "events update 3", "events delete 7", "events delete 30",
                "users update 3", "users delete 7", "users delete 30",
            ])
        for name in ["users", "events"] {
            let records = try workspace.records(name)
            #expect(records.count == 28)
            #expect(records["7"] == nil && records["30"] == nil)
        }
    }
}
