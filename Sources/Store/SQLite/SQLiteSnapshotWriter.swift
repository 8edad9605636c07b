import Foundation
import GRDB

/// A snapshot of ``SQLiteStore`` while its pages arrive: they are staged in a
/// temporary table of the writer connection (on disk, invisible to readers).
///
/// Thread-safety: not `Sendable`; one sync uses it from one task.
final class SQLiteSnapshotWriter: SnapshotWriter {
    let resource: String
    private(set) var stagedCount = 0

    let store: SQLiteStore
    let table: String
    /// Whether a key staged again replaces the one staged before (an incremental
    /// resource's full sync: page edges overlap) rather than being refused.
    let lastWins: Bool
    private(set) var kept = SnapshotPages()
    private var isOpen = true

    init(store: SQLiteStore, resource: String, table: String, lastWins: Bool) {
        self.store = store
        self.resource = resource
        self.table = table
        self.lastWins = lastWins
    }

    deinit {
        // A writer dropped without being applied or discarded must not leave
        // its staging table on the writer connection; the drop runs on its own.
        if isOpen {
            Task { [store, table] in try? await store.dropStagingTable(table) }
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
        let table = table
        let resource = resource
        let upsert = lastWins ? " ON CONFLICT (key) DO UPDATE SET data = excluded.data, page = excluded.page" : ""
        try await store.writeTemporary { db in
            let statement = try db.cachedStatement(
                sql: "INSERT INTO temp.\(table) (key, data, page) VALUES (?, ?, ?)\(upsert)")
            for record in records {
                do {
                    try statement.execute(arguments: [record.key, record.data, page])
                } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY {
                    throw StoreError(
                        .duplicateKey, "two items of \(resource) have the same key \"\(record.key)\"", key: record.key)
                }
            }
        }
        stagedCount += records.count
    }

    func unstage(_ keys: [String]) async throws(StoreError) {
        precondition(isOpen, "unstage(_:) after the snapshot was applied or discarded")
        guard !keys.isEmpty else { return }
        let table = table
        try await store.writeTemporary { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM temp.\(table) WHERE key = ?")
            for key in keys { try statement.execute(arguments: [key]) }
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
        if (try? await store.dropStagingTable(table)) != nil {
            isOpen = false
        }
    }

    /// Marks the writer as applied (its table is dropped by the applying transaction).
    func close() { isOpen = false }
}

extension SQLiteStore {
    /// Drops a staging table, even when the calling task is cancelled.
    func dropStagingTable(_ table: String) async throws(StoreError) {
        try await writeTemporary(cancellable: false) { db in
            try db.execute(sql: "DROP TABLE IF EXISTS temp.\(table)")
        }
    }

    /// Implements ``SyncStore/beginSnapshot(of:lastWins:)``.
    public func beginSnapshot(of resource: String, lastWins: Bool) async throws(StoreError) -> any SnapshotWriter {
        let table = "staging_\(stagingTables.add(1, ordering: .relaxed).newValue)"
        try await writeTemporary { db in
            try db.execute(
                sql: """
                    CREATE TEMP TABLE \(table) (
                        key TEXT PRIMARY KEY NOT NULL, data TEXT NOT NULL, page INTEGER
                    ) WITHOUT ROWID
                    """)
        }
        return SQLiteSnapshotWriter(store: self, resource: resource, table: table, lastWins: lastWins)
    }
}
