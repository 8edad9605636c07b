import Foundation
import PostgresNIO
import Testing

@testable import Store

/// What a sync that did not finish leaves in the store, and the pool of
/// PostgreSQL connections that a transaction's own calls cannot exhaust
/// (docs/fleet.md#staged-pages, docs/fleet.md#connections).
@Suite(.timeLimit(minutes: 1, timesUnderSanitizer: 10)) struct LeftBehindTests {
    let first = Date(timeIntervalSince1970: 1_700_000_000)

    /// Waits until `count` tasks have arrived, then lets them all go on.
    actor Barrier {
        let count: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(count: Int) { self.count = count }

        func arrive() async {
            await withCheckedContinuation { continuation in
                waiting.append(continuation)
                if waiting.count == count {
                    for waiter in waiting { waiter.resume() }
                    waiting = []
                }
            }
        }
    }

    @Test func aCallFromInsideATransactionGoesThroughItsConnectionSoHoldersCannotTakeThePool() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = try #require(fixture.store as? PostgresStore)
        // As many holders as the pool has connections, each asking for more once all hold one:
        // a second connection of the pool would never come (each holder waits until its patience ends).
        let holders = PostgresStore.maximumConnections
        let barrier = Barrier(count: holders)
        let logger = store.logger
        let started = ContinuousClock.now
        let pairs = try await withThrowingTaskGroup(of: (Int32, Int32, Int64).self) { group in
            for _ in 0..<holders {
                group.addTask {
                    try await store.transaction { connection in
                        let outer = try await connection.value(Int32.self, "SELECT pg_backend_pid()", logger) ?? 0
                        await barrier.arrive()
                        let inner = try await store.read { inner in
                            try await inner.value(Int32.self, "SELECT pg_backend_pid()", logger) ?? -1
                        }
                        // A store method as a sync calls it, inside the holder's transaction.
                        let seq = try await store.lastChangeSeq()
                        return (outer, inner, seq)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(pairs.count == holders)
        #expect(pairs.allSatisfy { $0.0 == $0.1 && $0.2 == 0 }, "\(pairs)")
        #expect(Set(pairs.map(\.0)).count == holders)
        #expect(ContinuousClock.now - started < PostgresStore.patience)
    }

    @Test func aNestedTransactionJoinsTheHoldersAndRollsBackWithIt() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = try #require(fixture.store as? PostgresStore)
        let logger = store.logger
        struct Boom: Error {}
        await #expect(throws: StoreError.self) {
            try await store.transaction { connection in
                try await connection.query("CREATE TABLE probe (n int)", logger: logger)
                try await store.transaction { inner in
                    try await inner.query("INSERT INTO probe VALUES (1)", logger: logger)
                }
                throw Boom()
            }
        }
        #expect(try fixture.query("SELECT to_regclass('probe') IS NULL") == "t\n")
    }

    /// A snapshot that a killed process left (its row and staged rows, of no
    /// writer of this process) is removed by the next sync of its resource;
    /// another resource's, and one this process has open, stay.
    @Test func theNextSnapshotOfAResourceRemovesWhatAKilledSyncStaged() async throws {
        let fixture = try await StoreFixture(.postgres)
        try await fixture.sync("users", [("1", #"{"v":1}"#)], at: first)
        let left = try fixture.query(
            """
            WITH s AS (INSERT INTO snapshots (resource, began_at) VALUES ('users', now()) RETURNING id)
            INSERT INTO staging (snapshot, key, data) SELECT id, 'k' || n, '{}' FROM s, generate_series(1, 500) AS n
            RETURNING snapshot
            """
        ).split(separator: "\n").first.map(String.init)
        let other = try fixture.query(
            """
            WITH s AS (INSERT INTO snapshots (resource, began_at) VALUES ('groups', now()) RETURNING id)
            INSERT INTO staging (snapshot, key, data) SELECT id, 'g', '{}' FROM s RETURNING snapshot
            """
        ).split(separator: "\n").first.map(String.init)
        let open = try await fixture.store.beginSnapshot(of: "users")
        try await open.stage([StagedRecord(key: "1", data: #"{"v":2}"#)])
        #expect(try fixture.query("SELECT count(*) FROM staging WHERE snapshot = \(try #require(left))") == "0\n")
        #expect(try fixture.query("SELECT count(*) FROM snapshots WHERE id = \(try #require(left))") == "0\n")
        #expect(try fixture.query("SELECT count(*) FROM staging WHERE snapshot = \(try #require(other))") == "1\n")

        // A second sync of the resource, in this process, leaves the first one's rows alone.
        let second = try await fixture.store.beginSnapshot(of: "users")
        try await second.stage([StagedRecord(key: "1", data: #"{"v":3}"#)])
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: first, finishedAt: first, outcome: .success,
                state: .idle, pages: 1, items: 1),
            snapshot: open)
        #expect(try fixture.rows("users")["1"]?.0 == #"{"v":2}"#)
        await second.discard()
        #expect(try await fixture.stagedSnapshotCount() == 1)
    }

    /// A page staged after its snapshot was removed (a cancelled sync's last
    /// page, as its record drops the snapshot) goes nowhere; pages left with no
    /// snapshot (by a version before that) are removed as a store opens.
    @Test func noPageStaysStagedWithoutItsSnapshot() async throws {
        let fixture = try await StoreFixture(.postgres)
        let (cluster, schema) = try #require(fixture.postgres)
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: "{}")])
        _ = try fixture.query("DELETE FROM snapshots; DELETE FROM staging")
        try await snapshot.stage([StagedRecord(key: "2", data: "{}")])
        #expect(try fixture.query("SELECT count(*) FROM staging") == "0\n")

        _ = try fixture.query(
            "INSERT INTO staging (snapshot, key, data) SELECT 999999, 'k' || n, '{}' FROM generate_series(1, 50) AS n")
        let live = try await fixture.store.beginSnapshot(of: "groups")
        try await live.stage([StagedRecord(key: "g", data: "{}")])
        let reopened = try await PostgresStore(PostgresLocation(url: cluster.url(), schema: schema))
        #expect(try fixture.query("SELECT count(*) FROM staging WHERE snapshot = 999999") == "0\n")
        #expect(try fixture.query("SELECT count(*) FROM staging") == "1\n", "the live snapshot's page stays")
        _ = reopened
    }

    /// Syncs `count` users, keys 0 to `count` - 1, each `{"v": version}`.
    func applyUsers(_ count: Int, version: Int, _ fixture: StoreFixture) async throws {
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage((0..<count).map { StagedRecord(key: "\($0)", data: #"{"v":\#(version)}"#) })
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: first, finishedAt: first, outcome: .success,
                state: .idle, pages: 1, items: count),
            snapshot: snapshot)
    }

    /// A large apply, or discard, vacuums what it deleted: `staging` is left
    /// as small as when it was made, its index too, and the records replaced
    /// are space the next apply reuses.
    @Test func aLargeApplyLeavesStagingEmptyAndTheRecordsTheirSize() async throws {
        let fixture = try await StoreFixture(.postgres)
        let empty = try fixture.query("SELECT pg_total_relation_size('staging')")
        let count = PostgresStore.analyzeFloor + 2_000
        var sizes: [Int] = []
        for version in 1...3 {
            try await applyUsers(count, version: version, fixture)
            #expect(try fixture.query("SELECT pg_total_relation_size('staging')") == empty, "version \(version)")
            sizes.append(Int(try fixture.query("SELECT pg_relation_size('records')").dropLast()) ?? -1)
        }
        #expect(try fixture.rows("users")["7"]?.0 == #"{"v":3}"#)
        // Each apply writes every record anew: the second needs the room of two versions, the
        // third reuses what the vacuum after the second freed.
        #expect(sizes[2] <= sizes[1], "records: \(sizes) bytes")

        // A discarded snapshot of as many rows leaves no page either.
        let discarded = try await fixture.store.beginSnapshot(of: "users")
        try await discarded.stage((0..<PostgresStore.vacuumFloor).map { StagedRecord(key: "\($0)", data: "{}") })
        await discarded.discard()
        #expect(try fixture.query("SELECT pg_total_relation_size('staging')") == empty, "after a discard")
    }

    /// The new versions an apply wrote and never committed (a kill) are
    /// vacuumed before the next large apply, which writes into their room
    /// instead of growing `records`.
    @Test func aLargeApplyAfterOneThatNeverCommittedReusesItsRoom() async throws {
        let fixture = try await StoreFixture(.postgres)
        let count = PostgresStore.analyzeFloor + 2_000
        func apply(_ version: Int) async throws { try await applyUsers(count, version: version, fixture) }
        func size() throws -> Int { Int(try fixture.query("SELECT pg_relation_size('records')").dropLast()) ?? -1 }
        try await apply(1)
        let once = try size()
        // An apply killed before its commit: a new version of every record, rolled back. The
        // statistics hear of it before the session ends, as they do when a killed agent's does.
        _ = try fixture.query(
            """
            BEGIN; UPDATE records SET data = '{"v":2}', updated_at = now() WHERE resource = 'users'; ROLLBACK;
            SELECT pg_stat_force_next_flush()
            """)
        let killed = try size()
        #expect(killed > once * 3 / 2, "the rolled-back versions take room: \(once) then \(killed) bytes")
        try await apply(3)
        let after = try size()
        #expect(after <= killed, "records: \(once), \(killed) after the rollback, then \(after) bytes")
        #expect(try fixture.rows("users")["7"]?.0 == #"{"v":3}"#)
    }

    /// While another sync has a page staged, a large apply leaves `staging`
    /// its pages: the other's page stays, and its apply finds it. The store,
    /// closing (even as its task is cancelled, as when an agent stops), gives
    /// back the pages of the `staging` left empty.
    @Test func aLargeApplyBesideAnotherSyncLeavesItsPage() async throws {
        let fixture = try await StoreFixture(.postgres)
        let empty = try fixture.query("SELECT pg_total_relation_size('staging')")
        let other = try await fixture.store.beginSnapshot(of: "groups")
        try await other.stage([StagedRecord(key: "g", data: #"{"v":1}"#)])
        let large = try await fixture.store.beginSnapshot(of: "users")
        try await large.stage((0..<PostgresStore.analyzeFloor).map { StagedRecord(key: "\($0)", data: "{}") })
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: first, finishedAt: first, outcome: .success,
                state: .idle, pages: 1, items: PostgresStore.analyzeFloor),
            snapshot: large)
        #expect(try fixture.query("SELECT count(*) FROM staging") == "1\n")
        try await fixture.store.record(
            FinishedSync(
                resource: "groups", trigger: .poll, startedAt: first, finishedAt: first, outcome: .success,
                state: .idle, pages: 1, items: 1),
            snapshot: other)
        #expect(try fixture.rows("groups")["g"]?.0 == #"{"v":1}"#)
        #expect(try fixture.rows("users").count == PostgresStore.analyzeFloor)
        #expect(try fixture.query("SELECT count(*) FROM staging") == "0\n")
        #expect(try fixture.query("SELECT pg_total_relation_size('staging')") != empty, "a small apply keeps the pages")
        // Closed as an agent stops: by a task cancelled already.
        let store = fixture.store
        await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            await store.close()
        }.value
        #expect(try fixture.query("SELECT pg_total_relation_size('staging')") == empty)
    }

    /// A failed sync's snapshot goes with its record; a cancelled one's with
    /// its record too, or, when the writer was dropped without either, with
    /// the resource's next sync.
    @Test(arguments: StoreKind.allCases) func failedAndCancelledSyncsLeaveNothingStaged(_ kind: StoreKind) async throws
    {
        let fixture = try await StoreFixture(kind)
        let failed = try await fixture.store.beginSnapshot(of: "users")
        try await failed.stage([StagedRecord(key: "1", data: "{}")])
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: first, outcome: .failed, state: .failed,
                error: StoredError(kind: .transient, message: "boom")),
            snapshot: failed)
        #expect(try await fixture.stagedSnapshotCount() == 0)

        let cancelled = try await fixture.store.beginSnapshot(of: "users")
        try await cancelled.stage([StagedRecord(key: "1", data: "{}")])
        try await fixture.store.record(
            FinishedSync(resource: "users", trigger: .poll, startedAt: first, outcome: .cancelled, state: .idle),
            snapshot: cancelled)
        #expect(try await fixture.stagedSnapshotCount() == 0)

        // A sync cancelled in the middle of a page, whose end is recorded by the cancelled task.
        let first = first
        try await Task {
            let snapshot = try await fixture.store.beginSnapshot(of: "users")
            try await snapshot.stage((0..<100).map { StagedRecord(key: "\($0)", data: "{}") })
            withUnsafeCurrentTask { $0?.cancel() }
            try? await snapshot.stage((100..<20_000).map { StagedRecord(key: "\($0)", data: "{}") })
            try await fixture.store.record(
                FinishedSync(resource: "users", trigger: .poll, startedAt: first, outcome: .cancelled, state: .idle),
                snapshot: snapshot)
        }.value
        #expect(try await fixture.stagedSnapshotCount() == 0)
    }
}
