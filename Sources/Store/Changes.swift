import Foundation

/// What happened to a record in a change of the feed.
public enum ChangeOperation: String, Sendable, Hashable, Codable, CaseIterable {
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
