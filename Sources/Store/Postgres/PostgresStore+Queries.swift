import Foundation
import PostgresNIO

extension PostgresStore {
    static let resourceColumns = """
        name, state, \(iso("last_success_at")), \(iso("last_attempt_at")), last_error, last_error_kind,
        last_error_status, etag, last_modified, validators_scope, item_count, \(iso("since")), since_token
        """

    static func resourceRow(_ row: PostgresRandomAccessRow) throws -> ResourceRow {
        ResourceRow(
            name: try row.get("name") ?? "",
            state: ResourceState(rawValue: try row.get("state") ?? "") ?? .idle,
            lastSuccessAt: try row.date("last_success_at"),
            lastAttemptAt: try row.date("last_attempt_at"),
            lastError: StoredError(
                message: try row.get("last_error"), kind: try row.get("last_error_kind"),
                status: try row.get("last_error_status")),
            validators: Validators(
                etag: try row.get("etag"), lastModified: try row.get("last_modified"),
                scope: try row.get("validators_scope")),
            itemCount: try row.get("item_count") ?? 0,
            since: SinceState(time: try row.date("since").flatMap(ExactTime.init), token: try row.get("since_token")))
    }

    static let runColumns = """
        id, resource, trigger, \(iso("started_at")), \(iso("finished_at")), outcome, attempts, pages, items, bytes,
        wire_bytes, error, error_kind, error_status, added, changed, removed, \(iso("since")), since_token
        """

    static func runRow(_ row: PostgresRandomAccessRow) throws -> SyncRunRow {
        SyncRunRow(
            id: try row.get("id") ?? 0,
            resource: try row.get("resource") ?? "",
            trigger: SyncTrigger(rawValue: try row.get("trigger") ?? "") ?? .refresh,
            startedAt: try row.date("started_at") ?? .distantPast,
            finishedAt: try row.date("finished_at"),
            // NULL while the sync runs.
            outcome: try row.get("outcome", as: String.self).map { SyncOutcome(rawValue: $0) ?? .failed },
            counts: SyncCounts(
                attempts: try row.get("attempts") ?? 0, pages: try row.get("pages") ?? 0,
                items: try row.get("items") ?? 0, bytes: try row.get("bytes") ?? 0,
                wireBytes: try row.get("wire_bytes") ?? 0),
            error: StoredError(
                message: try row.get("error"), kind: try row.get("error_kind"), status: try row.get("error_status")),
            changes: SnapshotChanges(
                added: try row.get("added") ?? 0, changed: try row.get("changed") ?? 0,
                removed: try row.get("removed") ?? 0),
            since: SinceState(time: try row.date("since").flatMap(ExactTime.init), token: try row.get("since_token")))
    }

    /// Implements ``SyncStore/resources()``.
    public func resources() async throws(StoreError) -> [ResourceRow] {
        let logger = logger
        return try await read { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.resourceColumns) FROM resources ORDER BY name", logger
            ).map(Self.resourceRow)
        }
    }

    /// Implements ``SyncStore/resource(named:)``.
    public func resource(named name: String) async throws(StoreError) -> ResourceRow? {
        let logger = logger
        return try await read { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.resourceColumns) FROM resources WHERE name = \(name)", logger
            ).first.map(Self.resourceRow)
        }
    }

    /// Implements ``SyncStore/runs(of:limit:)``.
    public func runs(of resource: String?, limit: Int) async throws(StoreError) -> [SyncRunRow] {
        let logger = logger
        return try await read { connection in
            let rows =
                if let resource {
                    try await connection.rows(
                        """
                        SELECT \(unescaped: Self.runColumns) FROM sync_runs WHERE resource = \(resource)
                        ORDER BY id DESC LIMIT \(limit)
                        """, logger)
                } else {
                    try await connection.rows(
                        "SELECT \(unescaped: Self.runColumns) FROM sync_runs ORDER BY id DESC LIMIT \(limit)", logger)
                }
            return try rows.map(Self.runRow)
        }
    }

    /// Implements ``SyncStore/runs(of:limitEach:)``: one query, the runs of each resource taken by its index.
    public func runs(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]] {
        let logger = logger
        return try await read { connection in
            let rows = try await connection.rows(
                """
                SELECT runs.* FROM unnest(\(resources)::text[]) AS wanted(name)
                CROSS JOIN LATERAL (
                    SELECT \(unescaped: Self.runColumns) FROM sync_runs WHERE resource = wanted.name
                    ORDER BY id DESC LIMIT \(limitEach)
                ) AS runs
                """, logger)
            var runs: [String: [SyncRunRow]] = Dictionary(uniqueKeysWithValues: resources.map { ($0, []) })
            for row in try rows.map(Self.runRow) { runs[row.resource, default: []].append(row) }
            return runs
        }
    }

    /// Implements ``SyncStore/latestRunID(of:)``.
    public func latestRunID(of resource: String) async throws(StoreError) -> Int64 {
        let logger = logger
        return try await read { connection in
            try await connection.value(
                Int64.self, "SELECT max(id) FROM sync_runs WHERE resource = \(resource)", logger) ?? 0
        }
    }

    /// Implements ``SyncStore/run(of:finishedSince:)``: a running row (no `finished_at`) is none.
    public func run(of resource: String, finishedSince date: Date) async throws(StoreError) -> SyncRunRow? {
        let logger = logger
        let since = Timestamp.string(from: date)
        return try await read { connection in
            try await connection.rows(
                """
                SELECT \(unescaped: Self.runColumns) FROM sync_runs
                WHERE resource = \(resource) AND finished_at >= \(since)::timestamptz ORDER BY id DESC LIMIT 1
                """, logger
            ).first.map(Self.runRow)
        }
    }

    /// Implements ``SyncStore/records(of:limit:)``: each record's JSON as PostgreSQL
    /// keeps it (`jsonb` drops insignificant spaces and orders the keys).
    public func records(of resource: String, limit: Int) async throws(StoreError) -> [StagedRecord] {
        let logger = logger
        return try await read { connection in
            try await connection.rows(
                """
                SELECT key, data::text AS data FROM records WHERE resource = \(resource)
                ORDER BY key COLLATE "C" LIMIT \(limit)
                """, logger
            ).map { StagedRecord(key: try $0.get("key") ?? "", data: try $0.get("data") ?? "") }
        }
    }

    /// Implements ``SyncStore/records(of:after:limit:)``, in the order of the
    /// index of `records` (the keys' collation, the database's): each page is
    /// read from the index where the last ended, not sorted from all records.
    public func records(
        of resource: String, after key: String?, limit: Int
    ) async throws(StoreError)
        -> [StagedRecord]
    {
        let logger = logger
        let query = Self.recordsPage(of: resource, after: key, limit: limit)
        return try await read { connection in
            try await connection.rows(query, logger).map {
                StagedRecord(key: try $0.get("key") ?? "", data: try $0.get("data") ?? "")
            }
        }
    }

    /// The statement of a page of ``records(of:after:limit:)``: the key is
    /// compared and ordered in its column's collation, which the primary key's
    /// index (resource, key) has, so that the page is a scan of that index.
    static func recordsPage(of resource: String, after key: String?, limit: Int) -> PostgresQuery {
        guard let key else {
            return """
                SELECT key, data::text AS data FROM records WHERE resource = \(resource)
                ORDER BY key LIMIT \(limit)
                """
        }
        return """
            SELECT key, data::text AS data FROM records WHERE resource = \(resource) AND key > \(key)
            ORDER BY key LIMIT \(limit)
            """
    }

    /// Implements ``SyncStore/pages(of:)``.
    public func pages(of resource: String) async throws(StoreError) -> [StoredPage] {
        let logger = logger
        return try await read { connection in
            try await connection.rows(
                """
                SELECT number, request, etag, last_modified, next, item_count FROM pages
                WHERE resource = \(resource) ORDER BY number
                """, logger
            ).map(Self.storedPage)
        }
    }

    /// Implements ``SyncStore/pages(of:scope:)``.
    public func pages(of resource: String, scope: String) async throws(StoreError) -> [StoredPage] {
        let logger = logger
        return try await read { connection in
            try await connection.rows(
                """
                SELECT number, request, etag, last_modified, next, item_count FROM pages
                WHERE resource = \(resource)
                  AND EXISTS (SELECT 1 FROM resources WHERE name = \(resource) AND validators_scope = \(scope))
                ORDER BY number
                """, logger
            ).map(Self.storedPage)
        }
    }

    private static func storedPage(_ row: PostgresRandomAccessRow) throws -> StoredPage {
        StoredPage(
            number: try row.get("number") ?? 0, request: try row.get("request") ?? "",
            validators: Validators(etag: try row.get("etag"), lastModified: try row.get("last_modified")),
            next: try row.get("next"), itemCount: try row.get("item_count") ?? 0)
    }

    /// Implements ``SyncStore/rotatedRefreshToken(for:configured:)``.
    public func rotatedRefreshToken(for auth: String, configured: String) async throws(StoreError) -> String? {
        let logger = logger
        return try await read { connection in
            try await connection.value(
                String.self,
                "SELECT refresh_token FROM oauth2_refresh_tokens WHERE auth = \(auth) AND configured = \(configured)",
                logger)
        }
    }

    /// Implements ``SyncStore/saveRotatedRefreshToken(_:for:configured:at:)``.
    public func saveRotatedRefreshToken(
        _ token: String, for auth: String, configured: String, at date: Date
    )
        async throws(StoreError)
    {
        let logger = logger
        let at = Timestamp.string(from: date)
        try await transaction(cancellable: false) { connection in
            try await connection.query(
                """
                INSERT INTO oauth2_refresh_tokens (auth, configured, refresh_token, rotated_at)
                VALUES (\(auth), \(configured), \(token), \(at)::timestamptz)
                ON CONFLICT (auth) DO UPDATE SET
                    configured = excluded.configured, refresh_token = excluded.refresh_token,
                    rotated_at = excluded.rotated_at
                """, logger: logger)
        }
    }
}
