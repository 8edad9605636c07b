import Foundation
import GRDB
import TestServers
import Testing

@testable import Store

/// A running sync is running (docs/schema.md#running-finished-and-cut-off-rows):
/// an incremental sync's row has no outcome and no end until it is recorded,
/// and a row left running by a process that stopped is marked cut off.
@Suite struct RunningRunTests {
    /// The first page of an incremental sync of `resource` (no run row yet), or its next page on `run`.
    func page(_ resource: String, key: String, run: Int64? = nil, startedAt: Date = Date()) -> IncrementalPage {
        var cursor = SyncCursor(request: "r1")
        cursor.walk = SyncCursor.Walk(next: "page-2", pages: 1, sent: nil, largest: nil, run: 0)
        return IncrementalPage(
            resource: resource, scope: "", changes: [.upsert(StagedRecord(key: key, data: "{}"))], cursor: cursor,
            run: run, trigger: .poll, startedAt: startedAt)
    }

    func run(_ store: any SyncStore, _ id: Int64) async throws -> SyncRunRow {
        try #require(try await store.runs(limit: 100).first { $0.id == id })
    }

    @Test(arguments: StoreKind.allCases) func anIncrementalSyncsRowIsRunningUntilItIsRecorded(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let startedAt = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try await store.applyPage(page("users", key: "1", startedAt: startedAt))
        // A reader of the table sees no outcome and no end.
        #expect(
            try fixture.query(
                "SELECT count(*) FROM sync_runs WHERE outcome IS NULL AND finished_at IS NULL AND error IS NULL"
            )
            .trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        let running = try await run(store, first.run)
        #expect(running.isRunning && running.outcome == nil && running.finishedAt == nil)
        #expect(running.durationMilliseconds == nil && running.error == nil && running.startedAt == startedAt)
        #expect(running.changes == SnapshotChanges(added: 1))
        #expect(try await store.runningRuns().map(\.id) == [first.run])
        // A sync still running is no answer to a refresh waiting for one.
        #expect(try await store.run(of: "users", finishedSince: Date(timeIntervalSince1970: 0)) == nil)

        _ = try await store.applyPage(page("users", key: "2", run: first.run))
        let sync = FinishedSync(
            resource: "users", trigger: .poll, startedAt: startedAt, outcome: .success, state: .idle, pages: 2,
            items: 2)
        try await store.record(sync, continuing: first.run)
        let ended = try await run(store, first.run)
        #expect(!ended.isRunning && ended.outcome == .success && ended.finishedAt != nil)
        #expect(ended.changes == SnapshotChanges(added: 2))
        #expect(try await store.runningRuns().isEmpty)
        #expect(try await store.run(of: "users", finishedSince: Date(timeIntervalSince1970: 0))?.id == first.run)
    }

    @Test(arguments: StoreKind.allCases) func aRowLeftRunningIsCutOffWhenTheNextSyncOfItsResourceWritesItsRow(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        // Two syncs whose process stopped after their first page.
        let users = try await store.applyPage(page("users", key: "1"))
        let groups = try await store.applyPage(page("groups", key: "1"))

        // The walk of users goes on: its first page makes a row of its own and cuts the old one off.
        let resumed = try await store.applyPage(page("users", key: "2"))
        #expect(resumed.run != users.run)
        let cut = try await run(store, users.run)
        #expect(cut.outcome == .cancelled && cut.finishedAt != nil && cut.error?.kind == .cancelled)
        #expect(cut.error?.message == "users: \(SyncRunRow.cutOffMessage)")
        // The changes its pages made stay counted on it.
        #expect(cut.changes == SnapshotChanges(added: 1))
        #expect(try await store.runningRuns().map(\.id) == [groups.run, resumed.run])

        // A snapshot sync of groups records its row at its end: it cuts groups' off too.
        try await fixture.sync("groups", [("1", "{}")])
        #expect(try await run(store, groups.run).outcome == .cancelled)
        #expect(try await store.runningRuns().map(\.id) == [resumed.run])
        // A refresh waiting for a run takes neither the running row nor the cut-off one.
        let answer = try await store.run(of: "users", finishedSince: Date(timeIntervalSince1970: 0))
        #expect(answer?.id == users.run && answer?.outcome == .cancelled)

        // As the agent starts: the rows of a resource no sync runs are marked.
        #expect(try await store.cutOffRuns(of: "users") == 1)
        #expect(try await store.cutOffRuns(of: "users") == 0)
        #expect(try await store.runningRuns().isEmpty)
        #expect(try await run(store, resumed.run).error?.message == "users: \(SyncRunRow.cutOffMessage)")
    }

    /// The rows an agent of the previous schema wrote: a success, and a sync
    /// cut off, written as `cancelled` with its first page.
    static let previousMessage =
        "users: the sync was cut off after a checkpoint; the next one goes on after its last committed page"

    @Test func anSQLiteDatabaseOfThePreviousSchemaIsMigratedKeepingItsRowsAndIds() async throws {
        let fixture = try StoreFixture()
        let path = fixture.folder + "/old.db"
        // Made as the previous version made it: every migration up to the one before.
        let old = try DatabaseQueue(path: path)
        try SQLiteStore.migrator.migrate(old, upTo: "Keep incremental cursors")
        try await old.write { db in
            try db.execute(
                sql: """
                    INSERT INTO sync_runs (id, resource, trigger, started_at, finished_at, outcome, attempts, pages,
                                           items, bytes, added, wire_bytes, since)
                    VALUES (7, 'users', 'poll', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 'success',
                            1, 1, 3, 100, 3, 80, '2026-01-01T00:00:00.000Z');
                    INSERT INTO sync_runs (id, resource, trigger, started_at, finished_at, outcome, attempts, pages,
                                           items, bytes, error, error_kind, added)
                    VALUES (9, 'users', 'poll', '2026-01-02T00:00:00.000Z', '2026-01-02T00:00:01.000Z', 'cancelled',
                            1, 0, 0, 0, ?, 'cancelled', 2);
                    """, arguments: [Self.previousMessage])
        }
        try old.close()

        let store = try SQLiteStore(path: path)
        let runs = try await store.runs(limit: 10)
        #expect(runs.map(\.id) == [9, 7])
        #expect(runs.last?.outcome == .success && runs.last?.counts.wireBytes == 80 && runs.last?.changes.added == 3)
        #expect(runs.last?.durationMilliseconds == 1000 && runs.last?.since != nil)
        // A sync cut off before stays as it was: true history.
        #expect(runs.first?.outcome == .cancelled && runs.first?.error?.message == Self.previousMessage)
        #expect(try await store.runningRuns().isEmpty)
        let schema = try await store.pool.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE tbl_name = 'sync_runs' ORDER BY name")
        }
        #expect(schema == ["sync_runs", "sync_runs_by_resource", "sync_runs_running"])
        // Ids go on after the kept ones; a new sync's row may run.
        let applied = try await store.applyPage(page("users", key: "1"))
        #expect(applied.run == 10)
        #expect(try await store.runningRuns().map(\.id) == [10])
        // An outcome without an end (or the reverse) is refused.
        await #expect(throws: (any Error).self) {
            try await store.pool.write { db in
                try db.execute(sql: "UPDATE sync_runs SET outcome = 'success' WHERE id = 10")
            }
        }
    }

    @Test func aPostgreSQLSchemaOfThePreviousSchemaIsMigratedKeepingItsRowsAndIds() async throws {
        let cluster = try await PostgresCluster.shared()
        let schema = "runs_" + UUID().uuidString.prefix(8).lowercased()
        // Made as the previous version made it: its migrations, recorded as its migrate() records them.
        let previous = PostgresStore.migrations.prefix { $0.name != "Let a running sync's row have no outcome yet" }
        #expect(previous.count < PostgresStore.migrations.count)
        let migrations = previous.enumerated().map { index, migration in
            migration.statements.joined(separator: ";\n") + ";\n"
                + "INSERT INTO migrations (id, name) VALUES (\(index + 1), "
                + "'\(migration.name.replacingOccurrences(of: "'", with: "''"))')"
        }
        try cluster.psql(
            """
            CREATE SCHEMA \(schema);
            SET search_path TO \(schema);
            CREATE TABLE migrations (
                id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now());
            \(migrations.joined(separator: ";\n"));
            INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                   bytes, added, wire_bytes, agent)
            VALUES ('users', 'poll', '2026-01-01T00:00:00Z', '2026-01-01T00:00:01Z', 'success', 1, 1, 3, 100, 3, 80,
                    'a');
            INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items, bytes,
                                   error, error_kind, added)
            VALUES ('users', 'poll', '2026-01-02T00:00:00Z', '2026-01-02T00:00:01Z', 'cancelled', 1, 0, 0, 0,
                    '\(Self.previousMessage)', 'cancelled', 2);
            """)

        let store = try await PostgresStore(PostgresLocation(url: cluster.url(), schema: schema))
        let runs = try await store.runs(limit: 10)
        #expect(runs.map(\.id) == [2, 1])
        #expect(runs.last?.outcome == .success && runs.last?.counts.wireBytes == 80 && runs.last?.changes.added == 3)
        #expect(runs.last?.durationMilliseconds == 1000)
        #expect(runs.first?.outcome == .cancelled && runs.first?.error?.message == Self.previousMessage)
        #expect(try await store.runningRuns().isEmpty)
        let migrated = try cluster.psql("SELECT max(id) FROM migrations", schema: schema)
        #expect(migrated.trimmingCharacters(in: .whitespacesAndNewlines) == "\(PostgresStore.migrations.count)")
        let applied = try await store.applyPage(page("users", key: "1"))
        #expect(try await store.runningRuns().map(\.id) == [applied.run])
        // An outcome without an end (or the reverse) is refused.
        #expect {
            try cluster.psql("UPDATE sync_runs SET outcome = 'success' WHERE id = \(applied.run)", schema: schema)
        } throws: { error in
            "\(error)".contains("sync_runs_running_or_ended")
        }
    }

    @Test func inAFleetOnlyTheHolderOfTheLeaseCutsARowOff() async throws {
        let (first, second, cluster, schema) = try await LeaseTests.twoAgents()
        let a = first.joinFleet(agent: "a", leaseTime: .seconds(30))
        let b = second.joinFleet(agent: "b", leaseTime: .seconds(30))
        _ = try await a.round(configured: ["users"])
        let left = try await first.applyPage(page("users", key: "1"))
        // Agent b holds no lease of users: the row is not its to mark.
        await #expect {
            try await second.cutOffRuns(of: "users")
        } throws: { error in
            (error as? StoreError)?.kind == .notOwner
        }
        #expect(try await second.runningRuns().map(\.id) == [left.run])
        // Agent a dies; b takes the lease, and its sync's first page cuts a's row off.
        try cluster.psql("UPDATE leases SET expires_at = now() - interval '1 second'", schema: schema)
        #expect(try await b.round(configured: ["users"]).gained == ["users"])
        let next = try await second.applyPage(page("users", key: "2"))
        let cut = try #require(try await second.runs(of: "users", limit: 10).first { $0.id == left.run })
        #expect(cut.outcome == .cancelled && cut.error?.message == "users: \(SyncRunRow.cutOffMessage)")
        #expect(try await second.runningRuns().map(\.id) == [next.run])
    }
}
