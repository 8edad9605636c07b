import Foundation
import GRDB

/// A row of the `resources` table: the last known state of one resource.
public struct ResourceRow: Sendable, Hashable, FetchableRecord {
    /// The resource's name.
    public var name: String
    /// Its state when last written.
    public var state: ResourceState
    /// When its last successful sync finished.
    public var lastSuccessAt: Date?
    /// When its last sync started.
    public var lastAttemptAt: Date?
    /// The error of its last failed sync, cleared by a success.
    public var lastError: StoredError?
    /// The validators of the last successful full sync.
    public var validators: Validators
    /// The number of records in its snapshot.
    public var itemCount: Int
    /// For an incremental resource, the value its next sync sends (before the lookback).
    public var since: Date?

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
        since = (row[Columns.since] as String?).flatMap(Timestamp.date(from:))
    }
}

extension StoredError {
    /// An error read from its columns, or `nil` when the message column is empty.
    init?(message: String?, kind: String?, status: Int?) {
        guard let message else { return nil }
        self.init(kind: kind ?? "unrecoverable", message: message, status: status)
    }
}
