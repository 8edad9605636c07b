import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// One value per parameter (docs/configuration.md#one-value-per-parameter), through the
/// real binary: where `query` (with a kept value) and the pagination name the same
/// parameter, as the recipes of CouchDB's changes feed and Google Drive's changes do,
/// every request the upstream saw carries each parameter once, the walk's value.
@Suite(.serialized, .timeLimit(.minutes(3))) struct ParametersEndToEndTests {
    /// The names a request's query string repeats.
    static func repeated(_ request: SeenRequest) -> [String] {
        let names = request.query.split(separator: "&").map {
            String($0.split(separator: "=", maxSplits: 1).first ?? "").removingPercentEncoding ?? ""
        }
        return Dictionary(grouping: names) { $0 }.filter { $0.value.count > 1 }.keys.sorted()
    }

    /// Every request to `prefix` carries each parameter once; returns how many there were.
    @discardableResult
    func expectEachParameterOnce(
        _ upstream: TestUpstream, under prefix: String, sourceLocation: SourceLocation = #_sourceLocation
    ) -> Int {
        let requests = upstream.requests.filter { $0.path.hasPrefix(prefix) }
        let twice = requests.filter { !Self.repeated($0).isEmpty }
        #expect(
            twice.isEmpty, "\(twice.count) of \(requests.count) requests repeat a parameter: \(twice.map(\.query))",
            sourceLocation: sourceLocation)
        return requests.count
    }

    /// The decoded value of `name` in each request to `path`, oldest first.
    func asked(_ upstream: TestUpstream, _ path: String, _ name: String) -> [String?] {
        upstream.requests.filter { $0.path == path }.map { Routes.parameters($0.query)[name] }
    }

    func succeeded(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains(#""outcome": "success""#), "\(result.stdout)", sourceLocation: sourceLocation)
    }

    func expectExactCopy(
        _ workspace: Workspace, _ resource: String, of api: ImitatedAPI, _ collection: String,
        in upstream: TestUpstream, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let records = try workspace.records(resource)
        let expected = upstream.imitatedRecords(api, collection: collection)
        #expect(Set(records.keys) == Set(expected.keys), sourceLocation: sourceLocation)
        let different = expected.keys.sorted().filter { !sameJSON(records[$0], expected[$0]) }
        #expect(different.isEmpty, "records differ: \(different.prefix(3))", sourceLocation: sourceLocation)
    }

    @Test func couchDBsRecipeSendsSinceOncePerRequestAndTheWalkOwnsIt() async throws {
        let upstream = try await TestUpstream.start(collections: ["inventory": 120])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        // docs/recipes.md#couchdb-changes-feed: `since` in `query` and as the cursor.
        try workspace.writeConfig(resources: [
            #"""
            {"name": "inventory", "url": "\#(upstream.baseURL)/inventory/_changes",
             "query": {"include_docs": "true", "style": "all_docs", "limit": 50, "since": "{since}"},
             "items": "/results", "key": "/id",
             "pagination": {"style": "cursor", "param": "since", "next": "/last_seq",
                            "stopWhen": {"pointer": "/pending", "equals": 0}},
             "mode": "incremental", "since": {"token": "/last_seq"}, "deleted": {"pointer": "/deleted"}}
            """#
        ])
        succeeded(try await workspace.run(["refresh", "--json"]))
        let kept = try #require(try workspace.value("SELECT since_token FROM resources WHERE name = 'inventory'"))

        // The next sync sends the kept sequence on its first page, then each page's last_seq.
        upstream.clearRequests()
        upstream.changeItems("inventory", ids: Array(1...60))
        let second = try await workspace.run(["refresh", "--json"])

        succeeded(second)
        let since = asked(upstream, "/inventory/_changes", "since")
        #expect(since.count == 2, "\(since)")
        #expect(since.first == kept)
        #expect(since.last != kept)
        #expect(expectEachParameterOnce(upstream, under: "/inventory/_changes") == 2)
        try expectExactCopy(workspace, "inventory", of: .couchdb, "inventory", in: upstream)
    }

    /// The recipe of docs/recipes.md#google-drive-changes, pointed at the upstream, in
    /// pages of 10: walked along `nextPageToken` from the kept `newStartPageToken`, both
    /// sent as `pageToken`.
    func driveChanges(_ upstream: TestUpstream) -> String {
        #"""
        {"name": "drive", "url": "\#(upstream.baseURL)/drive/v3/changes",
         "query": {"pageToken": "{since}", "pageSize": 10, "includeRemoved": true}, "items": "/changes",
         "key": "/fileId",
         "pagination": {"style": "cursor", "param": "pageToken", "next": "/nextPageToken"},
         "mode": "incremental", "since": {"token": "/newStartPageToken", "initial": "1"},
         "deleted": {"pointer": "/removed"}}
        """#
    }

    @Test func aDriveWalkSendsOnePageTokenOnEveryRequest() async throws {
        let upstream = try await TestUpstream.start(collections: ["drive-files": 185])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [driveChanges(upstream)])

        // The first sync: every change from the oldest token, 19 pages.
        succeeded(try await workspace.run(["refresh", "--json"]))

        let first = asked(upstream, "/drive/v3/changes", "pageToken")
        #expect(first.count == 19, "\(first)")
        #expect(first.first == "1")
        #expect(Set(first).count == 19, "\(first)")
        #expect(expectEachParameterOnce(upstream, under: "/drive/v3") == 19)
        try expectExactCopy(workspace, "drive", of: .drive, "drive-files", in: upstream)

        // The next sync starts at the kept newStartPageToken, and finds changes and a removal.
        let kept = try #require(try workspace.value("SELECT since_token FROM resources WHERE name = 'drive'"))
        upstream.clearRequests()
        upstream.changeItems("drive-files", ids: Array(1...25))
        upstream.removeItems("drive-files", ids: [100])
        succeeded(try await workspace.run(["refresh", "--json"]))

        let next = asked(upstream, "/drive/v3/changes", "pageToken")
        #expect(next.count == 3, "\(next)")
        #expect(next.first == kept)
        #expect(expectEachParameterOnce(upstream, under: "/drive/v3") == 3)
        try expectExactCopy(workspace, "drive", of: .drive, "drive-files", in: upstream)
        #expect(try workspace.records("drive").count == 184)
    }
}
