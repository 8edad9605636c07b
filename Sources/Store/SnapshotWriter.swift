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
/// A page the server answered 304 is not staged: its records stay as the
/// previous snapshot has them (``keepUnchanged(page:)``), so applying a sync
/// in which one page of many changed writes that page only. Every page's
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
    /// Whether a key staged again replaces the one staged before (an incremental
    /// resource's full sync: page edges overlap) rather than being refused.
    let lastWins: Bool
    /// The pages of the snapshot, stored with it.
    private(set) var pages: [StoredPage] = []
    /// The pages whose records the previous snapshot holds, unchanged.
    private(set) var unchangedPages: [Int] = []
    private var isOpen = true

    init(store: SyncStore, resource: String, table: String, lastWins: Bool) {
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

    /// Stages one page of records: page `page` of the walk.
    ///
    /// - Throws: ``StoreError/Kind/duplicateKey`` when a key was already staged
    ///   in this sync; ``StoreError/Kind/io`` when the write fails.
    public func stage(_ records: [StagedRecord], page: Int? = nil) async throws(StoreError) {
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

    /// Takes the records of `keys` out of the snapshot again (an incremental
    /// resource's full sync: a later item said they were deleted).
    public func unstage(_ keys: [String]) async throws(StoreError) {
        precondition(isOpen, "unstage(_:) after the snapshot was applied or discarded")
        guard !keys.isEmpty else { return }
        let table = table
        try await store.writeTemporary { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM temp.\(table) WHERE key = ?")
            for key in keys { try statement.execute(arguments: [key]) }
        }
    }

    /// Keeps the records the previous snapshot took from page `page`, which
    /// the server says has not changed: they stay where they are, unless a
    /// page staged in this sync holds the same key (its record wins).
    public func keepUnchanged(page: Int) {
        precondition(isOpen, "keepUnchanged(page:) after the snapshot was applied or discarded")
        unchangedPages.append(page)
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

    /// Starts a new snapshot of `resource`; with `lastWins`, a key staged again
    /// replaces the record staged before instead of being refused.
    public func beginSnapshot(of resource: String, lastWins: Bool = false) async throws(StoreError) -> SnapshotWriter {
        let table = "staging_\(UInt64.random(in: 0...UInt64.max))"
        try await writeTemporary { db in
            try db.execute(
                sql: """
                    CREATE TEMP TABLE \(table) (
                        key TEXT PRIMARY KEY NOT NULL, data TEXT NOT NULL, page INTEGER
                    ) WITHOUT ROWID
                    """)
        }
        return SnapshotWriter(store: self, resource: resource, table: table, lastWins: lastWins)
    }
}
