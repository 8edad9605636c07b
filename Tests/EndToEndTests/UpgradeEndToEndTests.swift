import DemoUpstream
import Foundation
import TestServers
import TestUpstream
import Testing

/// A database written by release 0.1.0, opened by this build (docs/testing.md#upgrades):
/// every resource's first request after the upgrade carries what 0.1.0 kept (each page's
/// `ETag` and `Last-Modified`, answered 304; the kept time, token, link and dependent
/// cursor; the walk cut off going on), and no record is lost, duplicated or rewritten.
@Suite(.serialized, .timeLimit(.minutes(5))) struct UpgradeEndToEndTests {
    /// Writes the fixture, both dumps, with the binary `SYNC_AGENT_BINARY` names, a
    /// release's (`SYNC_AGENT_MAKE_FIXTURE` set, `SYNC_AGENT_FIXTURE_VERSION` its
    /// version): `scripts/make-upgrade-fixture` runs it; skipped otherwise.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SYNC_AGENT_MAKE_FIXTURE"] != nil))
    func makeTheFixture() async throws {
        let environment = ProcessInfo.processInfo.environment
        let fixture = UpgradeFixture(version: environment["SYNC_AGENT_FIXTURE_VERSION"] ?? "0.1.0")
        let version = try await AgentProcess.run(["--version"], in: NSTemporaryDirectory())
        try #require(version.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == fixture.version)
        let cluster = try await PostgresCluster.shared()
        for store in [FixtureStore.sqlite(try Workspace()), try .postgres(try Workspace(), in: cluster)] {
            let upstream = try await UpgradeFixture.startUpstream()
            defer { Task { await upstream.stop() } }
            let workspace = store.workspace
            try workspace.writeConfig(try fixture.config(store))
            let agent = UpgradeFixture.environment(upstream)

            // Every resource synced once, completely.
            let first = try await workspace.run(["refresh", "--json"], environment: agent)
            try #require(first.status == 0, "\(first.stdout)\n\(first.stderr)")
            // Then the journal changes, and its next walk fails at its third page, after two.
            UpgradeFixture.changeTheJournal(upstream)
            upstream.inject(Fault(path: "/incremental/journal", query: "page=3", action: .status(500)))
            let cut = try await workspace.run(["refresh", "journal", "--json"], environment: agent)
            try #require(cut.status == 1, "\(cut.stdout)\n\(cut.stderr)")
            let journal = upstream.requests.filter { $0.path == "/incremental/journal" }.map(\.query)
            try #require(journal.last?.contains("page=3") == true, "\(journal)")
            try #require(try store.value("SELECT count(*) FROM cursors WHERE walk IS NOT NULL") == "1")

            try Data(try store.dump().utf8).write(to: URL(fileURLWithPath: fixture.dumpPath(store)))
        }
    }

    @Test func aSQLiteDatabaseOfRelease010KeepsItsValidatorsCursorsTokensAndWalk() async throws {
        try await checkUpgrade(of: UpgradeFixture(version: "0.1.0"), in: .sqlite(try Workspace()))
    }

    @Test func aPostgreSQLSchemaOfRelease010KeepsItsValidatorsCursorsTokensAndWalk() async throws {
        let cluster = try await PostgresCluster.shared()
        try await checkUpgrade(of: UpgradeFixture(version: "0.1.0"), in: try .postgres(try Workspace(), in: cluster))
    }

    /// Loads the fixture's dump into `store`, runs `refresh` once, and checks what it asked and kept.
    func checkUpgrade(of fixture: UpgradeFixture, in store: FixtureStore) async throws {
        let upstream = try await UpgradeFixture.startUpstreamAsLeft()
        defer { Task { await upstream.stop() } }
        let workspace = store.workspace
        try workspace.writeConfig(try fixture.config(store))
        try store.load(fixture.dumpPath(store))
        let resources = ["pages", "cursors", "links", "events", "inventory", "users", "me", "mine", "journal"]
        var kept: [String: [String: String]] = [:]
        for name in resources { kept[name] = try store.records(name) }
        #expect(kept.values.allSatisfy { !$0.isEmpty }, "\(kept.mapValues(\.count))")
        let lastSeq = try #require(Int(try store.value("SELECT max(seq) FROM changes") ?? ""))
        let keptChanges = try store.query("SELECT seq, resource, key, op FROM changes ORDER BY seq")
        // The last values 0.1.0 saw: the largest `updated_at` of the records it kept, and
        // the last `last_seq` of a complete walk of the changes feed (nothing changed since).
        let events = try #require(largestUpdatedAt(kept["events"]))
        let owned = try #require(largestUpdatedAt(kept["mine"]))
        let lastSeqOfCouch = try #require(
            PlainHTTP.request("\(upstream.baseURL)/inventory/_changes?limit=1000").json["last_seq"] as? String)

        // What changed upstream after 0.1.0's last sync: one item on the second page of `pages`,
        // and one item of each incremental resource.
        upstream.changeItems("items", ids: [30])
        upstream.changeItems("events", ids: [7])
        upstream.changeItems("inventory", ids: [3])
        upstream.changeItems("graph-users", ids: [3])
        upstream.changeItems("owned", ids: [5])
        upstream.clearRequests()
        let result = try await workspace.run(["refresh", "--json"], environment: UpgradeFixture.environment(upstream))
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        // What the agent asked (the checks below ask the upstream too).
        let seen = upstream.requests

        // Snapshots: every page asked for with the validators 0.1.0 stored for it; the
        // unchanged ones answered 304 (asked again as they were, they still are), the
        // changed one 200.
        for (path, changedPage) in [
            ("/page/items", 2), ("/cursor/listed", 0), ("/link/linked", 0), ("/one/people/1", 0),
        ] {
            let asked = seen.filter { $0.path == path }
            #expect(!asked.isEmpty, "\(path)")
            for (number, request) in zip(1..., asked) {
                #expect(request.headers["if-modified-since"] == UpgradeFixture.lastModified, "\(path) \(request)")
                guard let etag = request.headers["if-none-match"] else {
                    Issue.record("\(path) page \(number) was asked without If-None-Match: \(request.headers)")
                    continue
                }
                let again = try PlainHTTP.request(
                    "\(upstream.baseURL)\(path)?\(request.query)",
                    headers: ["If-None-Match: \(etag)", "Authorization: Bearer \(UpgradeFixture.token)"])
                #expect(again.status == (number == changedPage ? 200 : 304), "\(path) page \(number): \(again.status)")
            }
        }
        #expect(seen.filter { $0.path == "/page/items" }.count == 3)
        #expect(seen.filter { $0.path == "/cursor/listed" }.allSatisfy { $0.query.contains(UpgradeFixture.token) })
        let outcomes = try Dictionary(
            uniqueKeysWithValues: store.query(
                "SELECT resource, outcome FROM sync_runs WHERE id IN (SELECT max(id) FROM sync_runs GROUP BY resource)"
            ).map { ($0[0], $0[1]) })
        #expect(outcomes["cursors"] == "notModified" && outcomes["links"] == "notModified", "\(outcomes)")
        #expect(outcomes["me"] == "notModified" && outcomes["pages"] == "success", "\(outcomes)")

        // Incremental resources: each starts from what 0.1.0 kept.
        #expect(firstQuery(seen, "/incremental/events")["updated_since"] == events)
        #expect(firstQuery(seen, "/inventory/_changes")["since"] == lastSeqOfCouch)
        #expect(seen.first { $0.path == "/v1.0/users/delta" }?.query.hasPrefix("$deltatoken=") == true)
        #expect(firstQuery(seen, "/incremental/owned")["updated_since"] == owned)
        #expect(firstQuery(seen, "/incremental/owned")["owner"] == "1")
        // The walk cut off goes on from what it kept, one of the two ways of
        // docs/configuration.md#incremental-resources: at the page after the two it
        // committed, with the time it sent (the one its first sync kept, of its last
        // item), or at its first page again from a time no earlier (a resume by value;
        // one of 0.1.0, which kept no value to go on from, from the time it sent). Never
        // from `initial`, never from a time before the one it sent.
        let sent = try #require(parseTime(Dataset.time(UpgradeFixture.collections["journal"]!)))
        let journal = seen.filter { $0.path == "/incremental/journal" }.map { Routes.parameters($0.query) }
        let first = try #require(journal.first, "the journal was not asked")
        let firstTime = try #require(first["updated_since"].flatMap(parseTime), "\(journal)")
        #expect(
            (first["page"] == "3" && firstTime == sent) || ((first["page"] ?? "1") == "1" && firstTime >= sent),
            "\(journal)")
        #expect(journal.allSatisfy { ($0["updated_since"].flatMap(parseTime) ?? .distantPast) >= sent }, "\(journal)")

        // Every copy exact, and the change feed goes on after 0.1.0's: its rows kept, and
        // one update for each item that changed, nothing inserted or deleted again.
        for (name, expected) in try expectedCopies(upstream) {
            let records = try store.records(name)
            #expect(Set(records.keys) == Set(expected.keys), "\(name): \(records.count) records for \(expected.count)")
            for (key, json) in expected.sorted(by: { $0.key < $1.key }) where !sameJSON(records[key], json) {
                Issue.record("\(name) record \(key) is \(records[key] ?? "missing"), not \(json)")
                break
            }
        }
        // (The fixture keeps changes 365 days, the most: a run later than that finds the
        // oldest pruned, and the others still as they were.)
        let old = try store.query("SELECT seq, resource, key, op FROM changes WHERE seq <= \(lastSeq) ORDER BY seq")
        #expect(Array(keptChanges.suffix(old.count)) == old)
        let changes = try store.query("SELECT resource, key, op FROM changes WHERE seq > \(lastSeq) ORDER BY seq")
            .map { $0.joined(separator: " ") }
        // The two pages the walk committed held item 40, the first it asked for, and the
        // first nine changes: the rest are updated now.
        let walkRest = UpgradeFixture.journalChanges.dropFirst(9).map { "journal \($0) update" }
        #expect(
            changes.sorted()
                == ([
                    "pages 30 update", "events 7 update", "inventory doc-0003 update",
                    "users 6e3b2f1a-0c4d-4e5f-8a9b-000000000003 update",
                    "mine 5 update",
                ] + walkRest).sorted(), "\(changes)")
    }

    /// The largest `updated_at` of records.
    func largestUpdatedAt(_ records: [String: String]?) -> String? {
        records?.values.compactMap { record in
            (try? JSONSerialization.jsonObject(with: Data(record.utf8)) as? [String: Any])?["updated_at"] as? String
        }.max()
    }

    /// A time as the agent sends it: ISO 8601, with or without milliseconds.
    func parseTime(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }

    /// The decoded query of the first of `requests` to `path`.
    func firstQuery(_ requests: [SeenRequest], _ path: String) -> [String: String] {
        Routes.parameters(requests.first { $0.path == path }?.query ?? "")
    }

    /// What a complete, exact copy of each resource holds now, read from the upstream
    /// directly: key → JSON.
    func expectedCopies(_ upstream: TestUpstream) throws -> [String: [String: String]] {
        func items(_ path: String, at pointer: String? = nil) throws -> [String: String] {
            let answer = try PlainHTTP.request(upstream.baseURL + path)
            let body = try JSONSerialization.jsonObject(with: Data(answer.body.utf8))
            let list: Any? = if let pointer { (body as? [String: Any])?[pointer] } else { body }
            let objects = (list as? [[String: Any]]) ?? [(body as? [String: Any]) ?? [:]]
            return Dictionary(uniqueKeysWithValues: objects.map { (jsonText($0["id"]) ?? "", jsonText($0) ?? "") })
        }
        return [
            "pages": try items("/all/items"),
            "cursors": try items("/all/listed"),
            "links": try items("/all/linked"),
            "events": try items("/incremental/events?per_page=1000", at: "data"),
            "inventory": upstream.imitatedRecords(.couchdb, collection: "inventory"),
            "users": upstream.imitatedRecords(.graph, collection: "graph-users", origin: UpgradeFixture.origin),
            "me": try items("/one/people/1"),
            "mine": try items("/incremental/owned?per_page=1000", at: "data"),
            "journal": try items("/incremental/journal?per_page=1000", at: "data"),
        ]
    }
}
