import Foundation
import GRDB

/// One record of a page: its key and its JSON.
public struct StagedRecord: Sendable, Hashable {
    /// The record's key within its resource.
    public var key: String
    /// The item's JSON text.
    public var data: String

    /// Creates a staged record.
    public init(key: String, data: String) {
        self.key = key
        self.data = data
    }
}

/// One sync's new snapshot while its pages arrive.
///
/// Pages are staged in a temporary table of the writer connection (on disk,
/// invisible to readers), so memory does not grow with the number of items.
/// A page the server answered 304 is staged from the records the previous
/// snapshot took from that page (``stageUnchanged(page:)``); every page's
/// validators are kept (``keep(_:)``) and stored with the snapshot.
/// ``SyncStore/record(_:snapshot:)`` applies the staged snapshot to `records` as a
/// diff in one transaction; ``discard()`` drops it, leaving the previous snapshot
/// as it was.
///
/// Thread-safety: not `Sendable`; one sync uses it from one task.
public final class SnapshotWriter {
    /// The resource whose snapshot this is.
    public let resource: String
    /// How many records have been staged so far.
    public private(set) var stagedCount = 0

    let store: SyncStore
    let table: String
    /// The pages of the snapshot, stored with it.
    private(set) var pages: [StoredPage] = []
    private var isOpen = true

    init(store: SyncStore, resource: String, table: String) {
        self.store = store
        self.resource = resource
        self.table = table
    }

    deinit {
        // A writer dropped without being applied or discarded must not leave
        // its staging table on the writer connection; the drop runs on its own.
        if isOpen {
            Task { [store, table] in try? await store.dropStagingTable(table) }
        }
    }

    /// Stages one page of records, received now: it is page `page` of the walk.
    ///
    /// A key staged from an earlier received page of this sync is a duplicate;
    /// one staged from an unchanged page gives way (the server's latest word wins).
    ///
    /// - Throws: ``StoreError/Kind/duplicateKey`` when a key was already
    ///   received in this sync; ``StoreError/Kind/io`` when the write fails.
    public func stage(_ records: [StagedRecord], page: Int? = nil) async throws(StoreError) {
        precondition(isOpen, "stage(_:) after the snapshot was applied or discarded")
        guard !records.isEmpty else { return }
        let table = table
        let resource = resource
        try await store.writeTemporary { db in
            let statement = try db.cachedStatement(
                sql: """
                    INSERT INTO temp.\(table) (key, data, page, received) VALUES (?, ?, ?, 1)
                    ON CONFLICT (key) DO UPDATE SET data = excluded.data, page = excluded.page, received = 1
                    WHERE received = 0
                    """)
            for record in records {
                try statement.execute(arguments: [record.key, record.data, page])
                if db.changesCount == 0 {
                    throw StoreError(
                        .duplicateKey, "two items of \(resource) have the same key \"\(record.key)\"", key: record.key)
                }
            }
        }
        stagedCount += records.count
    }

    /// Stages the records the previous snapshot took from page `page`, which
    /// the server says has not changed; returns how many.
    @discardableResult
    public func stageUnchanged(page: Int) async throws(StoreError) -> Int {
        precondition(isOpen, "stageUnchanged(page:) after the snapshot was applied or discarded")
        let table = table
        let resource = resource
        let copied = try await store.writeTemporaryCounting { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO temp.\(table) (key, data, page, received)
                    SELECT key, data, page, 0 FROM records WHERE resource = ? AND page = ?
                    """,
                arguments: [resource, page])
            return db.changesCount
        }
        stagedCount += copied
        return copied
    }

    /// Keeps a page's request, validators and successor, stored with the snapshot.
    public func keep(_ page: StoredPage) {
        pages.append(page)
    }

    /// Drops the staged records; the previous snapshot stays as it was. It runs
    /// to its end even in a cancelled task.
    public func discard() async {
        guard isOpen else { return }
        if (try? await store.dropStagingTable(table)) != nil {
            isOpen = false
        }
    }

    /// Marks the writer as applied (its table is dropped by the applying transaction).
    func close() { isOpen = false }
}

extension SyncStore {
    /// Drops a staging table, even when the calling task is cancelled.
    func dropStagingTable(_ table: String) async throws(StoreError) {
        try await writeTemporary(cancellable: false) { db in
            try db.execute(sql: "DROP TABLE IF EXISTS temp.\(table)")
        }
    }

    /// Starts a new snapshot of `resource`.
    public func beginSnapshot(of resource: String) async throws(StoreError) -> SnapshotWriter {
        let table = "staging_\(UInt64.random(in: 0...UInt64.max))"
        try await writeTemporary { db in
            try db.execute(
                sql: """
                    CREATE TEMP TABLE \(table) (
                        key TEXT PRIMARY KEY NOT NULL, data TEXT NOT NULL, page INTEGER, received INTEGER NOT NULL
                    ) WITHOUT ROWID
                    """)
        }
        return SnapshotWriter(store: self, resource: resource, table: table)
    }
}
