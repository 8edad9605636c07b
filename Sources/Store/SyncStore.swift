import Foundation

/// Where the agent keeps its copy: the records, each resource's state, the
/// history of syncs and the change feed (docs/schema.md).
///
/// Two implementations keep the same tables with the same meaning:
/// ``SQLiteStore``, a file on the agent's machine (the default), and
/// ``PostgresStore``, a schema in a PostgreSQL database that a fleet of agents
/// shares (docs/fleet.md). Every promise holds on both: a snapshot is applied
/// in one transaction (readers see the old records or the new ones), a
/// record's `updated_at` moves only when its data changes, and each insert,
/// update and deletion is in the change feed, written in the same transaction.
///
/// Thread-safety: `Sendable`; every method may be called from any task.
public protocol SyncStore: AnyObject, Sendable {
    /// Where the store is, for messages: a file's path, or a PostgreSQL URL without its password.
    var location: String { get }

    /// Whether the store is still the one opened: for a file, that it was not
    /// deleted or replaced while open (docs/systemd.md#what-the-unit-does).
    var isInPlace: Bool { get }

    // MARK: Reading

    /// Every resource's stored state, by name.
    func resources() async throws(StoreError) -> [ResourceRow]

    /// One resource's stored state, or `nil` if it never synced.
    func resource(named name: String) async throws(StoreError) -> ResourceRow?

    /// The most recent sync runs, newest first, of one resource (or of all when `nil`).
    func runs(of resource: String?, limit: Int) async throws(StoreError) -> [SyncRunRow]

    /// The most recent `limitEach` sync runs of each of `resources`, newest
    /// first, by resource, in one read (a resource with none has none).
    func runs(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]]

    /// The id of the newest run of `resource`, or 0 when it has none.
    func latestRunID(of resource: String) async throws(StoreError) -> Int64

    /// The newest run of `resource` that finished at `date` or later, if any
    /// (a run still running has not finished).
    func run(of resource: String, finishedSince date: Date) async throws(StoreError) -> SyncRunRow?

    /// The runs still running (no outcome yet), of every resource, oldest
    /// first: syncs in flight, or syncs whose process stopped before they
    /// ended (docs/schema.md#running-finished-and-cut-off-rows).
    func runningRuns() async throws(StoreError) -> [SyncRunRow]

    /// Up to `limit` records of `resource`, ordered by key.
    func records(of resource: String, limit: Int) async throws(StoreError) -> [StagedRecord]

    /// The pages of `resource`'s last applied snapshot, in order.
    func pages(of resource: String) async throws(StoreError) -> [StoredPage]

    /// The stored pages of `resource` if its validators were received for
    /// requests of `scope` (its request's fingerprint), else none: the
    /// validators a sync may send back, in one read.
    func pages(of resource: String, scope: String) async throws(StoreError) -> [StoredPage]

    /// The cursor of an incremental `resource` in `scope`, if it has one.
    func cursor(of resource: String, scope: String) async throws(StoreError) -> SyncCursor?

    // MARK: Writing

    /// Starts a new snapshot of `resource`; with `lastWins`, a key staged again
    /// replaces the record staged before instead of being refused.
    func beginSnapshot(of resource: String, lastWins: Bool) async throws(StoreError) -> any SnapshotWriter

    /// Records a finished sync that staged no snapshot
    /// (``record(_:snapshot:continuing:cursor:)`` says how); one with a
    /// snapshot is recorded by the snapshot's own
    /// ``SnapshotWriter/commit(_:continuing:cursor:)``, so that a writer only
    /// ever commits to the store that began it.
    ///
    /// - Returns: When the sync finished.
    @discardableResult
    func recordRun(
        _ sync: FinishedSync, continuing run: Int64?, cursor: (scope: String, cursor: SyncCursor)?
    ) async throws(StoreError) -> RecordedSync

    /// Marks the runs of `resource` still running as cut off (outcome
    /// `cancelled`, finished now, ``SyncRunRow/cutOffMessage``): their process
    /// stopped before the sync ended. Call it only when no sync of `resource`
    /// can be running, as when the agent starts and holds its lock; a new run
    /// row of `resource` (``record(_:snapshot:continuing:cursor:)``,
    /// ``applyPage(_:)``) does the same in its transaction.
    ///
    /// - Returns: How many runs it marked.
    @discardableResult
    func cutOffRuns(of resource: String) async throws(StoreError) -> Int

    /// Applies one page of an incremental sync in one transaction
    /// (docs/configuration.md#incremental-resources): its records merged by key
    /// (a changed one's `updated_at` moves, an unchanged one is not touched, the
    /// last of one key wins), its deletions, a change in the feed for each, and
    /// the cursor after it. The first page makes the sync's run row, running
    /// (no outcome, no `finished_at`) until the sync is recorded; a row of the
    /// resource left running by a process that stopped is marked cut off then.
    func applyPage(_ page: IncrementalPage) async throws(StoreError) -> AppliedPage

    // MARK: Typed tables

    /// Keeps the typed tables of `tables` (docs/schema.md#typed-tables), one
    /// transaction per resource: a declared table that does not exist is made,
    /// one whose declaration changed is rebuilt from the stored records (never
    /// from the API), and the tables of a resource no longer declared are
    /// dropped (only tables the store made, as `typed_tables` lists them).
    /// From then on, every write of a declared resource's records keeps its
    /// tables in the same transaction.
    ///
    /// - Returns: What it rebuilt and dropped, and each table's first misfit.
    @discardableResult
    func declareTables(_ tables: [TypedTable]) async throws(StoreError) -> TableDeclarations

    /// The first misfit each typed table holds (docs/schema.md#typed-tables),
    /// by resource, as stored: empty when the copy keeps no typed tables, or
    /// comes from a version that kept none.
    func typedTableMisfits() async throws(StoreError) -> [String: ColumnMisfit]

    /// Up to `limit` records of `resource` whose keys come after `key` (all when
    /// `nil`), ordered by key: a walk over many records in bounded memory.
    func records(of resource: String, after key: String?, limit: Int) async throws(StoreError) -> [StagedRecord]

    // MARK: The change feed

    /// The changes after `seq`, in order, of one resource or of all: at most `limit`.
    func changes(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage

    /// The newest `count` changes, of one resource or of all, in feed order.
    func latestChanges(of resource: String?, count: Int) async throws(StoreError) -> [ChangeRow]

    /// The newest seq of the feed, 0 when it never had a change.
    func lastChangeSeq() async throws(StoreError) -> Int64

    /// Prunes at most `batch` of the oldest changes: those applied before
    /// `before`, and those beyond the newest `maxRows`. One short transaction,
    /// so that syncs are not held up: call it again while it returns `batch`.
    ///
    /// - Returns: How many changes it pruned.
    func pruneChanges(before: Date, keepingAtMost maxRows: Int, batch: Int) async throws(StoreError) -> Int

    // MARK: OAuth2

    /// The refresh token the server last rotated to for the OAuth2 auth
    /// `auth`, if it was rotated from the one configured now: `configured`
    /// is a fingerprint of that one (a new one configured starts afresh).
    func rotatedRefreshToken(for auth: String, configured: String) async throws(StoreError) -> String?

    /// Keeps `token`, the refresh token the server rotated to, for the OAuth2
    /// auth `auth` whose configured token has the fingerprint `configured`,
    /// even if the calling task is cancelled.
    func saveRotatedRefreshToken(
        _ token: String, for auth: String, configured: String, at date: Date)
        async throws(StoreError)

    // MARK: Rate limits

    /// What the APIs said of `scope`'s rate limit that still holds at `now`
    /// (docs/schema.md#rate_limit_holds), one hold of each kind at most; those
    /// that ended by `now` are left out.
    func rateLimitHolds(of scope: String, at now: Date) async throws(StoreError) -> [RateLimitHold]

    /// Keeps `hold` in place of its scope's hold of the same kind, unless that
    /// one was told later, and forgets every hold that ended by `now`, even if
    /// the calling task is cancelled.
    func keep(_ hold: RateLimitHold, at now: Date) async throws(StoreError)

    // MARK: Housekeeping

    /// Gives back memory that caches hold, as after a burst of syncs.
    func releaseMemory() async

    /// Closes the store: nothing more can be read or written through it.
    func close() async
}

extension SyncStore {
    /// The most recent sync runs of all resources, or of `resource`, newest first.
    public func runs(limit: Int) async throws(StoreError) -> [SyncRunRow] {
        try await runs(of: nil, limit: limit)
    }

    /// Every record of `resource`, ordered by key.
    public func records(of resource: String) async throws(StoreError) -> [StagedRecord] {
        try await records(of: resource, limit: .max)
    }

    /// The cursor of an incremental `resource` outside any scope.
    public func cursor(of resource: String) async throws(StoreError) -> SyncCursor? {
        try await cursor(of: resource, scope: "")
    }

    /// Starts a new snapshot of `resource` in which a key staged twice is refused.
    public func beginSnapshot(of resource: String) async throws(StoreError) -> any SnapshotWriter {
        try await beginSnapshot(of: resource, lastWins: false)
    }

    /// Records a finished sync in one transaction: the snapshot's diff (for a
    /// success) with a row in `changes` for each record it inserts, updates or
    /// deletes, the resource's row and the run's row. A new run row marks a row
    /// of the resource left running by a process that stopped as cut off.
    ///
    /// A success with a snapshot replaces the resource's records: new and changed
    /// records are written, unchanged records are not touched, vanished keys are
    /// deleted. A failure writes no record: the previous snapshot stays whole
    /// (and the snapshot is discarded). A `notModified` sync keeps the records
    /// and moves the resource's success time.
    ///
    /// Unless `sync` says when it finished, the finish time is taken in the
    /// transaction, after the snapshot is applied; changed records' `updated_at`
    /// (and their changes' `at`) is the time the apply began.
    ///
    /// An incremental sync, whose pages were applied as they came
    /// (``applyPage(_:)``), passes the run row its first page made as `run`:
    /// the row is completed (its outcome and end written), its change counts kept. A full sync of an
    /// incremental resource passes the `cursor` it leaves, written with its snapshot.
    ///
    /// - Parameter snapshot: The snapshot the sync staged, if any: a writer of this store.
    /// - Returns: When the sync finished and what its snapshot changed.
    @discardableResult
    public func record(
        _ sync: FinishedSync, snapshot: (any SnapshotWriter)? = nil, continuing run: Int64? = nil,
        cursor: (scope: String, cursor: SyncCursor)? = nil
    ) async throws(StoreError) -> RecordedSync {
        if let snapshot { return try await snapshot.commit(sync, continuing: run, cursor: cursor) }
        return try await recordRun(sync, continuing: run, cursor: cursor)
    }

    /// The changes after `seq` of every resource: at most `limit`.
    public func changes(after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage {
        try await changes(of: nil, after: seq, limit: limit)
    }

    /// The newest `count` changes of every resource, in feed order.
    public func latestChanges(count: Int) async throws(StoreError) -> [ChangeRow] {
        try await latestChanges(of: nil, count: count)
    }

    /// Prunes at most 5,000 of the oldest changes (``pruneChanges(before:keepingAtMost:batch:)``).
    public func pruneChanges(before: Date, keepingAtMost maxRows: Int) async throws(StoreError) -> Int {
        try await pruneChanges(before: before, keepingAtMost: maxRows, batch: 5000)
    }

    /// Keeps a rotated refresh token, as of now (the system's time).
    public func saveRotatedRefreshToken(
        _ token: String, for auth: String, configured: String
    )
        async throws(StoreError)
    {
        try await saveRotatedRefreshToken(token, for: auth, configured: configured, at: SystemSources.now())
    }
}

/// One sync's new snapshot while its pages arrive.
///
/// Pages are staged where readers do not see them, so memory does not grow
/// with the number of items. A page the server answered 304 is not staged:
/// its records stay as the previous snapshot has them (``keepUnchanged(page:)``),
/// so applying a sync in which one page of many changed writes that page only.
/// Every page's validators are kept (``keep(_:)``) and stored with the snapshot.
/// ``SyncStore/record(_:snapshot:continuing:cursor:)`` applies the staged
/// snapshot to `records` as a diff in one transaction; ``discard()`` drops it,
/// leaving the previous snapshot as it was.
///
/// Thread-safety: not `Sendable`; one sync uses it from one task.
public protocol SnapshotWriter: AnyObject {
    /// The resource whose snapshot this is.
    var resource: String { get }
    /// How many records have been staged so far.
    var stagedCount: Int { get }

    /// Stages one page of records: page `page` of the walk (`nil` outside a walk of pages).
    ///
    /// - Throws: ``StoreError/Kind/duplicateKey`` when a key was already staged
    ///   in this sync; ``StoreError/Kind/io`` when the write fails.
    func stage(_ records: [StagedRecord], page: Int?) async throws(StoreError)

    /// Takes the records of `keys` out of the snapshot again (an incremental
    /// resource's full sync: a later item said they were deleted).
    func unstage(_ keys: [String]) async throws(StoreError)

    /// Keeps the records the previous snapshot took from page `page`, which
    /// the server says has not changed: they stay where they are, unless a
    /// page staged in this sync holds the same key (its record wins).
    func keepUnchanged(page: Int)

    /// Keeps a page's request, validators and successor, stored with the snapshot.
    func keep(_ page: StoredPage)

    /// Drops the staged records; the previous snapshot stays as it was. It runs
    /// to its end even in a cancelled task.
    func discard() async

    /// Records `sync` in the store that began this snapshot, as
    /// ``SyncStore/record(_:snapshot:continuing:cursor:)`` says: a success
    /// applies the snapshot, any other outcome discards it.
    @discardableResult
    func commit(
        _ sync: FinishedSync, continuing run: Int64?, cursor: (scope: String, cursor: SyncCursor)?
    ) async throws(StoreError) -> RecordedSync
}

extension SnapshotWriter {
    /// Stages records outside a walk of pages.
    public func stage(_ records: [StagedRecord]) async throws(StoreError) {
        try await stage(records, page: nil)
    }
}

/// What a snapshot keeps besides its records until it is applied: its pages'
/// validators and the pages whose records stay as they are.
struct SnapshotPages {
    /// The pages of the snapshot, stored with it.
    var pages: [StoredPage] = []
    /// The pages whose records the previous snapshot holds, unchanged.
    var unchanged: [Int] = []
}
