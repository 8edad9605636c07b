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
            Task { [store, id] in try? await store.dropSnapshot(id) }
        }
    }

    func stage(_ records: [StagedRecord], page: Int?) async throws(StoreError) {
        precondition(isOpen, "stage(_:) after the snapshot was applied or discarded")
        guard !records.isEmpty else { return }
        var batch = records
        if lastWins {
            // One statement cannot update a row twice: the last of each key goes.
            var last: [String: Int] = [:]
            for (index, record) in records.enumerated() { last[record.key] = index }
            batch = records.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
        } else {
            var seen = Set<String>()
            for record in records where !seen.insert(record.key).inserted {
                throw duplicate(record.key)
            }
        }
        let keys = batch.map(\.key)
        let data = batch.map(\.data)
        let (id, logger, lastWins) = (id, store.logger, lastWins)
        let inserted = try await store.transaction { connection in
            Set(
                try await connection.rows(
                    """
                    INSERT INTO staging (snapshot, key, data, page)
                    SELECT \(id), key, data::jsonb, \(page) FROM unnest(\(keys)::text[], \(data)::text[]) AS t(key, data)
                    ON CONFLICT (snapshot, key) DO \(unescaped: lastWins ? "UPDATE SET data = excluded.data, page = excluded.page" : "NOTHING")
                    RETURNING key
                    """, logger
                ).compactMap { try $0.get("key", as: String.self) })
        }
        // A key an earlier page staged is not inserted again.
        if inserted.count < batch.count {
            throw duplicate(keys.first { !inserted.contains($0) } ?? keys[0])
        }
        stagedCount += records.count
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
        if (try? await store.dropSnapshot(id)) != nil {
            isOpen = false
        }
    }

    /// Marks the writer as applied (its rows are removed by the applying transaction).
    func close() { isOpen = false }
}

extension PostgresStore {
    /// Implements ``SyncStore/beginSnapshot(of:lastWins:)``.
    public func beginSnapshot(of resource: String, lastWins: Bool) async throws(StoreError) -> any SnapshotWriter {
        let logger = logger
        let now = Timestamp.string(from: Date())
        let id = try await transaction { connection in
            try await connection.value(
                Int64.self,
                "INSERT INTO snapshots (resource, began_at) VALUES (\(resource), \(now)::timestamptz) RETURNING id",
                logger) ?? 0
        }
        return PostgresSnapshotWriter(store: self, resource: resource, id: id, lastWins: lastWins)
    }

    /// Removes a snapshot's staged rows, even when the calling task is cancelled.
    func dropSnapshot(_ id: Int64) async throws(StoreError) {
        let logger = logger
        try await transaction(cancellable: false) { connection in
            try await connection.query("DELETE FROM staging WHERE snapshot = \(id)", logger: logger)
            try await connection.query("DELETE FROM snapshots WHERE id = \(id)", logger: logger)
        }
    }
}
