import Foundation
import TestServers
import TestUpstream

/// A database written by a release, kept as text in a folder of `Tests/Fixtures/upgrade`
/// (docs/testing.md#upgrades): the configuration it was made with (`config.json`), the
/// `sqlite3 .dump` of the SQLite file that release wrote (`sqlite.sql`) and the `pg_dump`
/// of the PostgreSQL schema it wrote (`postgres.sql`), against the test upstream in a
/// state that every run rebuilds the same.
///
/// Its URLs name the host ``host``, which resolves nowhere: the agent reaches it through
/// the test upstream as its HTTP proxy (`http_proxy`), so that the URLs, and the
/// fingerprints made of them, do not depend on the port the upstream listens on.
struct UpgradeFixture: Sendable {
    /// The release that wrote the database, such as `0.1.0`.
    let version: String

    /// `Tests/Fixtures/upgrade`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/upgrade")

    /// The host the configuration's URLs name.
    static let host = "upstream.fixture.test"
    /// The origin the upstream's links name.
    static let origin = "http://\(host)"
    /// The value of `${FIXTURE_TOKEN}`, the secret the configuration sends.
    static let token = "fixture-secret-0001"
    /// When every collection last changed, as its pages' `Last-Modified` say: the same in
    /// every run, so that a stored `Last-Modified` is the upstream's own.
    static let modified = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    /// `modified` as an HTTP date.
    static let lastModified = "Thu, 01 Jan 2026 00:00:00 GMT"

    /// The collections the configuration reads, and their sizes.
    static let collections = [
        "items": 60, "listed": 30, "linked": 30, "events": 30, "inventory": 30, "graph-users": 30, "people": 3,
        "owned": 20, "journal": 40,
    ]
    /// The journal's items that change after the first sync, each at a time of its own,
    /// before the sync that is cut off at its third page.
    static let journalChanges = Array(1...16)

    var folder: URL { Self.root.appendingPathComponent("release-\(version)") }

    /// The configuration it was made with, keeping its copy in `store`.
    func config(_ store: FixtureStore) throws -> String {
        let text = try String(contentsOfFile: folder.appendingPathComponent("config.json").path, encoding: .utf8)
        guard let brace = text.firstIndex(of: "{") else { return text }
        return String(text[...brace]) + store.configuration + String(text[text.index(after: brace)...])
    }

    /// The dump of the database `store` holds.
    func dumpPath(_ store: FixtureStore) -> String {
        folder.appendingPathComponent(store.dumpName).path
    }

    /// The test upstream as the fixture was made against, before its first sync.
    static func startUpstream() async throws -> TestUpstream {
        let upstream = try await TestUpstream.start(collections: collections)
        pinModified(upstream)
        return upstream
    }

    /// The changes made between the fixture's first sync and the one cut off.
    static func changeTheJournal(_ upstream: TestUpstream) {
        for id in journalChanges { upstream.changeItems("journal", ids: [id]) }
        pinModified(upstream)
    }

    /// The test upstream in the state the fixture's last sync left it.
    static func startUpstreamAsLeft() async throws -> TestUpstream {
        let upstream = try await startUpstream()
        changeTheJournal(upstream)
        return upstream
    }

    private static func pinModified(_ upstream: TestUpstream) {
        for name in collections.keys { upstream.setModified(name, to: modified) }
    }

    /// The environment an agent of the fixture runs in: the upstream as its proxy, and the secret.
    static func environment(_ upstream: TestUpstream) -> [String: String] {
        ["http_proxy": upstream.baseURL, "FIXTURE_TOKEN": token]
    }
}

/// Where a fixture's database is, for one test: the SQLite file of its workspace, or the
/// schema `copy` of a new database of a PostgreSQL cluster.
enum FixtureStore: Sendable {
    case sqlite(Workspace)
    case postgres(Workspace, PostgresCluster, database: String)

    /// A schema of a new database of `cluster`, for `workspace`'s agents.
    static func postgres(_ workspace: Workspace, in cluster: PostgresCluster) throws -> FixtureStore {
        .postgres(workspace, cluster, database: try cluster.createDatabase(prefix: "upgrade"))
    }

    /// The schema a PostgreSQL fixture is in.
    static let schema = "copy"

    var workspace: Workspace {
        switch self {
        case .sqlite(let workspace), .postgres(let workspace, _, _): workspace
        }
    }

    /// The file its dump is kept in.
    var dumpName: String {
        switch self {
        case .sqlite: "sqlite.sql"
        case .postgres: "postgres.sql"
        }
    }

    /// What a configuration adds to keep its copy here: nothing for the SQLite file.
    var configuration: String {
        switch self {
        case .sqlite: ""
        case .postgres(_, let cluster, let database):
            #"\#n  "store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "\#(Self.schema)"},"#
        }
    }

    /// Rows of a query, fields split by tabs, as a reader sees them (`sqlite3`, `psql`).
    func query(_ sql: String) throws -> [[String]] {
        switch self {
        case .sqlite(let workspace): return try workspace.query(sql)
        case .postgres(_, let cluster, let database):
            return try cluster.psql(sql, database: database, schema: Self.schema).split(separator: "\n").map {
                $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            }
        }
    }

    /// The single value of a query.
    func value(_ sql: String) throws -> String? {
        try query(sql).first?.first
    }

    /// key → data of a resource's records.
    func records(_ resource: String) throws -> [String: String] {
        let data = if case .postgres = self { "data::text" } else { "data" }
        return Dictionary(
            uniqueKeysWithValues: try query("SELECT key, \(data) FROM records WHERE resource = '\(resource)'").map {
                ($0[0], $0[1])
            })
    }

    /// Loads the dump at `path` into the (new, empty) database.
    func load(_ path: String) throws {
        switch self {
        case .sqlite(let workspace):
            try Workspace.output(of: "/usr/bin/sqlite3", ["-bail", workspace.databasePath], input: path)
        case .postgres(_, let cluster, let database):
            try Workspace.output(
                of: "/usr/bin/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", cluster.url(database: database), "-f", path])
        }
    }

    /// The dump of the database as text: `sqlite3 .dump`, or `pg_dump` of the schema.
    func dump() throws -> String {
        switch self {
        case .sqlite(let workspace):
            try Workspace.output(of: "/usr/bin/sqlite3", ["-bail", workspace.databasePath, ".dump"])
        case .postgres(_, let cluster, let database):
            try Workspace.output(
                of: "/usr/bin/pg_dump",
                ["--schema=\(Self.schema)", "--no-owner", "--no-privileges", cluster.url(database: database)])
        }
    }
}
