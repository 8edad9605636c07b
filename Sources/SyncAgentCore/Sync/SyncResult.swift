import Store

/// How one sync went, as the status API's Result (SPEC §4) and `refresh --json` report it.
public struct SyncResult: Sendable, Hashable {
    /// The resource synced.
    public var resource: String
    /// How it ended.
    public var outcome: SyncOutcome
    /// Whether this caller rode on a sync that someone else started.
    public var joined: Bool
    /// Pages received.
    public var pages: Int
    /// Items received (zero when not modified).
    public var items: Int
    /// Attempts made: 1 plus the retries of its requests.
    public var attempts: Int
    /// How long the sync took.
    public var durationMilliseconds: Int
    /// Why it failed, if it did.
    public var error: StoredError?
    /// What it changed in the snapshot.
    public var changes: SnapshotChanges

    /// Creates a result.
    public init(
        resource: String, outcome: SyncOutcome, joined: Bool = false, pages: Int = 0, items: Int = 0, attempts: Int = 1,
        durationMilliseconds: Int = 0, error: StoredError? = nil, changes: SnapshotChanges = SnapshotChanges()
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
    }

    /// The result of a sync recorded in the database, as seen by a caller that joined it.
    public init(run: SyncRunRow, joined: Bool) {
        self.init(
            resource: run.resource, outcome: run.outcome, joined: joined, pages: run.pages, items: run.items,
            attempts: run.attempts, durationMilliseconds: run.durationMilliseconds, error: run.error,
            changes: run.changes)
    }

    /// The Result object of SPEC §4.
    public var json: JSONValue {
        [
            "resource": .string(resource),
            "outcome": .string(outcome.rawValue),
            "joined": .bool(joined),
            "pages": .number(pages),
            "items": .number(items),
            "attempts": .number(attempts),
            "durationMs": .number(durationMilliseconds),
            "error": error.map(\.json) ?? .null,
            "changes": [
                "added": .number(changes.added), "changed": .number(changes.changed),
                "removed": .number(changes.removed),
            ],
        ]
    }
}

extension StoredError {
    /// The error object of SPEC §4: `{"kind", "message", "status"}`.
    public var json: JSONValue {
        ["kind": .string(kind), "message": .string(message), "status": status.map { .number($0) } ?? .null]
    }
}
