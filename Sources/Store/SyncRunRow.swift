import Foundation

/// A row of the `sync_runs` table: one sync, finished or still running
/// (docs/schema.md#running-finished-and-cut-off-rows).
public struct SyncRunRow: Sendable, Hashable {
    /// The run's id, increasing with time.
    public var id: Int64
    /// The resource synced.
    public var resource: String
    /// What started the sync.
    public var trigger: SyncTrigger
    /// When it started.
    public var startedAt: Date
    /// When it finished; `nil` while it runs. For a row cut off (its process
    /// stopped before the sync ended), when that was found.
    public var finishedAt: Date?
    /// How it ended; `nil` while it runs (an incremental sync's row is written
    /// with its first page).
    public var outcome: SyncOutcome?
    /// What it received, and in how many attempts.
    public var counts: SyncCounts
    /// Why it failed, if it did.
    public var error: StoredError?
    /// What the sync changed in the snapshot (zero unless it succeeded).
    public var changes: SnapshotChanges
    /// For an incremental resource, the value its next sync sends (before the lookback).
    public var since: SinceState?

    /// How many sync runs are kept per resource; older ones are pruned.
    public static let keptPerResource = 1000

    /// The message of a run found running whose process stopped before the
    /// sync ended (after the resource's name and a colon); its outcome is `cancelled`.
    public static let cutOffMessage =
        "the sync was cut off: its process stopped before the sync ended; the next sync goes on from what it "
        + "committed"

    /// Whether the sync is still running: its row has no outcome yet.
    public var isRunning: Bool { outcome == nil }

    /// The run's duration in milliseconds; `nil` while it runs. The times are what the
    /// row holds, however far apart: a difference past `Int` is `Int.max` (or `Int.min`).
    public var durationMilliseconds: Int? {
        finishedAt.map { Self.milliseconds(from: startedAt, to: $0) }
    }

    /// The milliseconds from `start` to `end`, rounded, however far apart:
    /// a difference past `Int` is `Int.max` (or `Int.min`).
    public static func milliseconds(from start: Date, to end: Date) -> Int {
        let milliseconds = (end.timeIntervalSince(start) * 1000).rounded()
        return Int(exactly: milliseconds) ?? (milliseconds < 0 ? .min : .max)
    }
}

/// What one sync received, and in how many attempts: the counts its progress,
/// its run's row and its result (docs/api.md#result) share.
public struct SyncCounts: Sendable, Hashable {
    /// Attempts made: 1 plus the retries of its requests.
    public var attempts: Int
    /// Pages received.
    public var pages: Int
    /// Items received (those of a page not modified count once staged).
    public var items: Int
    /// Bytes of response bodies received, decoded.
    public var bytes: Int
    /// Bytes of response bodies on the wire (fewer when they came compressed).
    public var wireBytes: Int

    /// Creates counts; `wireBytes` is `bytes` unless given.
    public init(attempts: Int = 1, pages: Int = 0, items: Int = 0, bytes: Int = 0, wireBytes: Int? = nil) {
        self.attempts = attempts
        self.pages = pages
        self.items = items
        self.bytes = bytes
        self.wireBytes = wireBytes ?? bytes
    }
}

/// A sync as recorded: when it finished and what it changed.
public struct RecordedSync: Sendable, Hashable {
    /// When the sync finished (its snapshot applied).
    public var finishedAt: Date
    /// What it changed in the snapshot (all zero unless a snapshot was applied).
    public var changes: SnapshotChanges
    /// The seqs of its rows in `changes`, when it wrote any.
    public var feed: ClosedRange<Int64>?
    /// The records the resource holds after it, when it changed them.
    public var itemCount: Int?
    /// What it did to the resource's typed table, when it declares one and
    /// records were written.
    public var columns: TypedTableWrite?

    /// Creates the description of a recorded sync.
    public init(finishedAt: Date, changes: SnapshotChanges = SnapshotChanges(), feed: ClosedRange<Int64>? = nil) {
        self.finishedAt = finishedAt
        self.changes = changes
        self.feed = feed
    }
}

/// What applying a snapshot changed.
public struct SnapshotChanges: Sendable, Hashable, Codable {
    /// Records that were not there before.
    public var added: Int
    /// Records whose data changed (their `updated_at` moved).
    public var changed: Int
    /// Records whose key vanished from the upstream.
    public var removed: Int

    /// Creates a change count.
    public init(added: Int = 0, changed: Int = 0, removed: Int = 0) {
        self.added = added
        self.changed = changed
        self.removed = removed
    }
}

/// A finished sync, as handed to ``SyncStore/record(_:snapshot:continuing:cursor:)``.
public struct FinishedSync: Sendable {
    /// The resource synced.
    public var resource: String
    /// What started it.
    public var trigger: SyncTrigger
    /// When it started.
    public var startedAt: Date
    /// When it finished; `nil` means when it is recorded, after its snapshot is applied.
    public var finishedAt: Date?
    /// How it ended.
    public var outcome: SyncOutcome
    /// The state the resource is in afterwards.
    public var state: ResourceState
    /// What it received, and in how many attempts.
    public var counts: SyncCounts
    /// Why it failed, if it did.
    public var error: StoredError?
    /// The first page's validators, kept for the next conditional request.
    public var validators: Validators
    /// For an incremental resource, the value its next sync sends (before the lookback).
    public var since: SinceState?

    /// Creates the description of a finished sync.
    public init(
        resource: String, trigger: SyncTrigger, startedAt: Date, finishedAt: Date? = nil, outcome: SyncOutcome,
        state: ResourceState, attempts: Int = 1, pages: Int = 0, items: Int = 0, bytes: Int = 0,
        wireBytes: Int? = nil, error: StoredError? = nil, validators: Validators = Validators()
    ) {
        self.resource = resource
        self.trigger = trigger
        self.startedAt = startedAt
        self.finishedAt = finishedAt
        self.outcome = outcome
        self.state = state
        counts = SyncCounts(attempts: attempts, pages: pages, items: items, bytes: bytes, wireBytes: wireBytes)
        self.error = error
        self.validators = validators
    }
}
