import Foundation
import Store

/// A resource's status, the Resource object of SPEC §4.
public struct ResourceStatus: Sendable, Hashable {
    /// The resource's name.
    public var name: String
    /// Its state.
    public var state: ResourceState
    /// Whether its running sync has taken longer than `slowAfter`.
    public var slow = false
    /// A note for people, such as `taking longer than expected`.
    public var message: String?
    /// When its last successful sync finished.
    public var lastSuccessAt: Date?
    /// When its last sync started.
    public var lastAttemptAt: Date?
    /// When it is due to sync next, if the agent knows.
    public var nextSyncAt: Date?
    /// The attempt of the running sync (0 when idle).
    public var attempt = 0
    /// The number of records in its snapshot.
    public var items = 0
    /// The error of its last failed sync, cleared by a success.
    public var lastError: StoredError?

    /// The status of `name` as stored in `row` (never synced when `nil`).
    init(name: String, row: ResourceRow?) {
        self.name = name
        state = row?.state ?? .idle
        lastSuccessAt = row?.lastSuccessAt
        lastAttemptAt = row?.lastAttemptAt
        items = row?.itemCount ?? 0
        lastError = row?.lastError
    }

    /// The Resource object of SPEC §4.
    public var json: JSONValue {
        [
            "name": .string(name),
            "state": .string(state.rawValue),
            "slow": .bool(slow),
            "message": .string(message),
            "lastSuccessAt": TimestampText.json(lastSuccessAt),
            "lastAttemptAt": TimestampText.json(lastAttemptAt),
            "nextSyncAt": TimestampText.json(nextSyncAt),
            "attempt": .number(attempt),
            "items": .number(items),
            "lastError": lastError.map(\.json) ?? .null,
        ]
    }
}
