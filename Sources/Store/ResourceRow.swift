import Foundation

/// A row of the `resources` table: the last known state of one resource.
public struct ResourceRow: Sendable, Hashable {
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
    public var since: SinceState?

    /// Creates a row.
    public init(
        name: String, state: ResourceState = .idle, lastSuccessAt: Date? = nil, lastAttemptAt: Date? = nil,
        lastError: StoredError? = nil, validators: Validators = Validators(), itemCount: Int = 0,
        since: SinceState? = nil
    ) {
        self.name = name
        self.state = state
        self.lastSuccessAt = lastSuccessAt
        self.lastAttemptAt = lastAttemptAt
        self.lastError = lastError
        self.validators = validators
        self.itemCount = itemCount
        self.since = since
    }
}
