import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// How an incremental walk cut off goes on (docs/configuration.md#how-a-walk-cut-off-goes-on),
/// through the real binary, against the imitation of GitLab's project issues: a list
/// filtered by `updated_after` and walked by page number, in which an edited issue moves
/// to the end (`order_by=updated_at&sort=asc`) or to the front (`sort=desc`). Issues edited
/// while the walk is cut off make the issues after them slide onto pages already walked;
/// the copy must still be exact, every issue at its latest version.
@Suite(.serialized, .timeLimit(.minutes(3))) struct WalkResumeEndToEndTests {
    static let path = "/api/v4/projects/7/issues"

    /// GitLab's issues of project 7, 20 a page, changed since the largest `updated_at` kept.
    func issues(_ upstream: TestUpstream, sort: String = "asc", order: String? = nil) -> String {
        #"""
        {"name": "issues", "url": "\#(upstream.baseURL)\#(Self.path)",
         "query": {"order_by": "updated_at", "sort": "\#(sort)"},
         "items": "", "key": "/id",
         "pagination": {"style": "page", "size": 20},
         "mode": "incremental",
         "since": {"field": "/updated_at", "param": "updated_after"\#(order.map { #", "order": "\#($0)""# } ?? "")}}
        """#
    }

    /// The resource's records are exactly the issues GitLab serves now: the same keys, and
    /// each record the same JSON.
    func expectExactCopy(
        _ workspace: Workspace, of upstream: TestUpstream, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let records = try workspace.records("issues")
        let expected = upstream.imitatedRecords(.gitlab, collection: "gitlab-issues")
        let missing = Set(expected.keys).subtracting(records.keys).sorted()
        let extra = Set(records.keys).subtracting(expected.keys).sorted()
        let shown =
            "\(records.count) records for \(expected.count) issues; missing \(missing.count): \(missing.prefix(12)), "
            + "extra \(extra.count): \(extra.prefix(12))"
        #expect(missing.isEmpty && extra.isEmpty, "\(shown)", sourceLocation: sourceLocation)
        let stale = expected.keys.sorted().filter { records[$0] != nil && !sameJSON(records[$0], expected[$0]) }
        #expect(
            stale.isEmpty, "records not at their latest version: \(stale.prefix(12))", sourceLocation: sourceLocation)
    }

    /// The `page` and `updated_after` of each request for the issues, oldest first.
    func asked(_ upstream: TestUpstream) -> [String] {
        upstream.requests.filter { $0.path == Self.path }.map {
            let query = Routes.parameters($0.query)
            return "page=\(query["page"] ?? "") updated_after=\(query["updated_after"] ?? "")"
        }
    }

    func walkPages(_ workspace: Workspace) throws -> String? {
        try workspace.value("SELECT walk_pages FROM cursors WHERE resource = 'issues'")
    }

    @Test func aWalkCutOffByAFailedPageGoesOnFromTheLargestValueCommittedAndMissesNoIssueThatSlid() async throws {
        let upstream = try await TestUpstream.start(collections: ["gitlab-issues": 100])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [issues(upstream)])
        // Page 3 fails past its retries (one attempt): pages 1 and 2, issues 1 to 40, are committed.
        upstream.inject(Fault(path: Self.path, query: "page=3", action: .status(503)))

        let cut = try await workspace.run(["refresh", "--json"])

        #expect(cut.stdout.contains(#""outcome": "gaveUp""#), "\(cut.stdout)\n\(cut.stderr)")
        #expect(try workspace.records("issues").count == 40)
        #expect(try walkPages(workspace) == "2")
        #expect(
            try workspace.value("SELECT walk_resume_value FROM cursors WHERE resource = 'issues'")
                == "time:2026-01-01T00:00:40Z")

        // Meanwhile issues 1 to 10, on page 1, are edited: they move to the end, and issues
        // 41 to 50 slide back onto page 2. Page 3 from the start would begin at issue 51.
        upstream.changeItems("gitlab-issues", ids: Array(1...10))
        upstream.clearFaults()
        upstream.clearRequests()
        let resumed = try await workspace.run(["refresh", "--json"])

        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(resumed.stdout.contains(#""outcome": "success""#), "\(resumed.stdout)")
        // It went on from its first page, asking from issue 40's updated_at.
        #expect(
            asked(upstream) == [
                "page=1 updated_after=2026-01-01T00:00:40Z", "page=2 updated_after=2026-01-01T00:00:40Z",
                "page=3 updated_after=2026-01-01T00:00:40Z", "page=4 updated_after=2026-01-01T00:00:40Z",
            ],
            "\(asked(upstream))")
        try expectExactCopy(workspace, of: upstream)
        #expect(try workspace.value("SELECT count(*) FROM cursors WHERE walk_pages IS NOT NULL") == "0")

        // The next sync asks only from the edits' time.
        upstream.clearRequests()
        let next = try await workspace.run(["refresh", "--json"])
        #expect(next.status == 0, "\(next.stdout)\n\(next.stderr)")
        #expect(asked(upstream) == ["page=1 updated_after=2026-01-12T13:46:41Z"], "\(asked(upstream))")
        try expectExactCopy(workspace, of: upstream)
    }

    @Test func aWalkKilledMidwayGoesOnFromTheLargestValueCommittedAndMissesNoIssueThatSlid() async throws {
        let upstream = try await TestUpstream.start(collections: ["gitlab-issues": 100])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [issues(upstream)])
        // Page 4 never answers: the refresh is killed while it waits, once page 3 is committed.
        upstream.inject(Fault(path: Self.path, query: "page=4", delay: .seconds(120)))
        let killed = try workspace.start(["refresh"])
        #expect(
            try await eventually(timeout: .seconds(60)) {
                upstream.requests.contains { $0.path == Self.path && $0.query.contains("page=4") }
                    && (try? walkPages(workspace)) == "3"
            })
        killed.send(SIGKILL)
        _ = try await killed.finish()
        #expect(try workspace.records("issues").count == 60)

        // Edits to issues on every page walked, and to one not reached yet.
        upstream.changeItems("gitlab-issues", ids: [2, 3, 25, 26, 27, 59, 70])
        upstream.clearFaults()
        upstream.clearRequests()
        let resumed = try await workspace.run(["refresh", "--json"])

        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        #expect(asked(upstream).first == "page=1 updated_after=2026-01-01T00:01:00Z", "\(asked(upstream))")
        try expectExactCopy(workspace, of: upstream)
    }

    @Test func aNewestFirstWalkGoesOnAtItsNextPageAndTheNextSyncFindsTheIssuesEditedMeanwhile() async throws {
        let upstream = try await TestUpstream.start(collections: ["gitlab-issues": 100])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [issues(upstream, sort: "desc", order: "newestFirst")])
        upstream.inject(Fault(path: Self.path, query: "page=3", action: .status(503)))

        let cut = try await workspace.run(["refresh", "--json"])

        #expect(cut.stdout.contains(#""outcome": "gaveUp""#), "\(cut.stdout)\n\(cut.stderr)")
        // Issues 100 to 61, newest first.
        #expect(try workspace.records("issues").count == 40)
        #expect(try workspace.value("SELECT walk_resume_value FROM cursors WHERE resource = 'issues'") == nil)

        // Edited issues move to the front; those after them stay where they were.
        upstream.changeItems("gitlab-issues", ids: [1, 2, 30, 70, 75])
        upstream.clearFaults()
        upstream.clearRequests()
        let resumed = try await workspace.run(["refresh", "--json"])

        #expect(resumed.status == 0, "\(resumed.stdout)\n\(resumed.stderr)")
        // It went on at page 3, with the value the walk started with.
        #expect(asked(upstream).first == "page=3 updated_after=1970-01-01T00:00:00Z", "\(asked(upstream))")
        // The edits came after its largest value (issue 100's): the next sync asks from it and finds them.
        upstream.clearRequests()
        let next = try await workspace.run(["refresh", "--json"])
        #expect(next.status == 0, "\(next.stdout)\n\(next.stderr)")
        #expect(asked(upstream) == ["page=1 updated_after=2026-01-01T00:01:40Z"], "\(asked(upstream))")
        try expectExactCopy(workspace, of: upstream)
    }
}
