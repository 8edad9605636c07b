import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/resources()``.
    public func resources() async throws(StoreError) -> [ResourceRow] {
        try await read { db in try ResourceRow.fetchAll(db, sql: "SELECT * FROM resources ORDER BY name") }
    }

    /// Implements ``SyncStore/resource(named:)``.
    public func resource(named name: String) async throws(StoreError) -> ResourceRow? {
        try await read { db in
            try ResourceRow.fetchOne(db, sql: "SELECT * FROM resources WHERE name = ?", arguments: [name])
        }
    }

    /// Implements ``SyncStore/runs(of:limit:)``.
    public func runs(of resource: String?, limit: Int) async throws(StoreError) -> [SyncRunRow] {
        try await read { db in
            if let resource {
                return try SyncRunRow.fetchAll(
                    db, sql: "SELECT * FROM sync_runs WHERE resource = ? ORDER BY id DESC LIMIT ?",
                    arguments: [resource, limit])
            }
            return try SyncRunRow.fetchAll(
                db, sql: "SELECT * FROM sync_runs ORDER BY id DESC LIMIT ?", arguments: [limit])
        }
    }

    /// Implements ``SyncStore/runs(of:limitEach:)``: one statement, run for each resource.
    public func runs(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]] {
        try await read { db in
            let statement = try db.cachedStatement(
                sql: "SELECT * FROM sync_runs WHERE resource = ? ORDER BY id DESC LIMIT ?")
            var runs: [String: [SyncRunRow]] = [:]
            for resource in resources {
                runs[resource] = try SyncRunRow.fetchAll(statement, arguments: [resource, limitEach])
            }
            return runs
        }
    }

    /// Implements ``SyncStore/latestRunID(of:)``.
    public func latestRunID(of resource: String) async throws(StoreError) -> Int64 {
        try await read { db in
            try Int64.fetchOne(db, sql: "SELECT max(id) FROM sync_runs WHERE resource = ?", arguments: [resource]) ?? 0
        }
    }

    /// Implements ``SyncStore/run(of:finishedSince:)``: a running row (no `finished_at`) is none.
    public func run(of resource: String, finishedSince date: Date) async throws(StoreError) -> SyncRunRow? {
        try await readInCaller { db in
            try SyncRunRow.fetchOne(
                db.cachedStatement(
                    sql: "SELECT * FROM sync_runs WHERE resource = ? AND finished_at >= ? ORDER BY id DESC LIMIT 1"),
                arguments: [resource, Timestamp.string(from: date)])
        }
    }

    /// Implements ``SyncStore/records(of:limit:)``.
    public func records(of resource: String, limit: Int) async throws(StoreError) -> [StagedRecord] {
        try await read { db in
            try Row.fetchAll(
                db, sql: "SELECT key, data FROM records WHERE resource = ? ORDER BY key LIMIT ?",
                arguments: [resource, limit]
            ).map { StagedRecord(key: $0["key"], data: $0["data"]) }
        }
    }

    /// Implements ``SyncStore/records(of:after:limit:)``.
    public func records(
        of resource: String, after key: String?, limit: Int
    ) async throws(StoreError)
        -> [StagedRecord]
    {
        try await read { db in
            // Two statements, so that each page is a range of the primary key, not a scan from its start.
            let rows =
                if let key {
                    try Row.fetchAll(
                        db, sql: "SELECT key, data FROM records WHERE resource = ? AND key > ? ORDER BY key LIMIT ?",
                        arguments: [resource, key, limit])
                } else {
                    try Row.fetchAll(
                        db, sql: "SELECT key, data FROM records WHERE resource = ? ORDER BY key LIMIT ?",
                        arguments: [resource, limit])
                }
            return rows.map { StagedRecord(key: $0["key"], data: $0["data"]) }
        }
    }

    /// Implements ``SyncStore/pages(of:)``.
    public func pages(of resource: String) async throws(StoreError) -> [StoredPage] {
        try await pages(sql: "SELECT \(Self.pageColumns) FROM pages WHERE resource = ? ORDER BY number", [resource])
    }

    /// Implements ``SyncStore/pages(of:scope:)``.
    public func pages(of resource: String, scope: String) async throws(StoreError) -> [StoredPage] {
        try await pages(
            sql: """
                SELECT \(Self.pageColumns) FROM pages WHERE resource = ?
                    AND EXISTS (SELECT 1 FROM resources WHERE name = ? AND validators_scope = ?)
                ORDER BY number
                """,
            [resource, resource, scope])
    }

    private static let pageColumns = "number, request, etag, last_modified, next, item_count"

    private func pages(sql: String, _ arguments: StatementArguments) async throws(StoreError) -> [StoredPage] {
        try await readInCaller { db in
            // Asked at every sync: compiled once per connection.
            try Row.fetchAll(db.cachedStatement(sql: sql), arguments: arguments).map { row in
                StoredPage(
                    number: row["number"], request: row["request"],
                    validators: Validators(etag: row["etag"], lastModified: row["last_modified"]),
                    next: row["next"], itemCount: row["item_count"])
            }
        }
    }
}
