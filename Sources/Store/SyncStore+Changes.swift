import Foundation
import GRDB

/// What happened to a record in a change of the feed.
public enum ChangeOperation: String, Sendable, Hashable, Codable {
    case insert, update, delete
}

/// A row of the `changes` table: one record inserted, updated or deleted by a sync.
public struct ChangeRow: Sendable, Hashable {
    /// The change's place in the feed, increasing, never reused.
    public var seq: Int64
    /// The resource of the record.
    public var resource: String
    /// The record's key.
    public var key: String
    /// What happened to it.
    public var op: ChangeOperation
    /// The id of the sync that made it (its row of `sync_runs` may be pruned since).
    public var syncRun: Int64?
    /// When the sync applied it.
    public var at: Date

    /// Creates a change.
    public init(seq: Int64, resource: String, key: String, op: ChangeOperation, syncRun: Int64?, at: Date) {
        self.seq = seq
        self.resource = resource
        self.key = key
        self.op = op
        self.syncRun = syncRun
        self.at = at
    }
}

/// A part of the change feed, as a reader asked for it.
public struct ChangePage: Sendable, Hashable {
    /// The changes, in feed order.
    public var changes: [ChangeRow]
    /// The seq to ask after next: the last change's, or, when fewer than asked
    /// for came (there are no more for now), the newest seq of the feed.
    public var next: Int64
    /// Whether changes after the seq asked after were pruned before they were
    /// read: the reader missed some, and must read the records again.
    public var missed: Bool

    /// Creates a part of the feed.
    public init(changes: [ChangeRow], next: Int64, missed: Bool) {
        self.changes = changes
        self.next = next
        self.missed = missed
    }
}

extension SyncStore {
    /// The changes after `seq`, in order, of one resource or of all: at most `limit`.
    public func changes(of resource: String? = nil, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage
    {
        try await read { db in
            let changes =
                if let resource {
                    try Self.changeRows(
                        db, "SELECT * FROM changes WHERE resource = ? AND seq > ? ORDER BY seq LIMIT ?",
                        [resource, seq, limit])
                } else {
                    try Self.changeRows(db, "SELECT * FROM changes WHERE seq > ? ORDER BY seq LIMIT ?", [seq, limit])
                }
            // Seqs are given one after the other and pruned from the oldest: the
            // first one kept tells whether any after `seq` is gone. A short page
            // holds every change of this read: the reader is past the newest seq,
            // whatever resource it came from.
            let next = changes.count < limit ? max(seq, try Self.lastSeq(db)) : changes.last?.seq ?? seq
            return ChangePage(changes: changes, next: next, missed: try Self.firstKeptSeq(db) > seq + 1)
        }
    }

    /// The newest `count` changes, of one resource or of all, in feed order.
    public func latestChanges(of resource: String? = nil, count: Int) async throws(StoreError) -> [ChangeRow] {
        try await read { db in
            let newest =
                if let resource {
                    try Self.changeRows(
                        db, "SELECT * FROM changes WHERE resource = ? ORDER BY seq DESC LIMIT ?", [resource, count])
                } else {
                    try Self.changeRows(db, "SELECT * FROM changes ORDER BY seq DESC LIMIT ?", [count])
                }
            return newest.reversed()
        }
    }

    private static func changeRows(
        _ db: Database, _ sql: String, _ arguments: StatementArguments
    ) throws
        -> [ChangeRow]
    {
        try Row.fetchAll(db, sql: sql, arguments: arguments).map { row in
            ChangeRow(
                seq: row["seq"], resource: row["resource"], key: row["key"],
                op: ChangeOperation(rawValue: row["op"] ?? "") ?? .update, syncRun: row["sync_run"],
                at: (row["at"] as String?).flatMap(Timestamp.date(from:)) ?? .distantPast)
        }
    }

    /// The newest seq of the feed, 0 when it never had a change.
    public func lastChangeSeq() async throws(StoreError) -> Int64 {
        try await read { db in try Self.lastSeq(db) }
    }

    /// Prunes at most `batch` of the oldest changes: those applied before
    /// `before`, and those beyond the newest `maxRows`. One short transaction,
    /// so that syncs are not held up: call it again while it returns `batch`.
    ///
    /// - Returns: How many changes it pruned.
    public func pruneChanges(
        before: Date, keepingAtMost maxRows: Int, batch: Int = 5000
    ) async throws(StoreError)
        -> Int
    {
        let cutoff = Timestamp.string(from: before)
        return try await write { db in
            guard let first = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM changes") else { return 0 }
            let limit = first + Int64(batch)
            // Seqs grow with time: the first change applied since `before` ends the old
            // ones (found walking from the oldest, through one batch at most).
            let firstRecent =
                try Int64.fetchOne(
                    db, sql: "SELECT seq FROM changes WHERE seq < ? AND at >= ? ORDER BY seq LIMIT 1",
                    arguments: [limit, cutoff]) ?? limit
            let firstWithinCap = try Self.lastSeq(db) - Int64(maxRows) + 1
            let end = min(max(firstRecent, firstWithinCap), limit)
            guard end > first else { return 0 }
            try db.execute(sql: "DELETE FROM changes WHERE seq < ?", arguments: [end])
            return db.changesCount
        }
    }

    /// The newest seq given, pruned or not (AUTOINCREMENT keeps it in `sqlite_sequence`).
    private static func lastSeq(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT seq FROM sqlite_sequence WHERE name = 'changes'") ?? 0
    }

    /// The oldest seq still in the feed (the next one to be given when it is empty).
    private static func firstKeptSeq(_ db: Database) throws -> Int64 {
        if let first = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM changes") { return first }
        return try lastSeq(db) + 1
    }
}
