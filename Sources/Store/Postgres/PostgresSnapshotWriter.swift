import Foundation
import PostgresNIO

/// A snapshot of ``PostgresStore`` while its pages arrive: they are staged in
/// the unlogged table `staging` under the snapshot's id (a row of
/// `snapshots`), each page in a short transaction of its own, so that no
/// connection is held for the length of a sync.
///
/// Thread-safety: not `Sendable`; one sync uses it from one task.
final class PostgresSnapshotWriter: SnapshotWriter {
    let resource: String
    private(set) var stagedCount = 0

    let store: PostgresStore
    /// The snapshot's row in `snapshots`, and its rows' mark in `staging`.
    let id: Int64
    /// Whether a key staged again replaces the one staged before.
    let lastWins: Bool
    private(set) var kept = SnapshotPages()
    private var isOpen = true

    init(store: PostgresStore, resource: String, id: Int64, lastWins: Bool) {
        self.store = store
        self.resource = resource
        self.id = id
        self.lastWins = lastWins
    }

    deinit {
        // A writer dropped without being applied or discarded must not leave its rows staged.
        if isOpen {
            Task { [store, id, stagedCount] in
                try? await store.dropSnapshot(id, staged: stagedCount)
                // Dropped or not, no writer has it open: the resource's next sync removes it.
                store.openSnapshots.withLock { _ = $0.remove(id) }
            }
        }
    }

    func commit(
        _ sync: FinishedSync, continuing run: Int64?, cursor: (scope: String, cursor: SyncCursor)?
    ) async throws(StoreError) -> RecordedSync {
        try await store.record(sync, applying: self, continuing: run, cursor: cursor)
    }

    func stage(_ records: [StagedRecord], page: Int?) async throws(StoreError) {
        precondition(isOpen, "stage(_:) after the snapshot was applied or discarded")
        guard !records.isEmpty else { return }
        let (id, logger) = (id, store.logger)
        // One statement per page, with the page's keys and data as two arrays.
        // Not COPY: closing a connection in the middle of a COPY's data (how a
        // cancelled sync ends its statement, PostgresStore.run) traps in
        // postgres-nio, and a SIGTERM would kill the agent
        // (docs/fleet.md#stopping-with-syncs-in-flight).
        // The page goes in only while the snapshot's row is there, which it locks until
        // its commit: a removal of the snapshot (its row, then in a statement of its own
        // its pages) waits for it and then removes its rows too, or comes first and the
        // page goes nowhere. Without the lock, a page committed as its cancelled sync's
        // snapshot was removed stayed staged with no snapshot (docs/fleet.md#staged-pages).
        let batch = lastWins ? records.lastOfEachKey(\.key) : records
        let (keys, data, lastWins) = (batch.map(\.key), batch.map(\.data), lastWins)
        do {
            try await store.transaction { connection in
                if lastWins {
                    // One statement cannot update a row twice: the last of each key goes.
                    try await connection.query(
                        """
                        WITH s AS (SELECT id FROM snapshots WHERE id = \(id) FOR KEY SHARE)
                        INSERT INTO staging (snapshot, key, data, page)
                        SELECT s.id, t.key, t.data, \(page)
                        FROM s, unnest(\(keys)::text[], \(data)::text[]) AS t(key, data)
                        ON CONFLICT (snapshot, key) DO UPDATE SET data = excluded.data, page = excluded.page
                        """, logger: logger)
                } else {
                    try await connection.query(
                        """
                        WITH s AS (SELECT id FROM snapshots WHERE id = \(id) FOR KEY SHARE)
                        INSERT INTO staging (snapshot, key, data, page)
                        SELECT s.id, t.key, t.data, \(page)
                        FROM s, unnest(\(keys)::text[], \(data)::text[]) AS t(key, data)
                        """, logger: logger)
                }
            }
        } catch let error where !lastWins && error.message.contains("SQLSTATE 23505") {
            // A key staged twice, by this page or an earlier one: the server names it.
            throw duplicate(Self.duplicateKey(in: error.message, snapshot: id) ?? records[0].key)
        }
        stagedCount += records.count
    }

    /// The key in the message of a unique violation of `staging`:
    /// `… Key (snapshot, key)=(7, KEY) already exists.`
    static func duplicateKey(in message: String, snapshot: Int64) -> String? {
        guard let start = message.range(of: "=(\(snapshot), "),
            let end = message.range(of: ") already exists", options: .backwards), start.upperBound <= end.lowerBound
        else { return nil }
        return String(message[start.upperBound..<end.lowerBound])
    }

    private func duplicate(_ key: String) -> StoreError {
        StoreError(.duplicateKey, "two items of \(resource) have the same key \"\(key)\"", key: key)
    }

    func unstage(_ keys: [String]) async throws(StoreError) {
        precondition(isOpen, "unstage(_:) after the snapshot was applied or discarded")
        guard !keys.isEmpty else { return }
        let (id, logger) = (id, store.logger)
        try await store.transaction { connection in
            try await connection.query(
                "DELETE FROM staging WHERE snapshot = \(id) AND key = ANY(\(keys)::text[])", logger: logger)
        }
    }

    func keepUnchanged(page: Int) {
        precondition(isOpen, "keepUnchanged(page:) after the snapshot was applied or discarded")
        kept.unchanged.append(page)
    }

    func keep(_ page: StoredPage) {
        kept.pages.append(page)
    }

    func discard() async {
        guard isOpen else { return }
        if (try? await store.dropSnapshot(id, staged: stagedCount)) != nil {
            isOpen = false
        }
    }

    /// Marks the writer as applied (its rows are removed by the applying transaction).
    func close() {
        isOpen = false
        store.openSnapshots.withLock { _ = $0.remove(id) }
    }
}

extension PostgresStore {
    /// Implements ``SyncStore/beginSnapshot(of:lastWins:)``.
    ///
    /// In the same transaction it removes what syncs that did not finish
    /// left staged (docs/fleet.md#staged-pages): the resource's snapshots
    /// that no writer of this process has open, unless another agent that is
    /// alive began them (it lost the lease meanwhile, and discards them
    /// itself); and any snapshot of an agent gone for ``abandonedAgentAge``.
    /// Removing a snapshot is always safe: an apply finds its row gone and the
    /// sync starts again (``record(_:snapshot:continuing:cursor:)``).
    public func beginSnapshot(of resource: String, lastWins: Bool) async throws(StoreError) -> any SnapshotWriter {
        let logger = logger
        let now = Timestamp.string(from: self.now())
        let agent = leases?.agent
        let open = openSnapshots.withLock { Array($0) }
        let alive = Self.interval(leases?.leaseTime ?? PostgresLeases.defaultLeaseTime)
        let gone = Self.interval(Self.abandonedAgentAge)
        let (id, removedAny) = try await transaction { connection in
            let removed = try await connection.rows(
                """
                DELETE FROM snapshots AS s
                    WHERE (s.resource = \(resource) AND NOT (s.id = ANY(\(open)::bigint[]))
                           AND (s.agent IS NULL OR s.agent = \(agent) OR NOT EXISTS (
                                SELECT 1 FROM agents AS a
                                WHERE a.id = s.agent AND a.heartbeat_at > now() - \(alive)::interval)))
                       OR (s.agent IS DISTINCT FROM \(agent) AND NOT EXISTS (
                                SELECT 1 FROM agents AS a WHERE a.id = s.agent AND a.heartbeat_at > now() - \(gone)::interval)
                           AND (s.agent IS NOT NULL OR s.began_at < now() - \(gone)::interval))
                    RETURNING s.id
                """, logger
            ).compactMap { try $0.get("id", as: Int64.self) }
            // Their pages in a statement of its own, which sees those committed while the
            // removal waited for their snapshot's lock.
            if !removed.isEmpty {
                try await connection.query(
                    "DELETE FROM staging WHERE snapshot = ANY(\(removed)::bigint[])", logger: logger)
            }
            let id =
                try await connection.value(
                    Int64.self,
                    """
                    INSERT INTO snapshots (resource, began_at, agent) VALUES (\(resource), \(now)::timestamptz, \(agent))
                    RETURNING id
                    """, logger) ?? 0
            return (id, !removed.isEmpty)
        }
        openSnapshots.withLock { _ = $0.insert(id) }
        if removedAny { await vacuum(["staging"]) }
        return PostgresSnapshotWriter(store: self, resource: resource, id: id, lastWins: lastWins)
    }

    /// Removes a snapshot's staged rows, even when the calling task is cancelled.
    ///
    /// The snapshot's row first, then its pages, in the order of every other
    /// removal (an apply, ``beginSnapshot(of:lastWins:)``): two transactions
    /// removing the same snapshot wait for each other, never deadlock. One of
    /// at least ``vacuumFloor`` `staged` rows then vacuums `staging`.
    func dropSnapshot(_ id: Int64, staged: Int) async throws(StoreError) {
        let logger = logger
        try await transaction(cancellable: false) { connection in
            try await connection.query("DELETE FROM snapshots WHERE id = \(id)", logger: logger)
            try await connection.query("DELETE FROM staging WHERE snapshot = \(id)", logger: logger)
        }
        openSnapshots.withLock { _ = $0.remove(id) }
        if staged >= Self.vacuumFloor { await vacuum(["staging"]) }
    }

    /// `duration` as the text of a PostgreSQL `interval`, to the millisecond.
    static func interval(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds) seconds \(attoseconds / 1_000_000_000_000_000) milliseconds"
    }
}
