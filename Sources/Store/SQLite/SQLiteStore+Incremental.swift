import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/cursor(of:scope:)``.
    public func cursor(of resource: String, scope: String) async throws(StoreError) -> SyncCursor? {
        try await read { db in try Self.cursor(of: resource, scope: scope, db) }
    }

    /// Implements ``SyncStore/applyPage(_:)``.
    public func applyPage(_ page: IncrementalPage) async throws(StoreError) -> AppliedPage {
        try await write { db in
            let now = Timestamp.string(from: self.now())
            let run = try page.run ?? Self.insertRunningRun(page, at: now, db)
            let select = try db.cachedStatement(sql: "SELECT data FROM records WHERE resource = ? AND key = ?")
            let insert = try db.cachedStatement(
                sql: "INSERT INTO records (resource, key, data, updated_at, page) VALUES (?, ?, ?, ?, NULL)")
            let update = try db.cachedStatement(
                sql: "UPDATE records SET data = ?, updated_at = ?, page = NULL WHERE resource = ? AND key = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM records WHERE resource = ? AND key = ?")
            let feed = try db.cachedStatement(
                sql: "INSERT INTO changes (resource, key, op, sync_run, at) VALUES (?, ?, ?, ?, ?)")
            var counts = SnapshotChanges()
            var written: Int64 = 0
            for change in IncrementalChange.lastOfEachKey(page.changes) {
                let op: ChangeOperation
                switch change {
                case .upsert(let record):
                    let before = try String.fetchOne(select, arguments: [page.resource, record.key])
                    if before == record.data { continue }
                    if before == nil {
                        try insert.execute(arguments: [page.resource, record.key, record.data, now])
                        op = .insert
                        counts.added += 1
                    } else {
                        try update.execute(arguments: [record.data, now, page.resource, record.key])
                        op = .update
                        counts.changed += 1
                    }
                case .delete(let key):
                    try delete.execute(arguments: [page.resource, key])
                    guard db.changesCount > 0 else { continue }
                    op = .delete
                    counts.removed += 1
                }
                try feed.execute(arguments: [page.resource, change.key, op.rawValue, run, now])
                written += 1
            }
            let lastSeq = db.lastInsertedRowID
            try db.execute(
                sql:
                    "UPDATE sync_runs SET added = added + ?, changed = changed + ?, removed = removed + ? WHERE id = ?",
                arguments: [counts.added, counts.changed, counts.removed, run])
            var cursor = page.cursor
            cursor.walk?.run = run
            try Self.saveCursor(cursor, of: page.resource, scope: page.scope, at: now, db)
            let seqs = written > 0 ? (lastSeq - written + 1)...lastSeq : nil
            var applied = AppliedPage(run: run, changes: counts, feed: seqs)
            applied.columns = try self.keepTypedTable(of: page.resource, feed: seqs, db)
            return applied
        }
    }

    /// The run row of an incremental sync, running (no outcome, no end) until
    /// the sync is recorded; a row of the resource left running before is
    /// marked cut off (docs/schema.md#running-finished-and-cut-off-rows).
    private static func insertRunningRun(_ page: IncrementalPage, at now: String, _ db: Database) throws -> Int64 {
        try cutOffRuns(of: page.resource, at: now, db)
        try db.execute(
            sql: """
                INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                       bytes, wire_bytes)
                VALUES (?, ?, ?, NULL, NULL, 1, 0, 0, 0, 0)
                """,
            arguments: [page.resource, page.trigger.rawValue, Timestamp.string(from: page.startedAt)])
        return db.lastInsertedRowID
    }

    static func cursor(of resource: String, scope: String, _ db: Database) throws -> SyncCursor? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM cursors WHERE resource = ? AND scope = ?", arguments: [resource, scope])
        else { return nil }
        func date(_ column: String) -> Date? { (row[column] as String?).flatMap(Timestamp.date(from:)) }
        // The whole value, else (written by 0.1.0) the time or the token.
        func since(_ column: String, hasOldColumns: Bool = true) throws -> SinceState? {
            if let stored = row[column + "_value"] as String? { return try SinceState(stored: stored) }
            guard hasOldColumns else { return nil }
            return SinceState(
                time: (row[column] as String?).flatMap(Timestamp.time(from:)), token: row[column + "_token"])
        }
        var cursor = SyncCursor(request: row["request"], since: try since("since"), fullAt: date("full_at"))
        if let next = row["walk"] as String? {
            cursor.walk = SyncCursor.Walk(
                next: next, pages: row["walk_pages"] ?? 0, sent: try since("walk_sent"),
                largest: try since("walk_largest"), resume: try since("walk_resume", hasOldColumns: false),
                run: row["walk_run"] ?? 0)
        }
        return cursor
    }

    static func saveCursor(
        _ cursor: SyncCursor, of resource: String, scope: String, at now: String, _ db: Database
    )
        throws
    {
        let since = cursor.since?.time.map(Timestamp.string(from:))
        let walk = cursor.walk
        try db.execute(
            sql: """
                INSERT INTO cursors (resource, scope, request, since, since_token, since_value, walk, walk_pages,
                                     walk_sent, walk_sent_token, walk_sent_value, walk_largest, walk_largest_token,
                                     walk_largest_value, walk_resume_value, walk_run, full_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (resource, scope) DO UPDATE SET
                    request = excluded.request, since = excluded.since, since_token = excluded.since_token,
                    since_value = excluded.since_value, walk = excluded.walk, walk_pages = excluded.walk_pages,
                    walk_sent = excluded.walk_sent, walk_sent_token = excluded.walk_sent_token,
                    walk_sent_value = excluded.walk_sent_value, walk_largest = excluded.walk_largest,
                    walk_largest_token = excluded.walk_largest_token, walk_largest_value = excluded.walk_largest_value,
                    walk_resume_value = excluded.walk_resume_value, walk_run = excluded.walk_run,
                    full_at = excluded.full_at, updated_at = excluded.updated_at
                """,
            arguments: [
                resource, scope, cursor.request, since, cursor.since?.token, cursor.since?.stored, walk?.next,
                walk?.pages, walk?.sent?.time.map(Timestamp.string(from:)), walk?.sent?.token, walk?.sent?.stored,
                walk?.largest?.time.map(Timestamp.string(from:)), walk?.largest?.token, walk?.largest?.stored,
                walk?.resume?.stored, walk?.run, cursor.fullAt.map(Timestamp.string(from:)), now,
            ])
        // A token stays out of `resources`, which shows it shortened once its sync is recorded.
        if cursor.since?.token == nil {
            try db.execute(sql: "UPDATE resources SET since = ? WHERE name = ?", arguments: [since, resource])
        }
    }
}
