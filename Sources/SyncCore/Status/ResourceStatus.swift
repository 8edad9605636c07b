import Foundation
import Store

/// A resource's status: the Resource object of the status API
/// (docs/api.md#resource), which the agent serves and its commands read.
package struct ResourceStatus: Sendable, Hashable, Codable {
    /// The resource's name.
    package var name: String
    /// Its state.
    package var state: ResourceState
    /// Whether its running sync has taken longer than `slowAfter`.
    package var slow = false
    /// A note for people, such as `taking longer than expected`.
    package var message: String?
    /// When its last successful sync finished.
    package var lastSuccessAt: Date?
    /// When its last sync started.
    package var lastAttemptAt: Date?
    /// When it is due to sync next, if the agent knows.
    package var nextSyncAt: Date?
    /// The attempt of the running sync (0 when idle).
    package var attempt = 0
    /// The number of records in its snapshot.
    package var items = 0
    /// The error of its last failed sync, cleared by a success.
    package var lastError: StoredError?
    /// For an incremental resource, the value its next sync sends (before the lookback).
    package var since: SinceState?
    /// In a fleet, the agent that holds its lease (docs/fleet.md); `nil` outside
    /// a fleet, or while no agent holds it.
    package var owner: String?
    /// For a resource that declares `columns`, its typed tables and the first
    /// value a sync stored as NULL because it did not fit (docs/schema.md#typed-tables).
    package var columns: ColumnsStatus?

    /// A resource in `state`, with nothing else known yet.
    package init(name: String, state: ResourceState) {
        self.name = name
        self.state = state
    }

    /// The status of `name` as stored in `row` (never synced when `nil`).
    package init(name: String, row: ResourceRow?) {
        self.init(name: name, state: row?.state ?? .idle)
        lastSuccessAt = row?.lastSuccessAt
        lastAttemptAt = row?.lastAttemptAt
        items = row?.itemCount ?? 0
        lastError = row?.lastError
        since = row?.since
    }
}

/// A resource's new status, numbered: statuses change in the order of their
/// versions, and a snapshot taken at version `v` (``StatePublication/snapshot()``)
/// already shows every change numbered `v` or lower.
package struct StatusChange: Sendable, Hashable {
    /// The publication's version when the status changed.
    package var version: Int
    /// The status it changed to.
    package var status: ResourceStatus
    /// The seqs of the change feed that the sync which ended with this change
    /// wrote, if it wrote any.
    package var feed: ClosedRange<Int64>?

    package init(version: Int, status: ResourceStatus, feed: ClosedRange<Int64>? = nil) {
        self.version = version
        self.status = status
        self.feed = feed
    }
}

/// The typed tables of a resource (docs/schema.md#typed-tables), as status shows them.
package struct ColumnsStatus: Sendable, Hashable, Codable {
    /// The resource's table, then its child tables.
    package var tables: [String]
    /// The first value a sync stored as NULL because it did not fit its
    /// column, until that record fits again; `nil` when none.
    package var misfit: ColumnMisfit?

    package init(tables: [String], misfit: ColumnMisfit? = nil) {
        self.tables = tables
        self.misfit = misfit
    }
}
