import Foundation
import Store

/// How one sync went: the Result object of the status API
/// (docs/api.md#result), which `refresh --json` prints too.
package struct SyncResult: Sendable, Hashable, Codable {
    /// The resource synced.
    package var resource: String
    /// How it ended.
    package var outcome: SyncOutcome
    /// Whether this caller rode on a sync that someone else started.
    package var joined: Bool
    /// Pages received.
    package var pages: Int
    /// Items received (zero when not modified).
    package var items: Int
    /// Attempts made: 1 plus the retries of its requests.
    package var attempts: Int
    /// How long the sync took.
    package var durationMilliseconds: Int
    /// Why it failed, if it did.
    package var error: StoredError?
    /// What it changed in the snapshot.
    package var changes: SnapshotChanges
    /// For a `rateLimited` sync, how long after its end the rate limit
    /// resets: the next poll comes then. (Not part of the JSON: the
    /// resource's `nextSyncAt` shows it.)
    package var retryAfter: Duration?
    /// The seqs of the changes it wrote to the change feed, if any. (Not part
    /// of the JSON: `GET /v1/events` tells them in a `changes` event.)
    package var feed: ClosedRange<Int64>?
    /// The records the resource holds after it, when it changed them. (Not
    /// part of the JSON: the resource's `items` shows it.)
    package var records: Int?
    /// For an incremental resource, the value its next sync sends. (Not part
    /// of the JSON: the resource's `since` shows it.)
    package var since: Date?

    private enum CodingKeys: String, CodingKey {
        case resource, outcome, joined, pages, items, attempts
        case durationMilliseconds = "durationMs"
        case error, changes
    }

    /// Creates a result.
    package init(
        resource: String, outcome: SyncOutcome, joined: Bool = false, pages: Int = 0, items: Int = 0,
        attempts: Int = 1, durationMilliseconds: Int = 0, error: StoredError? = nil,
        changes: SnapshotChanges = SnapshotChanges(), feed: ClosedRange<Int64>? = nil, records: Int? = nil,
        since: Date? = nil
    ) {
        self.resource = resource
        self.outcome = outcome
        self.joined = joined
        self.pages = pages
        self.items = items
        self.attempts = attempts
        self.durationMilliseconds = durationMilliseconds
        self.error = error
        self.changes = changes
        self.feed = feed
        self.records = records
        self.since = since
    }

    /// The result of a sync recorded in the database, as seen by a caller that joined it.
    package init(run: SyncRunRow, joined: Bool) {
        self.init(
            resource: run.resource, outcome: run.outcome, joined: joined, pages: run.pages, items: run.items,
            attempts: run.attempts, durationMilliseconds: run.durationMilliseconds, error: run.error,
            changes: run.changes)
    }
}
