import Foundation
import Logging
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
    /// What it received (items: zero when not modified), and in how many
    /// attempts; the JSON has `pages`, `items` and `attempts`, not the bytes.
    package var counts: SyncCounts
    /// How long the sync took.
    package var durationMilliseconds: Int
    /// Why it failed, if it did.
    package var error: StoredError?
    /// What it changed in the snapshot.
    package var changes: SnapshotChanges
    /// For a resource with typed columns, the values it stored as NULL
    /// because they did not fit their column (docs/schema.md#typed-tables).
    package var misfits: Int?

    private enum CodingKeys: String, CodingKey {
        case resource, outcome, joined, pages, items, attempts
        case durationMilliseconds = "durationMs"
        case error, changes, misfits
    }

    /// Creates a result.
    package init(
        resource: String, outcome: SyncOutcome, joined: Bool = false, counts: SyncCounts = SyncCounts(),
        durationMilliseconds: Int = 0, error: StoredError? = nil, changes: SnapshotChanges = SnapshotChanges()
    ) {
        self.resource = resource
        self.outcome = outcome
        self.joined = joined
        self.counts = counts
        self.durationMilliseconds = durationMilliseconds
        self.error = error
        self.changes = changes
    }

    /// The result of a sync recorded in the database, as seen by a caller that
    /// joined it: a run that ended (one still running is told as cancelled,
    /// which is no answer to a caller).
    package init(run: SyncRunRow, joined: Bool) {
        self.init(
            resource: run.resource, outcome: run.outcome ?? .cancelled, joined: joined, counts: run.counts,
            durationMilliseconds: run.durationMilliseconds ?? 0, error: run.error, changes: run.changes)
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        resource = try container.decode(String.self, forKey: .resource)
        outcome = try container.decode(SyncOutcome.self, forKey: .outcome)
        joined = try container.decode(Bool.self, forKey: .joined)
        counts = SyncCounts(
            attempts: try container.decode(Int.self, forKey: .attempts),
            pages: try container.decode(Int.self, forKey: .pages),
            items: try container.decode(Int.self, forKey: .items))
        durationMilliseconds = try container.decode(Int.self, forKey: .durationMilliseconds)
        error = try container.decodeIfPresent(StoredError.self, forKey: .error)
        changes = try container.decode(SnapshotChanges.self, forKey: .changes)
        misfits = try container.decodeIfPresent(Int.self, forKey: .misfits)
    }

    /// The members in the order docs/api.md#result lists them, as the synthesized encoding would.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(resource, forKey: .resource)
        try container.encode(outcome, forKey: .outcome)
        try container.encode(joined, forKey: .joined)
        try container.encode(counts.pages, forKey: .pages)
        try container.encode(counts.items, forKey: .items)
        try container.encode(counts.attempts, forKey: .attempts)
        try container.encode(durationMilliseconds, forKey: .durationMilliseconds)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encode(changes, forKey: .changes)
        try container.encodeIfPresent(misfits, forKey: .misfits)
    }
}

/// How one sync ended, as the engine knows it: the ``SyncResult`` its callers
/// get, and what the engine's parts need besides, which the status API tells
/// elsewhere (the resource's `nextSyncAt`, `items` and `since`, the `changes`
/// event of `GET /v1/events`).
package struct SyncReport: Sendable, Hashable {
    /// What the callers get.
    package var result: SyncResult
    /// For a `rateLimited` sync, how long after its end the rate limit
    /// resets: the next poll comes then.
    package var retryAfter: Duration?
    /// The seqs of the changes it wrote to the change feed, if any.
    package var feed: ClosedRange<Int64>?
    /// The records the resource holds after it, when it changed them.
    package var records: Int?
    /// For an incremental resource, the value its next sync sends.
    package var since: SinceState?
    /// What it did to the resource's typed table, when it declares one and
    /// records were written.
    package var columns: TypedTableWrite?

    /// Creates a report.
    package init(
        _ result: SyncResult, retryAfter: Duration? = nil, feed: ClosedRange<Int64>? = nil, records: Int? = nil,
        since: SinceState? = nil
    ) {
        self.result = result
        self.retryAfter = retryAfter
        self.feed = feed
        self.records = records
        self.since = since
    }

    /// The resource synced.
    package var resource: String { result.resource }
    /// How it ended.
    package var outcome: SyncOutcome { result.outcome }
}

extension Logger {
    /// This logger with the metadata of a sync that ended with `result`:
    /// its outcome, duration in seconds and attempts.
    package func ending(_ result: SyncResult) -> Logger {
        var logger = self
        logger[metadataKey: LogKey.outcome] = "\(result.outcome.rawValue)"
        logger[metadataKey: LogKey.duration] = "\(Double(result.durationMilliseconds) / 1000)"
        logger[metadataKey: LogKey.attempt] = "\(result.counts.attempts)"
        return logger
    }
}
