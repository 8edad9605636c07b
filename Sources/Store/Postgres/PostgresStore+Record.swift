import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
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
        _ sync: FinishedSync, applying snapshot: PostgresSnapshotWriter?, continuing run: Int64?,
        cursor: (scope: String, cursor: SyncCursor)?
    ) async throws(StoreError) -> RecordedSync {
        let apply = sync.outcome == .success ? snapshot : nil
        if let snapshot, apply == nil {
            await snapshot.discard()
        }
        let staged = apply.map { (id: $0.id, kept: $0.kept, count: $0.stagedCount) }
        if let staged, staged.count >= Self.vacuumFloor { await vacuumDeadRecords() }
        let logger = logger
        // Applying a snapshot may be cancelled (rolled back, as at shutdown);
        // recording any other outcome, a cancellation included, always completes.
        let recorded = try await transaction(
            cancellable: staged != nil, patience: staged == nil ? Self.patience : Self.applyPatience
        ) { [self] connection -> RecordedSync in
            try await fence(sync.resource, connection)
            let began = sync.finishedAt ?? now()
            // The run's row first: the changes name it.
            let runID: Int64
            if let run {
                runID = run
            } else {
                runID = try await Self.insertRun(sync, finishedAt: began, agent: leases?.agent, connection, logger)
            }
            var recorded = RecordedSync(finishedAt: began)
            var itemCount: Int?
            if let staged {
                // A snapshot whose row is gone lost what it staged (the server crashed:
                // the staging tables are unlogged; or it was abandoned for a day): it is
                // not applied, and the sync starts again.
                let present = try await connection.value(
                    Bool.self,
                    "WITH gone AS (DELETE FROM snapshots WHERE id = \(staged.id) RETURNING 1) SELECT true FROM gone",
                    logger)
                guard present == true else {
                    throw StoreError(
                        .io, "\(sync.resource): the staged snapshot is gone (PostgreSQL restarted?); syncing again",
                        isTransient: true)
                }
                let applied = try await Self.applySnapshot(
                    staged.id, keeping: staged.kept.unchanged, to: sync.resource, run: runID, at: began,
                    staged: staged.count, connection, logger)
                (recorded.changes, recorded.feed, itemCount) = (applied.changes, applied.feed, applied.count)
                // The apply holds the feed's lock: the typed tables change with the records.
                recorded.columns = try await keepTypedTables(of: sync.resource, changes: applied.feed, connection)
                let typed = typedTables.withLock { $0[sync.resource]?.table.tableNames } ?? []
                try await Self.analyze(
                    ["records", "changes"] + typed, changed: applied.feed?.count ?? 0, connection, logger)
                try await Self.replacePages(of: sync.resource, with: staged.kept.pages, connection, logger)
                try await connection.query("DELETE FROM staging WHERE snapshot = \(staged.id)", logger: logger)
            } else if run != nil, sync.outcome == .success {
                itemCount = try await connection.value(
                    Int.self, "SELECT count(*) FROM records WHERE resource = \(sync.resource)", logger)
            }
            if let cursor, sync.outcome == .success {
                try await Self.saveCursor(
                    cursor.cursor, of: sync.resource, scope: cursor.scope, at: began, connection, logger)
            }
            recorded.finishedAt = sync.finishedAt ?? now()
            recorded.itemCount = itemCount
            try await Self.updateResource(
                after: sync, finishedAt: recorded.finishedAt, itemCount: itemCount, connection, logger)
            let finished = Timestamp.string(from: recorded.finishedAt)
            let since = sync.since?.time.map(Timestamp.string(from:))
            let token = sync.since?.token
            if run != nil {
                try await connection.query(
                    """
                    UPDATE sync_runs SET finished_at = \(finished)::timestamptz, outcome = \(sync.outcome.rawValue),
                        attempts = \(sync.counts.attempts), pages = \(sync.counts.pages), items = \(sync.counts.items),
                        bytes = \(sync.counts.bytes), wire_bytes = \(sync.counts.wireBytes), error = \(sync.error?.message),
                        error_kind = \(sync.error?.kind.rawValue), error_status = \(sync.error?.status),
                        since = \(since)::timestamptz, since_token = \(token)
                    WHERE id = \(runID)
                    """, logger: logger)
                let row = try await connection.rows(
                    "SELECT added, changed, removed FROM sync_runs WHERE id = \(runID)", logger
                ).first
                recorded.changes = SnapshotChanges(
                    added: try row?.get("added") ?? 0, changed: try row?.get("changed") ?? 0,
                    removed: try row?.get("removed") ?? 0)
            } else {
                let changes = recorded.changes
                try await connection.query(
                    """
                    UPDATE sync_runs SET finished_at = \(finished)::timestamptz, added = \(changes.added),
                        changed = \(changes.changed), removed = \(changes.removed), since = \(since)::timestamptz,
                        since_token = \(token)
                    WHERE id = \(runID)
                    """, logger: logger)
            }
            if sync.since != nil {
                try await connection.query(
                    """
                    UPDATE resources SET since = \(since)::timestamptz, since_token = \(token)
                    WHERE name = \(sync.resource)
                    """, logger: logger)
            }
            return recorded
        }
        apply?.close()
        if let staged, staged.count >= Self.vacuumFloor {
            // The records too when the apply replaced a tenth of them (autovacuum's own threshold
            // is a fifth): a vacuum of a large table for a few changes would cost more than it frees.
            let replaced = recorded.feed?.count ?? 0
            let held = replaced >= Self.vacuumFloor ? await recordsHeld() : .max
            await vacuum(replaced >= held / 10 ? ["staging", "records"] : ["staging"])
        }
        return recorded
    }

    /// The fewest staged rows, or records changed, a removal or an apply must
    /// leave dead before it vacuums their table.
    static let vacuumFloor = 1_000

    /// Vacuums `records` before a large apply when it holds many dead rows:
    /// those of an apply that never committed (a kill, a crash, a stop in the
    /// middle), which no vacuum after an apply came to free. The apply then
    /// writes its new versions into their room instead of growing the table
    /// (docs/fleet.md#staged-pages). The statistics' count of dead rows is
    /// PostgreSQL's estimate, as autovacuum's; at least ``vacuumFloor`` and a
    /// tenth of the rows held, as after an apply.
    func vacuumDeadRecords() async {
        let logger = logger
        let row = try? await read { connection in
            try await connection.rows(
                """
                SELECT n_dead_tup::float8 AS dead, c.reltuples::float8 AS held
                FROM pg_stat_user_tables AS s JOIN pg_class AS c ON c.oid = s.relid
                WHERE s.relid = 'records'::regclass
                """, logger
            ).first
        }
        guard let row, let dead = try? row.get("dead", as: Double.self),
            let held = try? row.get("held", as: Double.self),
            dead >= Double(Self.vacuumFloor), dead >= held / 10
        else { return }
        await vacuum(["records"])
    }

    /// How many rows the planner believes `records` holds (0 if unknown).
    private func recordsHeld() async -> Int {
        let logger = logger
        let tuples = try? await read { connection in
            try await connection.value(
                Double.self, "SELECT reltuples::float8 FROM pg_class WHERE oid = 'records'::regclass", logger)
        }
        return (tuples ?? nil).flatMap { Int(exactly: $0.rounded(.down)) } ?? 0
    }

    /// Vacuums `tables` after a large apply or removal (docs/fleet.md#staged-pages):
    /// the staged rows it deleted, and the records it replaced, leave dead tuples
    /// that would otherwise wait for autovacuum, while the next syncs append
    /// to the tables' ends. A table another vacuum holds is skipped; a vacuum
    /// that fails or is cancelled (a stop) changes nothing and is left to
    /// autovacuum.
    ///
    /// An empty `staging` is truncated instead, when no other session holds
    /// it (``truncateStagingIfEmpty(patience:cancellable:)``): a vacuum keeps the pages the table
    /// grew to while several syncs staged at once.
    func vacuum(_ tables: [String]) async {
        var tables = tables
        if tables.contains("staging"), await truncateStagingIfEmpty() { tables.removeAll { $0 == "staging" } }
        guard !tables.isEmpty else { return }
        let logger = logger
        let sql = "VACUUM (SKIP_LOCKED) " + tables.map(PostgresTypedTableSQL.name).joined(separator: ", ")
        do {
            try await read { connection -> Void in
                try await connection.query(PostgresQuery(unsafeSQL: sql), logger: logger)
            }
        } catch {
            logger.debug("\(sql) after an apply: \(error)")
        }
    }

    /// Truncates `staging` if it holds no row, which gives its pages and its
    /// index's back to the file system; returns whether it did. The lock is
    /// asked without waiting: a sync staging or applying, in this agent or
    /// another of a fleet, or autovacuum, holds the table, and then nothing
    /// is done. Under the lock no sync can stage a row, so the table checked
    /// empty stays empty until the truncation commits. Tried after a large
    /// apply or removal, as the store opens, and as it closes.
    func truncateStagingIfEmpty(patience: Duration = PostgresStore.patience, cancellable: Bool = true) async -> Bool {
        let logger = logger
        do {
            return try await transaction(cancellable: cancellable, patience: patience) { connection in
                try await connection.query("LOCK TABLE staging IN ACCESS EXCLUSIVE MODE NOWAIT", logger: logger)
                let empty = try await connection.value(Bool.self, "SELECT NOT EXISTS (SELECT 1 FROM staging)", logger)
                guard empty == true else { return false }
                try await connection.query("TRUNCATE staging", logger: logger)
                return true
            }
        } catch {
            logger.debug("truncating an empty staging: \(error)")
            return false
        }
    }

    /// The fewest rows a write must change before it analyzes a table.
    static let analyzeFloor = 10_000

    /// Analyzes those of `tables` (of the store's schema) of which a write
    /// changed a large share, `changed` rows: at least ``analyzeFloor`` and a
    /// tenth of what the planner believes they hold (autovacuum's own
    /// threshold), or a table it never analyzed. The planner then plans the
    /// next sync's diff for the tables as they are, not as they were before
    /// a large first fill, which autovacuum may take minutes to notice
    /// (docs/fleet.md#planner-statistics). Run in the writing transaction,
    /// which sees its own rows; it takes no lock that holds up readers or writers.
    static func analyze(
        _ tables: [String], changed: Int, _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        guard changed >= analyzeFloor else { return }
        let rows = try await connection.rows(
            """
            SELECT c.relname::text AS name, c.reltuples::float8 AS tuples
            FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relkind = 'r' AND c.relname = ANY(\(tables)::text[])
            """, logger)
        for row in rows {
            guard let name = try row.get("name", as: String.self) else { continue }
            let tuples = try row.get("tuples", as: Double.self) ?? -1
            guard tuples < 0 || Double(changed) >= tuples / 10 else { continue }
            try await connection.query(
                PostgresQuery(unsafeSQL: "ANALYZE \(PostgresTypedTableSQL.name(name))"), logger: logger)
        }
    }

    /// Takes the feed's lock, held until the transaction ends, and returns the newest seq given.
    static func lockFeed(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        try await connection.value(Int64.self, "SELECT last_seq FROM feed_state FOR UPDATE", logger) ?? 0
    }

    /// Applies snapshot `id` as the resource's new records, writing a change for
    /// each record inserted, updated or deleted by run `run`; returns what
    /// changed, their seqs, and how many records the resource holds.
    private static func applySnapshot(
        _ id: Int64, keeping unchanged: [Int], to resource: String, run: Int64, at date: Date, staged: Int,
        _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> (changes: SnapshotChanges, feed: ClosedRange<Int64>?, count: Int) {
        let now = Timestamp.string(from: date)
        let first = try await lockFeed(connection, logger) + 1
        // The diff joins the staged rows with the records: planned for the staging table as it is now.
        try await analyze(["staging"], changed: staged, connection, logger)
        let holdsRecords =
            try await connection.value(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM records WHERE resource = \(resource))", logger) ?? true
        if !holdsRecords {
            return try await applyFirstSnapshot(id, to: resource, run: run, now: now, first: first, connection, logger)
        }
        // Gone: every record not staged, unless its page answered 304 (it is kept).
        let removed =
            try await connection.value(
                Int.self,
                """
                WITH gone AS (
                    DELETE FROM records AS r WHERE r.resource = \(resource)
                      AND (r.page IS NULL OR r.page <> ALL(\(unchanged)::integer[]))
                      AND NOT EXISTS (SELECT 1 FROM staging AS s WHERE s.snapshot = \(id) AND s.key = r.key)
                    RETURNING r.key
                ), fed AS (
                    INSERT INTO changes (seq, resource, key, op, sync_run, at)
                    SELECT \(first - 1) + row_number() OVER (ORDER BY key COLLATE "C"), \(resource), key, 'delete',
                           \(run), \(now)::timestamptz
                    FROM gone
                    RETURNING 1
                )
                SELECT count(*) FROM fed
                """, logger) ?? 0
        let added =
            try await connection.value(
                Int.self,
                """
                WITH fed AS (
                    INSERT INTO changes (seq, resource, key, op, sync_run, at)
                    SELECT \(first - 1 + Int64(removed)) + row_number() OVER (ORDER BY s.key COLLATE "C"),
                           \(resource), s.key, 'insert', \(run), \(now)::timestamptz
                    FROM staging AS s
                    WHERE s.snapshot = \(id)
                      AND NOT EXISTS (SELECT 1 FROM records AS r WHERE r.resource = \(resource) AND r.key = s.key)
                    RETURNING 1
                )
                SELECT count(*) FROM fed
                """, logger) ?? 0
        let changed =
            try await connection.value(
                Int.self,
                """
                WITH fed AS (
                    INSERT INTO changes (seq, resource, key, op, sync_run, at)
                    SELECT \(first - 1 + Int64(removed + added)) + row_number() OVER (ORDER BY s.key COLLATE "C"),
                           \(resource), s.key, 'update', \(run), \(now)::timestamptz
                    FROM staging AS s
                    JOIN records AS r ON r.resource = \(resource) AND r.key = s.key
                    WHERE s.snapshot = \(id) AND r.data IS DISTINCT FROM s.data::jsonb
                    RETURNING 1
                )
                SELECT count(*) FROM fed
                """, logger) ?? 0
        let total = Int64(removed + added + changed)
        try await connection.query("UPDATE feed_state SET last_seq = \(first - 1 + total)", logger: logger)
        // A record that moved to another page keeps its updated_at.
        try await connection.query(
            """
            INSERT INTO records AS r (resource, key, data, updated_at, page)
            SELECT \(resource), key, data::jsonb, \(now)::timestamptz, page FROM staging WHERE snapshot = \(id)
            ON CONFLICT (resource, key) DO UPDATE SET
                data = excluded.data, page = excluded.page,
                updated_at = CASE WHEN r.data IS DISTINCT FROM excluded.data THEN excluded.updated_at
                                  ELSE r.updated_at END
            WHERE r.data IS DISTINCT FROM excluded.data OR r.page IS DISTINCT FROM excluded.page
            """, logger: logger)
        let count =
            try await connection.value(
                Int.self, "SELECT count(*) FROM records WHERE resource = \(resource)", logger) ?? 0
        return (
            SnapshotChanges(added: added, changed: changed, removed: removed),
            total > 0 ? first...(first + total - 1) : nil, count
        )
    }

    /// Applies snapshot `id` to a resource that holds no records (its first
    /// sync, as a rule the largest): every staged record is an insert, written
    /// without looking for one to update.
    private static func applyFirstSnapshot(
        _ id: Int64, to resource: String, run: Int64, now: String, first: Int64, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws -> (changes: SnapshotChanges, feed: ClosedRange<Int64>?, count: Int) {
        let added =
            try await connection.value(
                Int.self,
                """
                WITH written AS (
                    INSERT INTO records (resource, key, data, updated_at, page)
                    SELECT \(resource), key, data::jsonb, \(now)::timestamptz, page FROM staging
                    WHERE snapshot = \(id)
                    RETURNING 1
                )
                SELECT count(*) FROM written
                """, logger) ?? 0
        try await connection.query(
            """
            INSERT INTO changes (seq, resource, key, op, sync_run, at)
            SELECT \(first - 1) + row_number() OVER (ORDER BY key COLLATE "C"), \(resource), key, 'insert', \(run),
                   \(now)::timestamptz
            FROM staging WHERE snapshot = \(id)
            """, logger: logger)
        try await connection.query("UPDATE feed_state SET last_seq = \(first - 1 + Int64(added))", logger: logger)
        return (SnapshotChanges(added: added), added > 0 ? first...(first + Int64(added) - 1) : nil, added)
    }

    private static func replacePages(
        of resource: String, with pages: [StoredPage], _ connection: PostgresConnection, _ logger: Logger
    ) async throws {
        try await connection.query("DELETE FROM pages WHERE resource = \(resource)", logger: logger)
        for page in pages {
            try await connection.query(
                """
                INSERT INTO pages (resource, number, request, etag, last_modified, next, item_count)
                VALUES (\(resource), \(page.number), \(page.request), \(page.validators.etag),
                        \(page.validators.lastModified), \(page.next), \(page.itemCount))
                """, logger: logger)
        }
    }

    private static func updateResource(
        after sync: FinishedSync, finishedAt: Date, itemCount: Int?, _ connection: PostgresConnection,
        _ logger: Logger
    ) async throws {
        let started = Timestamp.string(from: sync.startedAt)
        let finished = Timestamp.string(from: finishedAt)
        let state = sync.state.rawValue
        switch sync.outcome {
        case .success, .notModified:
            let replacesValidators = itemCount != nil
            try await connection.query(
                """
                INSERT INTO resources AS r (name, state, last_success_at, last_attempt_at, etag, last_modified,
                                            validators_scope, item_count)
                VALUES (\(sync.resource), \(state), \(finished)::timestamptz, \(started)::timestamptz,
                        \(sync.validators.etag), \(sync.validators.lastModified), \(sync.validators.scope),
                        coalesce(\(itemCount)::bigint, 0))
                ON CONFLICT (name) DO UPDATE SET
                    state = excluded.state,
                    last_success_at = excluded.last_success_at,
                    last_attempt_at = excluded.last_attempt_at,
                    last_error = NULL, last_error_kind = NULL, last_error_status = NULL,
                    etag = CASE WHEN \(replacesValidators) THEN excluded.etag ELSE coalesce(excluded.etag, r.etag) END,
                    last_modified = CASE WHEN \(replacesValidators) THEN excluded.last_modified
                                         ELSE coalesce(excluded.last_modified, r.last_modified) END,
                    validators_scope = CASE WHEN \(replacesValidators) THEN excluded.validators_scope
                                            ELSE r.validators_scope END,
                    item_count = coalesce(\(itemCount)::bigint, r.item_count)
                """, logger: logger)
        case .cancelled:
            // A cancelled sync says nothing about the resource but that it was tried.
            try await connection.query(
                """
                INSERT INTO resources (name, last_attempt_at) VALUES (\(sync.resource), \(started)::timestamptz)
                ON CONFLICT (name) DO UPDATE SET last_attempt_at = excluded.last_attempt_at
                """, logger: logger)
        case .failed, .gaveUp, .offline, .rateLimited:
            try await connection.query(
                """
                INSERT INTO resources (name, state, last_attempt_at, last_error, last_error_kind, last_error_status)
                VALUES (\(sync.resource), \(state), \(started)::timestamptz, \(sync.error?.message),
                        \(sync.error?.kind.rawValue), \(sync.error?.status))
                ON CONFLICT (name) DO UPDATE SET
                    state = excluded.state,
                    last_attempt_at = excluded.last_attempt_at,
                    last_error = excluded.last_error,
                    last_error_kind = excluded.last_error_kind,
                    last_error_status = excluded.last_error_status
                """, logger: logger)
        }
    }

    /// Inserts the run's row, its changes counted later, and prunes the
    /// resource's oldest runs; returns the row's id. A row of the resource
    /// left running before is marked cut off.
    private static func insertRun(
        _ sync: FinishedSync, finishedAt: Date, agent: String?, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int64 {
        try await cutOffRuns(of: sync.resource, at: Timestamp.string(from: finishedAt), connection, logger)
        let id =
            try await connection.value(
                Int64.self,
                """
                INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                       bytes, wire_bytes, error, error_kind, error_status, agent)
                VALUES (\(sync.resource), \(sync.trigger.rawValue), \(Timestamp.string(from: sync.startedAt))::timestamptz,
                        \(Timestamp.string(from: finishedAt))::timestamptz, \(sync.outcome.rawValue), \(sync.counts.attempts),
                        \(sync.counts.pages), \(sync.counts.items), \(sync.counts.bytes), \(sync.counts.wireBytes), \(sync.error?.message),
                        \(sync.error?.kind.rawValue), \(sync.error?.status), \(agent))
                RETURNING id
                """, logger) ?? 0
        try await connection.query(
            """
            DELETE FROM sync_runs WHERE resource = \(sync.resource) AND id <= (
                SELECT id FROM sync_runs WHERE resource = \(sync.resource) ORDER BY id DESC LIMIT 1
                OFFSET \(SyncRunRow.keptPerResource))
            """, logger: logger)
        return id
    }
}

extension PostgresStore {
    /// Implements ``SyncStore/runningRuns()``.
    public func runningRuns() async throws(StoreError) -> [SyncRunRow] {
        let logger = logger
        return try await read { connection in
            try await connection.rows(
                "SELECT \(unescaped: Self.runColumns) FROM sync_runs WHERE outcome IS NULL ORDER BY id", logger
            ).map(Self.runRow)
        }
    }

    /// Implements ``SyncStore/cutOffRuns(of:)``: in a fleet, only by the
    /// holder of the resource's lease (fenced, as every commit).
    @discardableResult
    public func cutOffRuns(of resource: String) async throws(StoreError) -> Int {
        let logger = logger
        return try await transaction { [self] connection in
            try await fence(resource, connection)
            return try await Self.cutOffRuns(of: resource, at: Timestamp.string(from: now()), connection, logger)
        }
    }

    /// Marks the runs of `resource` still running as cut off, found at `now`;
    /// returns how many. Called in a transaction fenced by the resource's
    /// lease: no other agent syncs it meanwhile, and this one is not syncing it.
    @discardableResult
    static func cutOffRuns(
        of resource: String, at now: String, _ connection: PostgresConnection, _ logger: Logger
    ) async throws -> Int {
        try await connection.value(
            Int.self,
            """
            WITH cut AS (
                UPDATE sync_runs SET outcome = 'cancelled', finished_at = \(now)::timestamptz,
                    error = \("\(resource): \(SyncRunRow.cutOffMessage)"), error_kind = 'cancelled'
                WHERE resource = \(resource) AND outcome IS NULL
                RETURNING 1
            )
            SELECT count(*) FROM cut
            """, logger) ?? 0
    }
}
