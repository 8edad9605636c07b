import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/recordRun(_:continuing:cursor:)``.
    @discardableResult
    public func recordRun(
        _ sync: FinishedSync, continuing run: Int64?, cursor: (scope: String, cursor: SyncCursor)?
    ) async throws(StoreError) -> RecordedSync {
        try await record(sync, applying: nil, continuing: run, cursor: cursor)
    }

    /// Records `sync` as ``SyncStore/record(_:snapshot:continuing:cursor:)``
    /// says, with `snapshot`, a writer of this store, when it staged one.
    func record(
        _ sync: FinishedSync, applying snapshot: SQLiteSnapshotWriter?, continuing run: Int64?,
        cursor: (scope: String, cursor: SyncCursor)?
    ) async throws(StoreError) -> RecordedSync {
        let apply = sync.outcome == .success ? snapshot : nil
        if let snapshot, apply == nil {
            await snapshot.discard()
        }
        let staging = apply?.table
        let pages = apply?.kept.pages ?? []
        let unchanged = apply?.kept.unchanged ?? []
        // Applying a snapshot may be cancelled (rolled back, as at shutdown);
        // recording any other outcome, a cancellation included, always completes.
        let recorded = try await write(cancellable: staging != nil) { db -> RecordedSync in
            let began = sync.finishedAt ?? self.now()
            // The run's row first: the changes name it.
            let runID = try run ?? Self.insertRun(sync, finishedAt: began, db)
            var recorded = RecordedSync(finishedAt: began)
            var itemCount: Int?
            if let staging {
                let applied = try Self.applySnapshot(
                    from: staging, keeping: unchanged, to: sync.resource, run: runID, at: began, db)
                (recorded.changes, recorded.feed, itemCount) = (applied.changes, applied.feed, applied.count)
                recorded.columns = try self.keepTypedTable(of: sync.resource, feed: applied.feed, db)
                try Self.replacePages(of: sync.resource, with: pages, db)
                try db.execute(sql: "DROP TABLE temp.\(staging)")
            } else if run != nil, sync.outcome == .success {
                itemCount = try Int.fetchOne(
                    db, sql: "SELECT count(*) FROM records WHERE resource = ?", arguments: [sync.resource])
            }
            if let cursor, sync.outcome == .success {
                try Self.saveCursor(
                    cursor.cursor, of: sync.resource, scope: cursor.scope, at: Timestamp.string(from: began), db)
            }
            recorded.finishedAt = sync.finishedAt ?? self.now()
            recorded.itemCount = itemCount
            try Self.updateResource(after: sync, finishedAt: recorded.finishedAt, itemCount: itemCount, db)
            if run != nil {
                recorded.changes = try Self.finishRun(runID, of: sync, at: recorded.finishedAt, db)
            } else {
                try Self.finishRun(runID, of: sync, at: recorded.finishedAt, changes: recorded.changes, db)
            }
            if let since = sync.since {
                try db.execute(
                    sql: "UPDATE resources SET since = ?, since_token = ? WHERE name = ?",
                    arguments: [since.time.map(Timestamp.string(from:)), since.token, sync.resource])
            }
            return recorded
        }
        apply?.close()
        return recorded
    }

    /// Applies the staged records and the kept pages as the resource's new
    /// snapshot, writing a change for each record inserted, updated or deleted
    /// by run `run`; returns what changed, their seqs, and how many records it holds.
    private static func applySnapshot(
        from staging: String, keeping unchanged: [Int], to resource: String, run: Int64, at date: Date,
        _ db: Database
    ) throws -> (changes: SnapshotChanges, feed: ClosedRange<Int64>?, count: Int) {
        let now = Timestamp.string(from: date)
        // Gone: every record not staged, unless its page answered 304 (it is kept).
        let kept = "[" + unchanged.map(String.init).joined(separator: ",") + "]"
        let gone = """
            resource = ?
              AND (page IS NULL OR page NOT IN (SELECT value FROM json_each(?)))
              AND NOT EXISTS (SELECT 1 FROM temp.\(staging) AS s WHERE s.key = records.key)
            """
        try db.execute(
            sql: """
                INSERT INTO changes (resource, key, op, sync_run, at)
                SELECT resource, key, 'delete', ?, ? FROM records WHERE \(gone) ORDER BY key
                """,
            arguments: [run, now, resource, kept])
        let removed = db.changesCount
        try db.execute(sql: "DELETE FROM records WHERE \(gone)", arguments: [resource, kept])
        try db.execute(
            sql: """
                INSERT INTO changes (resource, key, op, sync_run, at)
                SELECT ?, s.key, 'insert', ?, ? FROM temp.\(staging) AS s
                WHERE NOT EXISTS (SELECT 1 FROM records AS r WHERE r.resource = ? AND r.key = s.key)
                ORDER BY s.key
                """,
            arguments: [resource, run, now, resource])
        let added = db.changesCount
        try db.execute(
            sql: """
                INSERT INTO changes (resource, key, op, sync_run, at)
                SELECT ?, s.key, 'update', ?, ? FROM temp.\(staging) AS s
                JOIN records AS r ON r.resource = ? AND r.key = s.key
                WHERE r.data IS NOT s.data
                ORDER BY s.key
                """,
            arguments: [resource, run, now, resource])
        let changed = db.changesCount
        let total = Int64(removed + added + changed)
        // One transaction's rows have consecutive seqs.
        let last = db.lastInsertedRowID
        // `WHERE true` resolves the parsing ambiguity of an upsert from a SELECT.
        // A record that moved to another page keeps its updated_at.
        try db.execute(
            sql: """
                INSERT INTO records (resource, key, data, updated_at, page)
                SELECT ?, key, data, ?, page FROM temp.\(staging) WHERE true
                ON CONFLICT (resource, key) DO UPDATE SET
                    data = excluded.data, page = excluded.page,
                    updated_at = CASE WHEN records.data IS NOT excluded.data THEN excluded.updated_at
                                      ELSE records.updated_at END
                WHERE records.data IS NOT excluded.data OR records.page IS NOT excluded.page
                """,
            arguments: [resource, now])
        let count =
            try Int.fetchOne(db, sql: "SELECT count(*) FROM records WHERE resource = ?", arguments: [resource]) ?? 0
        return (
            SnapshotChanges(added: added, changed: changed, removed: removed),
            total > 0 ? (last - total + 1)...last : nil, count
        )
    }

    private static func replacePages(of resource: String, with pages: [StoredPage], _ db: Database) throws {
        try db.execute(sql: "DELETE FROM pages WHERE resource = ?", arguments: [resource])
        let insert = try db.cachedStatement(
            sql: """
                INSERT INTO pages (resource, number, request, etag, last_modified, next, item_count)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        for page in pages {
            try insert.execute(arguments: [
                resource, page.number, page.request, page.validators.etag, page.validators.lastModified, page.next,
                page.itemCount,
            ])
        }
    }

    private static func updateResource(
        after sync: FinishedSync, finishedAt: Date, itemCount: Int?, _ db: Database
    ) throws {
        let started = Timestamp.string(from: sync.startedAt)
        let finished = Timestamp.string(from: finishedAt)
        switch sync.outcome {
        case .success, .notModified:
            let replacesValidators = itemCount != nil
            try db.executeCached(
                sql: """
                    INSERT INTO resources (name, state, last_success_at, last_attempt_at, etag, last_modified,
                                           validators_scope, item_count)
                    VALUES (?, ?, ?, ?, ?, ?, ?, coalesce(?, 0))
                    ON CONFLICT (name) DO UPDATE SET
                        state = excluded.state,
                        last_success_at = excluded.last_success_at,
                        last_attempt_at = excluded.last_attempt_at,
                        last_error = NULL, last_error_kind = NULL, last_error_status = NULL,
                        etag = CASE WHEN ? THEN excluded.etag ELSE coalesce(excluded.etag, etag) END,
                        last_modified = CASE WHEN ? THEN excluded.last_modified
                                             ELSE coalesce(excluded.last_modified, last_modified) END,
                        validators_scope = CASE WHEN ? THEN excluded.validators_scope ELSE validators_scope END,
                        item_count = coalesce(?, item_count)
                    """,
                arguments: [
                    sync.resource, sync.state.rawValue, finished, started,
                    sync.validators.etag, sync.validators.lastModified, sync.validators.scope, itemCount,
                    replacesValidators, replacesValidators, replacesValidators, itemCount,
                ])
        case .cancelled:
            // A cancelled sync says nothing about the resource but that it was tried.
            try db.executeCached(
                sql: """
                    INSERT INTO resources (name, last_attempt_at) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET last_attempt_at = excluded.last_attempt_at
                    """,
                arguments: [sync.resource, started])
        case .failed, .gaveUp, .offline, .rateLimited:
            try db.executeCached(
                sql: """
                    INSERT INTO resources (name, state, last_attempt_at, last_error, last_error_kind, last_error_status)
                    VALUES (?, ?, ?, ?, ?, ?)
                    ON CONFLICT (name) DO UPDATE SET
                        state = excluded.state,
                        last_attempt_at = excluded.last_attempt_at,
                        last_error = excluded.last_error,
                        last_error_kind = excluded.last_error_kind,
                        last_error_status = excluded.last_error_status
                    """,
                arguments: [
                    sync.resource, sync.state.rawValue, started,
                    sync.error?.message, sync.error?.kind.rawValue, sync.error?.status,
                ])
        }
    }

    /// Inserts the run's row, its changes counted later by ``finishRun(_:at:changes:_:)``,
    /// and prunes the resource's oldest runs; returns the row's id. A row of
    /// the resource left running before is marked cut off.
    private static func insertRun(_ sync: FinishedSync, finishedAt: Date, _ db: Database) throws -> Int64 {
        try cutOffRuns(of: sync.resource, at: Timestamp.string(from: finishedAt), db)
        try db.executeCached(
            sql: """
                INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                       bytes, wire_bytes, error, error_kind, error_status)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                sync.resource, sync.trigger.rawValue, Timestamp.string(from: sync.startedAt),
                Timestamp.string(from: finishedAt), sync.outcome.rawValue, sync.counts.attempts, sync.counts.pages,
                sync.counts.items, sync.counts.bytes, sync.counts.wireBytes, sync.error?.message,
                sync.error?.kind.rawValue, sync.error?.status,
            ])
        let id = db.lastInsertedRowID
        try db.executeCached(
            sql: """
                DELETE FROM sync_runs WHERE resource = ? AND id <= (
                    SELECT id FROM sync_runs WHERE resource = ? ORDER BY id DESC LIMIT 1 OFFSET ?)
                """,
            arguments: [sync.resource, sync.resource, SyncRunRow.keptPerResource])
        return id
    }

    /// Completes the row of an incremental sync whose pages counted their
    /// changes into it; returns the counts.
    private static func finishRun(
        _ id: Int64, of sync: FinishedSync, at finishedAt: Date, _ db: Database
    ) throws
        -> SnapshotChanges
    {
        try db.executeCached(
            sql: """
                UPDATE sync_runs SET finished_at = ?, outcome = ?, attempts = ?, pages = ?, items = ?, bytes = ?,
                    wire_bytes = ?, error = ?, error_kind = ?, error_status = ?, since = ?, since_token = ?
                WHERE id = ?
                """,
            arguments: [
                Timestamp.string(from: finishedAt), sync.outcome.rawValue, sync.counts.attempts, sync.counts.pages,
                sync.counts.items,
                sync.counts.bytes, sync.counts.wireBytes, sync.error?.message, sync.error?.kind.rawValue,
                sync.error?.status,
                sync.since?.time.map(Timestamp.string(from:)), sync.since?.token, id,
            ])
        let row = try Row.fetchOne(
            db.cachedStatement(sql: "SELECT added, changed, removed FROM sync_runs WHERE id = ?"), arguments: [id])
        return SnapshotChanges(added: row?["added"] ?? 0, changed: row?["changed"] ?? 0, removed: row?["removed"] ?? 0)
    }

    /// Completes the run's row: when it finished and what it changed.
    private static func finishRun(
        _ id: Int64, of sync: FinishedSync, at finishedAt: Date, changes: SnapshotChanges, _ db: Database
    ) throws {
        try db.executeCached(
            sql: """
                UPDATE sync_runs SET finished_at = ?, added = ?, changed = ?, removed = ?, since = ?, since_token = ?
                WHERE id = ?
                """,
            arguments: [
                Timestamp.string(from: finishedAt), changes.added, changes.changed, changes.removed,
                sync.since?.time.map(Timestamp.string(from:)), sync.since?.token, id,
            ])
    }
}

extension SQLiteStore {
    /// Implements ``SyncStore/runningRuns()``.
    public func runningRuns() async throws(StoreError) -> [SyncRunRow] {
        try await read { db in
            try SyncRunRow.fetchAll(db, sql: "SELECT * FROM sync_runs WHERE outcome IS NULL ORDER BY id")
        }
    }

    /// Implements ``SyncStore/cutOffRuns(of:)``.
    @discardableResult
    public func cutOffRuns(of resource: String) async throws(StoreError) -> Int {
        try await write { db in
            try Self.cutOffRuns(of: resource, at: Timestamp.string(from: self.now()), db)
        }
    }

    /// Marks the runs of `resource` still running as cut off, found at `now`;
    /// returns how many. Called where no sync of `resource` can be running:
    /// a sync holds its lock (or its lease) while it writes its row.
    @discardableResult
    static func cutOffRuns(of resource: String, at now: String, _ db: Database) throws -> Int {
        try db.executeCached(
            sql: """
                UPDATE sync_runs SET outcome = 'cancelled', finished_at = ?, error = ?, error_kind = 'cancelled'
                WHERE resource = ? AND outcome IS NULL
                """,
            arguments: [now, "\(resource): \(SyncRunRow.cutOffMessage)", resource])
        return db.changesCount
    }
}

extension Database {
    /// Runs `sql` with a statement from the connection's cache: the
    /// statements each sync runs are compiled once per connection, not once per sync.
    func executeCached(sql: String, arguments: StatementArguments) throws {
        try cachedStatement(sql: sql).execute(arguments: arguments)
    }
}
