import Foundation
import Store

/// A resource's status, the Resource object of SPEC §4.
package struct ResourceStatus: Sendable, Hashable {
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

    /// The status of `name` as stored in `row` (never synced when `nil`).
    package init(name: String, row: ResourceRow?) {
        self.name = name
        state = row?.state ?? .idle
        lastSuccessAt = row?.lastSuccessAt
        lastAttemptAt = row?.lastAttemptAt
        items = row?.itemCount ?? 0
        lastError = row?.lastError
    }

    /// The Resource object of SPEC §4.
    package var json: JSONValue {
        [
            "name": .string(name),
            "state": .string(state.rawValue),
            "slow": .bool(slow),
            "message": .string(message),
            "lastSuccessAt": JSONValue.timestamp(lastSuccessAt),
            "lastAttemptAt": JSONValue.timestamp(lastAttemptAt),
            "nextSyncAt": JSONValue.timestamp(nextSyncAt),
            "attempt": .number(attempt),
            "items": .number(items),
            "lastError": lastError.map(\.json) ?? .null,
        ]
    }
}

extension JSONValue {
    /// A timestamp for JSON: ISO 8601 UTC with milliseconds, or `null`.
    package static func timestamp(_ date: Date?) -> JSONValue { .string(date.map(Timestamp.string(from:))) }
}
