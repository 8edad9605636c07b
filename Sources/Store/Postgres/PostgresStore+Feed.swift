import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    // MARK: Incremental resources

    /// Implements ``SyncStore/cursor(of:scope:)``.
    public func cursor(of resource: String, scope: String) async throws(StoreError) -> SyncCursor? {
        let logger = logger
        return try await read { connection -> SyncCursor? in
            guard
                let row = try await connection.rows(
                    """
                    SELECT request, \(unescaped: iso("since")), since_token, since_value, walk, walk_pages,
                           \(unescaped: iso("walk_sent")), walk_sent_token, walk_sent_value,
                           \(unescaped: iso("walk_largest")), walk_largest_token, walk_largest_value,
                           walk_resume_value, walk_run, \(unescaped: iso("full_at"))
                    FROM cursors WHERE resource = \(resource) AND scope = \(scope)
                    """, logger
                ).first
            else { return nil }
            // The whole value, else (written by 0.1.0) the time or the token.
            func since(_ column: String, hasOldColumns: Bool = true) throws -> SinceState? {
                if let stored = try row.get(column + "_value", as: String.self) {
                    return try SinceState(stored: stored)
                }
                guard hasOldColumns else { return nil }
                let time = try row.get(column, as: String.self).flatMap(Timestamp.time(from:))
                return SinceState(time: time, token: try row.get(column + "_token", as: String.self))
            }
            var cursor = SyncCursor(
                request: try row.get("request") ?? "", since: try since("since"), fullAt: try row.date("full_at"))
            if let next = try row.get("walk", as: String.self) {
                cursor.walk = SyncCursor.Walk(
                    next: next, pages: try row.get("walk_pages") ?? 0, sent: try since("walk_sent"),
                    largest: try since("walk_largest"), resume: try since("walk_resume", hasOldColumns: false),
                    run: try row.get("walk_run") ?? 0)
            }
            return cursor
        }
    }

    static func saveCursor(
        _ cursor: SyncCursor, of resource: String, scope: String, at date: Date, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        let since = cursor.since?.time.map(Timestamp.string(from:))
        let walk = cursor.walk
        let sent = walk?.sent?.time.map(Timestamp.string(from:))
        let largest = walk?.largest?.time.map(Timestamp.string(from:))
        let fullAt = cursor.fullAt.map(Timestamp.string(from:))
        try await connection.query(
            """
            INSERT INTO cursors (resource, scope, request, since, since_token, since_value, walk, walk_pages,
                                 walk_sent, walk_sent_token, walk_sent_value, walk_largest, walk_largest_token,
                                 walk_largest_value, walk_resume_value, walk_run, full_at, updated_at)
            VALUES (\(resource), \(scope), \(cursor.request), \(since)::timestamptz, \(cursor.since?.token),
                    \(cursor.since?.stored), \(walk?.next), \(walk?.pages), \(sent)::timestamptz, \(walk?.sent?.token),
                    \(walk?.sent?.stored), \(largest)::timestamptz, \(walk?.largest?.token), \(walk?.largest?.stored),
                    \(walk?.resume?.stored), \(walk?.run), \(fullAt)::timestamptz,
                    \(Timestamp.string(from: date))::timestamptz)
            ON CONFLICT (resource, scope) DO UPDATE SET
                request = excluded.request, since = excluded.since, since_token = excluded.since_token,
                since_value = excluded.since_value, walk = excluded.walk, walk_pages = excluded.walk_pages,
                walk_sent = excluded.walk_sent, walk_sent_token = excluded.walk_sent_token,
                walk_sent_value = excluded.walk_sent_value, walk_largest = excluded.walk_largest,
                walk_largest_token = excluded.walk_largest_token, walk_largest_value = excluded.walk_largest_value,
                walk_resume_value = excluded.walk_resume_value, walk_run = excluded.walk_run,
                full_at = excluded.full_at, updated_at = excluded.updated_at
            """, logger: logger)
        // A token stays out of `resources`, which shows it shortened once its sync is recorded.
        if cursor.since?.token == nil {
            try await connection.query(
                "UPDATE resources SET since = \(since)::timestamptz WHERE name = \(resource)", logger: logger)
        }
    }

    /// Implements ``SyncStore/applyPage(_:)``.
    public func applyPage(_ page: IncrementalPage) async throws(StoreError) -> AppliedPage {
        let logger = logger
        return try await transaction { [self] connection in
            try await fence(page.resource, connection)
            let date = now()
            let now = Timestamp.string(from: date)
            let run: Int64
            if let existing = page.run {
                run = existing
            } else {
                // Running (no outcome, no end) until the sync is recorded; a row of the
                // resource left running before is cut off (docs/schema.md#running-finished-and-cut-off-rows).
                try await Self.cutOffRuns(of: page.resource, at: now, connection, logger)
                run =
                    try await connection.value(
                        Int64.self,
                        """
                        INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages,
                                               items, bytes, wire_bytes, agent)
                        VALUES (\(page.resource), \(page.trigger.rawValue),
                                \(Timestamp.string(from: page.startedAt))::timestamptz, NULL, NULL, 1, 0, 0, 0, 0,
                                \(leases?.agent))
                        RETURNING id
                        """, logger) ?? 0
            }
            var seq = try await Self.lockFeed(connection, logger)
            let firstSeq = seq + 1
            var counts = SnapshotChanges()
            for change in IncrementalChange.lastOfEachKey(page.changes) {
                let op: ChangeOperation
                switch change {
                case .upsert(let record):
                    // One statement: the record is written only when its data differs.
                    let row = try await connection.rows(
                        """
                        WITH before AS (
                            SELECT data FROM records WHERE resource = \(page.resource) AND key = \(record.key)
                        ), written AS (
                            INSERT INTO records AS r (resource, key, data, updated_at, page)
                            VALUES (\(page.resource), \(record.key), \(record.data)::jsonb, \(now)::timestamptz, NULL)
                            ON CONFLICT (resource, key) DO UPDATE SET
                                data = excluded.data, updated_at = excluded.updated_at, page = NULL
                            WHERE r.data IS DISTINCT FROM excluded.data
                            RETURNING 1
                        )
                        SELECT (SELECT count(*) FROM written) AS written, (SELECT count(*) FROM before) AS existed
                        """, logger
                    ).first
                    guard try row?.get("written", as: Int.self) == 1 else { continue }
                    if try row?.get("existed", as: Int.self) == 1 {
                        op = .update
                        counts.changed += 1
                    } else {
                        op = .insert
                        counts.added += 1
                    }
                case .delete(let key):
                    let deleted =
                        try await connection.value(
                            Int.self,
                            """
                            WITH gone AS (
                                DELETE FROM records WHERE resource = \(page.resource) AND key = \(key) RETURNING 1
                            )
                            SELECT count(*) FROM gone
                            """, logger) ?? 0
                    guard deleted > 0 else { continue }
                    op = .delete
                    counts.removed += 1
                }
                seq += 1
                try await connection.query(
                    """
                    INSERT INTO changes (seq, resource, key, op, sync_run, at)
                    VALUES (\(seq), \(page.resource), \(change.key), \(op.rawValue), \(run), \(now)::timestamptz)
                    """, logger: logger)
            }
            try await connection.query("UPDATE feed_state SET last_seq = \(seq)", logger: logger)
            let feed = seq >= firstSeq ? firstSeq...seq : nil
            let columns = try await keepTypedTables(of: page.resource, changes: feed, connection)
            try await connection.query(
                """
                UPDATE sync_runs SET added = added + \(counts.added), changed = changed + \(counts.changed),
                    removed = removed + \(counts.removed)
                WHERE id = \(run)
                """, logger: logger)
            var cursor = page.cursor
            cursor.walk?.run = run
            try await Self.saveCursor(cursor, of: page.resource, scope: page.scope, at: date, connection, logger)
            return AppliedPage(run: run, changes: counts, feed: feed, columns: columns)
        }
    }

    // MARK: The change feed

    /// Implements ``SyncStore/changes(of:after:limit:)``.
    public func changes(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage {
        let logger = logger
        return try await transaction(readOnly: true) { connection in
            let changes =
                if let resource {
                    try await Self.changeRows(
                        connection,
                        """
                        SELECT seq, resource, key, op, sync_run, \(unescaped: iso("at")) FROM changes
                        WHERE resource = \(resource) AND seq > \(seq) ORDER BY seq LIMIT \(limit)
                        """, logger)
                } else {
                    try await Self.changeRows(
                        connection,
                        """
                        SELECT seq, resource, key, op, sync_run, \(unescaped: iso("at")) FROM changes
                        WHERE seq > \(seq) ORDER BY seq LIMIT \(limit)
                        """, logger)
                }
            // As in SQLiteStore: a short page holds every change of this snapshot of
            // the feed; the first seq kept tells whether any after `seq` was pruned.
            let last = try await Self.lastSeq(connection, logger)
            let next = changes.count < limit ? max(seq, last) : changes.last?.seq ?? seq
            let firstKept = try await connection.value(Int64.self, "SELECT min(seq) FROM changes", logger) ?? last + 1
            return ChangePage(changes: changes, next: next, missed: firstKept > seq + 1)
        }
    }

    /// Implements ``SyncStore/latestChanges(of:count:)``.
    public func latestChanges(of resource: String?, count: Int) async throws(StoreError) -> [ChangeRow] {
        let logger = logger
        return try await read { connection in
            let newest =
                if let resource {
                    try await Self.changeRows(
                        connection,
                        """
                        SELECT seq, resource, key, op, sync_run, \(unescaped: iso("at")) FROM changes
                        WHERE resource = \(resource) ORDER BY seq DESC LIMIT \(count)
                        """, logger)
                } else {
                    try await Self.changeRows(
                        connection,
                        """
                        SELECT seq, resource, key, op, sync_run, \(unescaped: iso("at")) FROM changes
                        ORDER BY seq DESC LIMIT \(count)
                        """, logger)
                }
            return newest.reversed()
        }
    }

    private static func changeRows(
        _ connection: PostgresConnection, _ query: PostgresQuery, _ logger: Logger
    ) async throws -> [ChangeRow] {
        try await connection.rows(query, logger).map { row in
            ChangeRow(
                seq: try row.get("seq") ?? 0, resource: try row.get("resource") ?? "", key: try row.get("key") ?? "",
                op: ChangeOperation(rawValue: try row.get("op") ?? "") ?? .update, syncRun: try row.get("sync_run"),
                at: try row.date("at") ?? .distantPast)
        }
    }

    /// Implements ``SyncStore/lastChangeSeq()``.
    public func lastChangeSeq() async throws(StoreError) -> Int64 {
        let logger = logger
        return try await read { connection in try await Self.lastSeq(connection, logger) }
    }

    /// The newest seq given, pruned or not, as committed.
    private static func lastSeq(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        try await connection.value(Int64.self, "SELECT last_seq FROM feed_state", logger) ?? 0
    }

    /// Implements ``SyncStore/pruneChanges(before:keepingAtMost:batch:)``.
    public func pruneChanges(before: Date, keepingAtMost maxRows: Int, batch: Int) async throws(StoreError) -> Int {
        let cutoff = Timestamp.string(from: before)
        let logger = logger
        return try await transaction { connection in
            guard let first = try await connection.value(Int64.self, "SELECT min(seq) FROM changes", logger) else {
                return 0
            }
            let limit = first + Int64(batch)
            let firstRecent =
                try await connection.value(
                    Int64.self,
                    """
                    SELECT seq FROM changes WHERE seq < \(limit) AND at >= \(cutoff)::timestamptz ORDER BY seq LIMIT 1
                    """, logger) ?? limit
            let firstWithinCap = try await Self.lastSeq(connection, logger) - Int64(maxRows) + 1
            let end = min(max(firstRecent, firstWithinCap), limit)
            guard end > first else { return 0 }
            return try await connection.value(
                Int.self, "WITH gone AS (DELETE FROM changes WHERE seq < \(end) RETURNING 1) SELECT count(*) FROM gone",
                logger) ?? 0
        }
    }
}
