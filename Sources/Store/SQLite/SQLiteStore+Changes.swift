import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/changes(of:after:limit:)``.
    public func changes(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage {
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

    /// Implements ``SyncStore/latestChanges(of:count:)``.
    public func latestChanges(of resource: String?, count: Int) async throws(StoreError) -> [ChangeRow] {
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
            let seq: Int64 = row["seq"]
            return ChangeRow(
                seq: seq, resource: row["resource"], key: row["key"],
                op: try .stored(row["op"], "changes.op", of: "seq \(seq)"), syncRun: row["sync_run"],
                at: (row["at"] as String?).flatMap(Timestamp.date(from:)) ?? .distantPast)
        }
    }

    /// Implements ``SyncStore/lastChangeSeq()``.
    public func lastChangeSeq() async throws(StoreError) -> Int64 {
        try await read { db in try Self.lastSeq(db) }
    }

    /// Implements ``SyncStore/pruneChanges(before:keepingAtMost:batch:)``.
    public func pruneChanges(before: Date, keepingAtMost maxRows: Int, batch: Int) async throws(StoreError) -> Int {
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
