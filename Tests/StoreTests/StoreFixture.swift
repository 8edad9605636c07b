import Foundation
import GRDB
import TestServers
import Testing

@testable import Store

/// The two stores the shared tests run against.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres

    var testDescription: String { rawValue }
}

extension Trait where Self == TimeLimitTrait {
    /// A limit of `minutes`, or `factor` times as long under a sanitizer
    /// (`scripts/sanitize`, docs/testing.md#sanitizers), where the PostgreSQL client
    /// runs tens of times slower: a guard against a hang either way.
    static func timeLimit(minutes: Int, timesUnderSanitizer factor: Int) -> Self {
        let sanitized = ProcessInfo.processInfo.environment["SYNC_AGENT_TEST_SANITIZER"] != nil
        return .timeLimit(.minutes(sanitized ? minutes * factor : minutes))
    }
}

/// A store in a fresh temporary folder (SQLite) or a fresh schema of the
/// test process's PostgreSQL cluster, removed when the fixture is released.
final class StoreFixture: Sendable {
    let kind: StoreKind
    let folder: String
    let store: any SyncStore
    /// The PostgreSQL store's cluster and schema.
    let postgres: (cluster: PostgresCluster, schema: String)?

    /// An SQLite store.
    init() throws {
        kind = .sqlite
        folder = Self.makeFolder()
        store = try SQLiteStore(path: folder + "/test.db")
        postgres = nil
    }

    /// A store of `kind`.
    init(_ kind: StoreKind) async throws {
        self.kind = kind
        folder = Self.makeFolder()
        switch kind {
        case .sqlite:
            store = try SQLiteStore(path: folder + "/test.db")
            postgres = nil
        case .postgres:
            let cluster = try await PostgresCluster.shared()
            let schema = "test_" + UUID().uuidString.prefix(8).lowercased()
            store = try await PostgresStore(PostgresLocation(url: cluster.url(), schema: schema))
            postgres = (cluster, schema)
        }
    }

    private static func makeFolder() -> String {
        let folder = NSTemporaryDirectory() + "store-tests-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The store, which the test knows to be the SQLite one.
    var sqlite: SQLiteStore {
        guard let store = store as? SQLiteStore else { preconditionFailure("not an SQLite store") }
        return store
    }

    /// Syncs `records` into `resource` as a successful sync finishing at `date`.
    @discardableResult
    func sync(
        _ resource: String, _ records: [(String, String)], at date: Date = Date(), validators: Validators = Validators()
    ) async throws -> SnapshotChanges {
        let snapshot = try await store.beginSnapshot(of: resource)
        try await snapshot.stage(records.map { StagedRecord(key: $0.0, data: $0.1) })
        return try await store.record(
            FinishedSync(
                resource: resource, trigger: .refresh, startedAt: date, finishedAt: date, outcome: .success,
                state: .idle, pages: 1, items: records.count, validators: validators),
            snapshot: snapshot
        ).changes
    }

    /// The rows of `records` for `resource`, read by another process as any
    /// reader would: key → (data, updated_at). PostgreSQL's `jsonb` text is
    /// written back without the spaces it adds, to compare with what was staged.
    func rows(_ resource: String) throws -> [String: (String, String)] {
        let output =
            switch kind {
            case .sqlite: try query("SELECT key, data, updated_at FROM records WHERE resource = '\(resource)'")
            case .postgres:
                try query(
                    """
                    SELECT key, data::text, to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
                    FROM records WHERE resource = '\(resource)'
                    """
                ).replacingOccurrences(of: "\": ", with: "\":").replacingOccurrences(of: ", \"", with: ",\"")
            }
        var rows: [String: (String, String)] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            rows[fields[0]] = (fields[1], fields[2])
        }
        return rows
    }

    /// How many snapshots are staged: temporary tables of SQLite's writer
    /// connection, rows of PostgreSQL's `snapshots` (and any left in `staging`).
    func stagedSnapshotCount() async throws -> Int {
        switch kind {
        case .sqlite:
            return try await sqlite.pool.write { db in
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_temp_master WHERE type = 'table'") ?? 0
            }
        case .postgres:
            let snapshots = try query("SELECT count(*) FROM snapshots")
            let staged = try query("SELECT count(DISTINCT snapshot) FROM staging")
            return max(
                Int(snapshots.trimmingCharacters(in: .newlines)) ?? -1,
                Int(staged.trimmingCharacters(in: .newlines)) ?? -1)
        }
    }

    /// Runs SQL with the `sqlite3` shell or `psql`, as a reader in another
    /// process would; rows one per line, columns separated by tabs.
    func query(_ sql: String) throws -> String {
        if let postgres {
            return try postgres.cluster.psql(sql, schema: postgres.schema)
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-separator", "\t", sqlite.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
