import Foundation
import GRDB

extension ResourceRow: FetchableRecord {
    /// The columns of the `resources` table.
    public enum Columns {
        static let name = Column("name")
        static let state = Column("state")
        static let lastSuccessAt = Column("last_success_at")
        static let lastAttemptAt = Column("last_attempt_at")
        static let lastError = Column("last_error")
        static let lastErrorKind = Column("last_error_kind")
        static let lastErrorStatus = Column("last_error_status")
        static let etag = Column("etag")
        static let lastModified = Column("last_modified")
        static let validatorsScope = Column("validators_scope")
        static let itemCount = Column("item_count")
        static let since = Column("since")
        static let sinceToken = Column("since_token")
    }

    /// Decodes a row of `resources`.
    public init(row: Row) throws {
        name = row[Columns.name]
        state = ResourceState(rawValue: row[Columns.state] ?? "") ?? .idle
        lastSuccessAt = (row[Columns.lastSuccessAt] as String?).flatMap(Timestamp.date(from:))
        lastAttemptAt = (row[Columns.lastAttemptAt] as String?).flatMap(Timestamp.date(from:))
        lastError = StoredError(
            message: row[Columns.lastError], kind: row[Columns.lastErrorKind], status: row[Columns.lastErrorStatus])
        validators = Validators(
            etag: row[Columns.etag], lastModified: row[Columns.lastModified], scope: row[Columns.validatorsScope])
        itemCount = row[Columns.itemCount] ?? 0
        since = SinceState(
            time: (row[Columns.since] as String?).flatMap(Timestamp.time(from:)), token: row[Columns.sinceToken])
    }
}

extension SyncRunRow: FetchableRecord {
    /// The columns of the `sync_runs` table.
    public enum Columns {
        static let id = Column("id")
        static let resource = Column("resource")
        static let trigger = Column("trigger")
        static let startedAt = Column("started_at")
        static let finishedAt = Column("finished_at")
        static let outcome = Column("outcome")
        static let attempts = Column("attempts")
        static let pages = Column("pages")
        static let items = Column("items")
        static let bytes = Column("bytes")
        static let wireBytes = Column("wire_bytes")
        static let error = Column("error")
        static let errorKind = Column("error_kind")
        static let errorStatus = Column("error_status")
        static let added = Column("added")
        static let changed = Column("changed")
        static let removed = Column("removed")
        static let since = Column("since")
        static let sinceToken = Column("since_token")
    }

    /// Decodes a row of `sync_runs`.
    public init(row: Row) throws {
        id = row[Columns.id]
        resource = row[Columns.resource]
        trigger = SyncTrigger(rawValue: row[Columns.trigger] ?? "") ?? .refresh
        startedAt = (row[Columns.startedAt] as String?).flatMap(Timestamp.date(from:)) ?? .distantPast
        finishedAt = (row[Columns.finishedAt] as String?).flatMap(Timestamp.date(from:))
        // NULL while the sync runs.
        outcome = (row[Columns.outcome] as String?).map { SyncOutcome(rawValue: $0) ?? .failed }
        let bytes: Int = row[Columns.bytes] ?? 0
        counts = SyncCounts(
            attempts: row[Columns.attempts] ?? 0, pages: row[Columns.pages] ?? 0, items: row[Columns.items] ?? 0,
            bytes: bytes, wireBytes: row[Columns.wireBytes] ?? bytes)
        error = StoredError(message: row[Columns.error], kind: row[Columns.errorKind], status: row[Columns.errorStatus])
        changes = SnapshotChanges(
            added: row[Columns.added] ?? 0, changed: row[Columns.changed] ?? 0, removed: row[Columns.removed] ?? 0)
        since = SinceState(
            time: (row[Columns.since] as String?).flatMap(Timestamp.time(from:)), token: row[Columns.sinceToken])
    }
}
