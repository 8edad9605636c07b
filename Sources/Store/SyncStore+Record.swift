import Foundation
import GRDB

extension SyncStore {
    /// Records a finished sync in one transaction: the snapshot's diff (for a
    /// success), the resource's row and the run's row.
    ///
    /// A success with a snapshot replaces the resource's records: new and changed
    /// records are written, unchanged records are not touched, vanished keys are
    /// deleted. A failure writes no record: the previous snapshot stays whole. A
    /// `notModified` sync keeps the records and moves the resource's success time.
    ///
    /// Unless `sync` says when it finished, the finish time is taken in the
    /// transaction, after the snapshot is applied; changed records' `updated_at`
    /// is the time the apply began.
    ///
    /// - Returns: When the sync finished and what its snapshot changed.
    @discardableResult
    public func record(
        _ sync: FinishedSync, snapshot: SnapshotWriter? = nil
    ) async throws(StoreError) -> RecordedSync {
        let apply = sync.outcome == .success ? snapshot : nil
        if let snapshot, apply == nil {
            await snapshot.discard()
        }
        let staging = apply?.table
        let pages = apply?.pages ?? []
        let unchanged = apply?.unchangedPages ?? []
        // Applying a snapshot may be cancelled (rolled back, as at shutdown);
        // recording any other outcome, a cancellation included, always completes.
        let recorded = try await write(cancellable: staging != nil) { db -> RecordedSync in
            var changes = SnapshotChanges()
            var itemCount: Int?
            if let staging {
                (changes, itemCount) = try Self.applySnapshot(
                    from: staging, keeping: unchanged, to: sync.resource, at: sync.finishedAt ?? Date(), db)
                try Self.replacePages(of: sync.resource, with: pages, db)
                try db.execute(sql: "DROP TABLE temp.\(staging)")
            }
            let finishedAt = sync.finishedAt ?? Date()
            try Self.updateResource(after: sync, finishedAt: finishedAt, itemCount: itemCount, db)
            try Self.insertRun(sync, finishedAt: finishedAt, changes: changes, db)
            return RecordedSync(finishedAt: finishedAt, changes: changes)
        }
        apply?.close()
        return recorded
    }

    /// Applies the staged records and the kept pages as the resource's new
    /// snapshot; returns what changed and how many records it holds.
    private static func applySnapshot(
        from staging: String, keeping unchanged: [Int], to resource: String, at date: Date, _ db: Database
    ) throws -> (SnapshotChanges, Int) {
        let now = Timestamp.string(from: date)
        let count = "SELECT count(*) FROM records WHERE resource = ?"
        let before = try Int.fetchOne(db, sql: count, arguments: [resource]) ?? 0
        // Gone: every record not staged, unless its page answered 304 (it is kept).
        let kept = "[" + unchanged.map(String.init).joined(separator: ",") + "]"
        try db.execute(
            sql: """
                DELETE FROM records
                WHERE resource = ?
                  AND (page IS NULL OR page NOT IN (SELECT value FROM json_each(?)))
                  AND NOT EXISTS (SELECT 1 FROM temp.\(staging) AS s WHERE s.key = records.key)
                """,
            arguments: [resource, kept])
        let removed = db.changesCount
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
        // Written now: the new and the changed records (by the index on updated_at).
        let written =
            try Int.fetchOne(
                db, sql: "SELECT count(*) FROM records WHERE resource = ? AND updated_at = ?",
                arguments: [resource, now]) ?? 0
        let after = try Int.fetchOne(db, sql: count, arguments: [resource]) ?? 0
        let added = after - (before - removed)
        return (SnapshotChanges(added: added, changed: written - added, removed: removed), after)
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
            try db.execute(
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
            try db.execute(
                sql: """
                    INSERT INTO resources (name, last_attempt_at) VALUES (?, ?)
                    ON CONFLICT (name) DO UPDATE SET last_attempt_at = excluded.last_attempt_at
                    """,
                arguments: [sync.resource, started])
        case .failed, .gaveUp, .offline, .rateLimited:
            try db.execute(
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
                    sync.error?.message, sync.error?.kind, sync.error?.status,
                ])
        }
    }

    private static func insertRun(
        _ sync: FinishedSync, finishedAt: Date, changes: SnapshotChanges, _ db: Database
    ) throws {
        try db.execute(
            sql: """
                INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                       bytes, wire_bytes, error, error_kind, error_status, added, changed, removed)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                sync.resource, sync.trigger.rawValue, Timestamp.string(from: sync.startedAt),
                Timestamp.string(from: finishedAt), sync.outcome.rawValue, sync.attempts, sync.pages,
                sync.items, sync.bytes, sync.wireBytes, sync.error?.message, sync.error?.kind, sync.error?.status,
                changes.added, changes.changed, changes.removed,
            ])
        try db.execute(
            sql: """
                DELETE FROM sync_runs WHERE resource = ? AND id <= (
                    SELECT id FROM sync_runs WHERE resource = ? ORDER BY id DESC LIMIT 1 OFFSET ?)
                """,
            arguments: [sync.resource, sync.resource, runsKeptPerResource])
    }
}
