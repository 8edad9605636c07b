import Foundation
import GRDB

/// Where an incremental resource is (docs/schema.md#cursors): the value its
/// next sync sends, and the walk a sync left unfinished.
public struct SyncCursor: Sendable, Hashable {
    /// A walk cut off after a checkpoint: the next sync goes on from its next page.
    public struct Walk: Sendable, Hashable {
        /// The page to ask for next, as the fetch stored it (secrets sealed).
        public var next: String
        /// The pages committed so far.
        public var pages: Int
        /// The value the walk sent.
        public var sent: Date?
        /// The largest value seen so far (of the items, or the last page's body).
        public var largest: Date?
        /// The run row the walk writes to.
        public var run: Int64

        /// Creates a walk's state.
        public init(next: String, pages: Int, sent: Date?, largest: Date?, run: Int64) {
            self.next = next
            self.pages = pages
            self.sent = sent
            self.largest = largest
            self.run = run
        }
    }

    /// A fingerprint of the request the cursor belongs to: another request starts afresh.
    public var request: String
    /// The value for the next sync; `nil` before the first complete walk.
    public var since: Date?
    /// A walk that was cut off, resumed by the next sync.
    public var walk: Walk?
    /// When the last full sync (`fullResyncEvery`) ended.
    public var fullAt: Date?

    /// Creates a cursor.
    public init(request: String, since: Date? = nil, walk: Walk? = nil, fullAt: Date? = nil) {
        self.request = request
        self.since = since
        self.walk = walk
        self.fullAt = fullAt
    }
}

/// What one page of an incremental sync does to the records, in order.
public enum IncrementalChange: Sendable, Hashable {
    /// Insert or update the record.
    case upsert(StagedRecord)
    /// Delete the record with this key, if there is one.
    case delete(key: String)

    var key: String {
        switch self {
        case .upsert(let record): record.key
        case .delete(let key): key
        }
    }

    /// The last change of each key in `changes`, in the order of those last changes:
    /// what a page does once its repeats are folded (the later wins).
    public static func lastOfEachKey(_ changes: [IncrementalChange]) -> [IncrementalChange] {
        var last: [String: Int] = [:]
        for (index, change) in changes.enumerated() { last[change.key] = index }
        return changes.enumerated().filter { last[$0.element.key] == $0.offset }.map(\.element)
    }
}

/// One page of an incremental sync, applied on its own: a checkpoint.
public struct IncrementalPage: Sendable {
    /// The resource synced.
    public var resource: String
    /// The cursor's scope: the values a dependent resource's URL read, else "".
    public var scope: String
    /// What the page does to the records, in the page's order.
    public var changes: [IncrementalChange]
    /// The cursor after the page (its walk `nil` once the walk is complete).
    public var cursor: SyncCursor
    /// The sync's run row, `nil` for its first page (which makes one).
    public var run: Int64?
    /// What started the sync, and when, for the run row the first page makes.
    public var trigger: SyncTrigger
    /// When the sync started.
    public var startedAt: Date

    /// Creates a page to apply.
    public init(
        resource: String, scope: String, changes: [IncrementalChange], cursor: SyncCursor, run: Int64?,
        trigger: SyncTrigger, startedAt: Date
    ) {
        self.resource = resource
        self.scope = scope
        self.changes = changes
        self.cursor = cursor
        self.run = run
        self.trigger = trigger
        self.startedAt = startedAt
    }
}

/// What applying an incremental page did.
public struct AppliedPage: Sendable, Hashable {
    /// The sync's run row.
    public var run: Int64
    /// The records it inserted, updated and deleted.
    public var changes: SnapshotChanges
    /// The seqs of its changes in the feed, if it made any.
    public var feed: ClosedRange<Int64>?
}

extension SyncStore {
    /// The message of an incremental sync's run row until the sync ends: what
    /// history shows if the process stops in the middle.
    public static let interruptedMessage =
        "the sync was cut off after a checkpoint; the next one goes on after its last committed page"

    /// The cursor of `resource` in `scope`, if it has one.
    public func cursor(of resource: String, scope: String = "") async throws(StoreError) -> SyncCursor? {
        try await read { db in try Self.cursor(of: resource, scope: scope, db) }
    }

    /// Applies one page of an incremental sync in one transaction
    /// (docs/configuration.md#incremental-resources): its records merged by key
    /// (a changed one's `updated_at` moves, an unchanged one is not touched, the
    /// last of one key wins), its deletions, a change in the feed for each, and
    /// the cursor after it. The first page makes the sync's run row.
    public func applyPage(_ page: IncrementalPage) async throws(StoreError) -> AppliedPage {
        try await write { db in
            let now = Timestamp.string(from: Date())
            let run = try page.run ?? Self.insertInterruptedRun(page, at: now, db)
            let select = try db.cachedStatement(sql: "SELECT data FROM records WHERE resource = ? AND key = ?")
            let insert = try db.cachedStatement(
                sql: "INSERT INTO records (resource, key, data, updated_at, page) VALUES (?, ?, ?, ?, NULL)")
            let update = try db.cachedStatement(
                sql: "UPDATE records SET data = ?, updated_at = ?, page = NULL WHERE resource = ? AND key = ?")
            let delete = try db.cachedStatement(sql: "DELETE FROM records WHERE resource = ? AND key = ?")
            let feed = try db.cachedStatement(
                sql: "INSERT INTO changes (resource, key, op, sync_run, at) VALUES (?, ?, ?, ?, ?)")
            var counts = SnapshotChanges()
            var written: Int64 = 0
            for change in IncrementalChange.lastOfEachKey(page.changes) {
                let op: ChangeOperation
                switch change {
                case .upsert(let record):
                    let before = try String.fetchOne(select, arguments: [page.resource, record.key])
                    if before == record.data { continue }
                    if before == nil {
                        try insert.execute(arguments: [page.resource, record.key, record.data, now])
                        op = .insert
                        counts.added += 1
                    } else {
                        try update.execute(arguments: [record.data, now, page.resource, record.key])
                        op = .update
                        counts.changed += 1
                    }
                case .delete(let key):
                    try delete.execute(arguments: [page.resource, key])
                    guard db.changesCount > 0 else { continue }
                    op = .delete
                    counts.removed += 1
                }
                try feed.execute(arguments: [page.resource, change.key, op.rawValue, run, now])
                written += 1
            }
            let lastSeq = db.lastInsertedRowID
            try db.execute(
                sql:
                    "UPDATE sync_runs SET added = added + ?, changed = changed + ?, removed = removed + ? WHERE id = ?",
                arguments: [counts.added, counts.changed, counts.removed, run])
            var cursor = page.cursor
            cursor.walk?.run = run
            try Self.saveCursor(cursor, of: page.resource, scope: page.scope, at: now, db)
            return AppliedPage(
                run: run, changes: counts, feed: written > 0 ? (lastSeq - written + 1)...lastSeq : nil)
        }
    }

    /// The run row of an incremental sync, as it stays if the sync is cut off.
    private static func insertInterruptedRun(_ page: IncrementalPage, at now: String, _ db: Database) throws -> Int64 {
        try db.execute(
            sql: """
                INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                       bytes, wire_bytes, error, error_kind)
                VALUES (?, ?, ?, ?, 'cancelled', 1, 0, 0, 0, 0, ?, 'cancelled')
                """,
            arguments: [
                page.resource, page.trigger.rawValue, Timestamp.string(from: page.startedAt), now,
                "\(page.resource): \(interruptedMessage)",
            ])
        return db.lastInsertedRowID
    }

    static func cursor(of resource: String, scope: String, _ db: Database) throws -> SyncCursor? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT * FROM cursors WHERE resource = ? AND scope = ?", arguments: [resource, scope])
        else { return nil }
        func date(_ column: String) -> Date? { (row[column] as String?).flatMap(Timestamp.date(from:)) }
        var cursor = SyncCursor(request: row["request"], since: date("since"), fullAt: date("full_at"))
        if let next = row["walk"] as String? {
            cursor.walk = SyncCursor.Walk(
                next: next, pages: row["walk_pages"] ?? 0, sent: date("walk_sent"), largest: date("walk_largest"),
                run: row["walk_run"] ?? 0)
        }
        return cursor
    }

    static func saveCursor(
        _ cursor: SyncCursor, of resource: String, scope: String, at now: String, _ db: Database
    )
        throws
    {
        let since = cursor.since.map(Timestamp.string(from:))
        try db.execute(
            sql: """
                INSERT INTO cursors (resource, scope, request, since, walk, walk_pages, walk_sent, walk_largest,
                                     walk_run, full_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (resource, scope) DO UPDATE SET
                    request = excluded.request, since = excluded.since, walk = excluded.walk,
                    walk_pages = excluded.walk_pages, walk_sent = excluded.walk_sent,
                    walk_largest = excluded.walk_largest, walk_run = excluded.walk_run, full_at = excluded.full_at,
                    updated_at = excluded.updated_at
                """,
            arguments: [
                resource, scope, cursor.request, since, cursor.walk?.next, cursor.walk?.pages,
                cursor.walk?.sent.map(Timestamp.string(from:)), cursor.walk?.largest.map(Timestamp.string(from:)),
                cursor.walk?.run, cursor.fullAt.map(Timestamp.string(from:)), now,
            ])
        try db.execute(sql: "UPDATE resources SET since = ? WHERE name = ?", arguments: [since, resource])
    }
}
