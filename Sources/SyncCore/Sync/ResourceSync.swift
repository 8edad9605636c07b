import Foundation
import Logging
import Store
import Streams

/// One sync of one resource, from the first request to the recorded outcome.
///
/// The pages stream into a ``SnapshotWriter`` as they arrive; only when the
/// last page is in is the snapshot applied, in one transaction with the
/// resource's state and the run's history row. Any failure leaves the previous
/// snapshot as it was.
struct ResourceSync: Sendable {
    package let resource: ResourceConfig
    /// What it runs with: the store, the transport, the clock, the time and the jitter.
    let context: SyncContext
    /// Told after each page and before each retry.
    let onProgress: @Sendable (SyncProgress) -> Void

    /// Prepares a sync of `resource`.
    init(
        resource: ResourceConfig, context: SyncContext,
        onProgress: @escaping @Sendable (SyncProgress) -> Void = { _ in }
    ) {
        self.resource = resource
        self.context = context
        self.onProgress = onProgress
    }

    var store: any SyncStore { context.store }
    var logger: Logger { context.logger }

    /// Runs the sync and records it; never throws: every failure is in the result.
    ///
    /// A sync that fails on a passing condition of the machine's storage runs
    /// again from its start, after the retry policy's backoff, using up
    /// attempts like any transient failure (docs/configuration.md#failures-and-retries).
    package func run(trigger: SyncTrigger) async -> SyncReport {
        let startedAt = context.now()
        let progress = SyncTally(resource: resource.name, now: context.now)
        let policy = resource.settings.retry
        var logger = logger
        logger[metadataKey: LogKey.resource] = "\(resource.name)"
        // The sync's own attempts: each runs it from its start.
        var attempt = 1
        while true {
            let last = attempt >= policy.maxAttempts
            let ended = await runOnce(trigger: trigger, startedAt: startedAt, progress: progress, last: last)
            guard !last, ended.outcome == .gaveUp, let error = ended.result.error, error.kind == .storage
            else { return ended }
            let delay = policy.delay(afterAttempt: attempt, unit: context.random())
            attempt += 1
            let event = RetryEvent(
                attempt: attempt, maxAttempts: policy.maxAttempts, delay: delay,
                error: FetchError(
                    .transient, resource: resource.name, request: "the sync",
                    cause: error.message.dropping(prefix: "\(resource.name): ")),
                counted: true)
            let (notice, report) = progress.retrying(event)
            logStorage(notice.logLine, at: .warning, logger)
            if let report { onProgress(report) }
            do {
                try await context.clock.sleep(for: delay)
            } catch {
                return await finish(
                    .cancelled, trigger: trigger, startedAt: startedAt, progress: progress,
                    error: StoredError.cancelled(resource.name))
            }
        }
    }

    /// One attempt of the sync. A passing storage failure that is not the
    /// `last` attempt's is not recorded: the next attempt will be.
    private func runOnce(
        trigger: SyncTrigger, startedAt: Date, progress: SyncTally, last: Bool
    ) async -> SyncReport {
        if let incremental = resource.incremental {
            return await runIncrementalOnce(
                incremental, trigger: trigger, startedAt: startedAt, progress: progress, last: last)
        }
        return await runSnapshotOnce(trigger: trigger, startedAt: startedAt, progress: progress, last: last)
    }

    /// The fetch of this resource's pages, telling `progress` of its retries.
    func makeFetch(
        _ values: [URLTemplate.Dependency: String], since: SentValue? = nil, progress: SyncTally, logger: Logger
    ) -> ResourceFetch {
        ResourceFetch(
            resource: resource, context: context, dependencyValues: values, since: since
        ) { [self, logger] event, page in
            let (notice, report) = progress.retrying(event, page: page)
            var logger = logger
            logger[metadataKey: LogKey.attempt] = "\(notice.attempt)"
            // Out of descriptors or memory is told once per episode.
            if (event.error as? FetchError)?.ofMachine == true {
                logStorage(notice.logLine, at: .warning, logger)
            } else {
                logger.warning("\(notice.logLine)")
            }
            if let report { onProgress(report) }
        }
    }

    /// A full sync of an incremental resource (`fullResyncEvery`, a first sync
    /// that replaces records, or a kept value the API calls too old): a
    /// snapshot of every item from `initial`, which deletes what the API no
    /// longer lists, and the cursor it leaves.
    struct FullResync {
        var values: [URLTemplate.Dependency: String]
        var scope: String
        var request: String
        var since: SentValue?
        var cursor: SyncCursor?
        /// The run row of the incremental walk it takes over, if that wrote one.
        var run: Int64?
    }

    /// One attempt of a snapshot sync: every page staged, then applied at once.
    func runSnapshotOnce(
        trigger: SyncTrigger, startedAt: Date, progress: SyncTally, last: Bool, full: FullResync? = nil
    ) async -> SyncReport {
        var snapshot: (any SnapshotWriter)?
        var logger = logger
        logger[metadataKey: LogKey.resource] = "\(resource.name)"
        do {
            var values = full?.values ?? [:]
            if full == nil { values = try await resource.dependencyValues(in: store) }
            var fetch = makeFetch(values, since: full?.since, progress: progress, logger: logger)
            // Validators are sent back only with the request they were received for.
            let fingerprint = fetch.fingerprint
            var walk =
                full == nil ? StoredWalk(try await store.pages(of: resource.name, scope: fingerprint)) : StoredWalk()
            progress.scope(fingerprint)
            // Unchanged pages are staged only once a page has changed: a sync
            // whose every page answered 304 writes no record.
            var unchanged: [FetchedPage] = []
            var kept: SinceState?
            var window = WalkCount(start: full?.since?.state.time)
            progress.beginWalk()
            while true {
                for try await received in fetch.pages(stored: walk) {
                    let page = window.numbered(received)
                    var items = 0
                    if page.notModified, snapshot == nil {
                        unchanged.append(page)
                    } else {
                        if snapshot == nil {
                            snapshot = try await store.beginSnapshot(of: resource.name, lastWins: full != nil)
                            for earlier in unchanged { progress.addItems(try await stage(earlier, in: snapshot!)) }
                            unchanged = []
                        }
                        items = try await stage(page, in: snapshot!)
                        if full != nil { try await snapshot!.unstage(Self.deletedKeys(page.changes)) }
                    }
                    kept = Self.kept(kept, page.kept, resource.incremental)
                    window.add(page, tombstones: resource.deleted != nil)
                    let (report, retry) = progress.add(page, items: items)
                    onProgress(report)
                    if let retry { onProgress(retry) }
                    logger.debug(
                        page.notModified ? "page not modified" : "page received",
                        metadata: [LogKey.page: "\(page.number)", LogKey.items: "\(report.items)"])
                }
                if let shortfall = window.shortfall(cap: resource.pagination.cap) {
                    throw FetchError(.unrecoverable, resource: resource.name, request: "the sync", cause: shortfall)
                }
                guard let next = try windowAfter(window, kept: kept) else { break }
                logger.info("a query's cap of items reached: asking again from \(next.text())")
                fetch = makeFetch(values, since: next, progress: progress, logger: logger)
                walk = StoredWalk()
                window = window.next(start: next.state.time)
            }
            if snapshot == nil, !unchanged.isEmpty {
                logger.debug("not modified")
                return await finish(
                    .notModified, trigger: trigger, startedAt: startedAt, progress: progress, last: last)
            }
            if snapshot == nil { snapshot = try await store.beginSnapshot(of: resource.name, lastWins: full != nil) }
            var cursor: (scope: String, cursor: SyncCursor)?
            var since: SinceState?
            if let full {
                since = kept ?? full.cursor?.since
                cursor = (
                    full.scope,
                    sealed(SyncCursor(request: full.request, since: since, fullAt: context.now()))
                )
                logger.info("full sync of an incremental resource: what the API no longer lists is deleted")
            }
            return await finish(
                .success, trigger: trigger, startedAt: startedAt, progress: progress, snapshot: snapshot, last: last,
                run: full?.run, since: since, cursor: cursor)
        } catch {
            return await failed(
                error, trigger: trigger, startedAt: startedAt, progress: progress, snapshot: snapshot, last: last,
                logger: logger, run: full?.run)
        }
    }

    /// The value the next window of a walk asks from, when the API's cap of
    /// items for one query cut this one short (`pagination.cap`,
    /// docs/configuration.md#complete-copies): the largest value seen.
    func windowAfter(_ window: WalkCount, kept: SinceState?) throws -> SentValue? {
        guard let cap = resource.pagination.cap, window.items >= cap, let incremental = resource.incremental else {
            return nil
        }
        guard let largest = kept?.time, window.start.map({ largest > $0 }) ?? true else {
            throw FetchError(
                .unrecoverable, resource: resource.name, request: "the sync",
                cause: "more than \(cap) items (the API's cap for one query) share one value of the since field: "
                    + "the next query cannot start past them")
        }
        return SentValue(state: .time(largest), format: incremental.format, timeZone: incremental.timeZone)
    }

    /// Ends an attempt that failed with `error`, recorded (on `run`, the row of
    /// an incremental sync, when it has one).
    func failed(
        _ error: any Error, trigger: SyncTrigger, startedAt: Date, progress: SyncTally,
        snapshot: (any SnapshotWriter)? = nil,
        last: Bool, logger: Logger, run: Int64? = nil, feed: ClosedRange<Int64>? = nil
    ) async -> SyncReport {
        // A cancelled task's request fails with a network error; it is a cancellation all the same.
        let (outcome, stored) = StoredError.describing(
            Task.isCancelled ? CancellationError() : error, resource: resource.name)
        let message = stored.message.dropping(prefix: "\(resource.name): ")
        var result = await finish(
            outcome, trigger: trigger, startedAt: startedAt, progress: progress, snapshot: snapshot, error: stored,
            last: last || run != nil, run: run, feed: feed)
        let logger = logger.ending(result.result)
        if outcome == .cancelled {
            logger.notice("sync cancelled")
        } else if stored.kind == .storage {
            logStorage(message, at: .warning, logger)
        } else {
            logger.warning("\(message)")
        }
        // A rate limit longer than rateLimit.maxWait: the next poll comes at its
        // reset, never further than the longest wait (docs/configuration.md#the-longest-wait).
        if result.outcome == .rateLimited {
            result.retryAfter = (error as? FetchError)?.retryAfter.map { min($0, RetryAfter.longest) }
        }
        return result
    }

    /// The value for the next sync after a page that says `page`: the largest
    /// of the items' (`since.field`), else the last page's.
    static func kept(
        _ current: SinceState?, _ page: SinceState?, _ incremental: IncrementalSettings?
    ) -> SinceState? {
        guard let page else { return current }
        if case .field = incremental?.source, let current = current?.time, let time = page.time {
            return .time(max(current, time))
        }
        return page
    }

    /// The keys whose last change on a page is a deletion.
    static func deletedKeys(_ changes: [IncrementalChange]) -> [String] {
        IncrementalChange.lastOfEachKey(changes).compactMap { change in
            if case .delete(let key) = change { key } else { nil }
        }
    }

    /// The cursor scope of a dependent resource: the values its URL reads.
    static func scope(_ values: [URLTemplate.Dependency: String]) -> String {
        values.map { "\($0.key.resource)\($0.key.pointer)=\($0.value)" }.sorted().joined(separator: "&")
    }

    /// Stages a page in `snapshot`: its records, or, when it answered 304,
    /// those it held last time, kept where they are. Returns how many.
    private func stage(_ page: FetchedPage, in snapshot: any SnapshotWriter) async throws -> Int {
        snapshot.keep(page.stored)
        if page.notModified {
            snapshot.keepUnchanged(page: page.number)
            return page.stored.itemCount
        }
        do {
            try await snapshot.stage(page.records, page: page.number)
        } catch {
            guard error.kind == .duplicateKey else { throw error }
            throw FetchError(
                .unrecoverable, resource: resource.name, request: page.request,
                cause: "two items have the same key \"\(error.key ?? "")\"")
        }
        return page.records.count
    }

    /// Records the sync: its snapshot, or, for an incremental sync whose pages
    /// are applied already, its `run` row; `cursor` is a full sync's.
    func finish(
        _ outcome: SyncOutcome, trigger: SyncTrigger, startedAt: Date, progress: SyncTally,
        snapshot: (any SnapshotWriter)? = nil, error: StoredError? = nil, last: Bool = true, run: Int64? = nil,
        feed: ClosedRange<Int64>? = nil, since: SinceState? = nil, cursor: (scope: String, cursor: SyncCursor)? = nil
    ) async -> SyncReport {
        let totals = progress.totals
        if !last, outcome == .gaveUp, error?.kind == .storage {
            // Tried again: only the last attempt is recorded.
            await snapshot?.discard()
            return Self.unrecorded(resource.name, outcome, error, attempts: totals.counts.attempts)
        }
        let state: ResourceState =
            switch outcome {
            case .success, .notModified, .cancelled, .rateLimited: .idle
            case .offline: .offline
            // A passing condition of the machine never makes a resource failed.
            case .gaveUp where error?.kind == .storage: .idle
            case .failed, .gaveUp: .failed
            }
        var sync = FinishedSync(
            resource: resource.name, trigger: trigger, startedAt: startedAt, outcome: outcome, state: state,
            error: error, validators: totals.validators)
        sync.counts = totals.counts
        sync.since = since.map(shown)
        var recorded = RecordedSync(finishedAt: context.now())
        do {
            recorded = try await store.record(sync, snapshot: snapshot, continuing: run, cursor: cursor)
            if run != nil { recorded.feed = feed }
        } catch {
            await snapshot?.discard()
            if error.kind == .notOwner {
                // Another agent of the fleet holds the resource now: nothing was
                // written, and this agent may write nothing of it, not even this.
                sync.outcome = .cancelled
                sync.error = StoredError(kind: .cancelled, message: "\(resource.name): \(error.message)")
                logger.notice("\(error.message)", metadata: [LogKey.resource: "\(resource.name)"])
            } else if error.kind == .cancelled {
                // Cancelled while applying: the transaction was rolled back and the
                // previous snapshot stays. What remains is to say so.
                sync.outcome = .cancelled
                sync.error = StoredError.cancelled(resource.name)
                recorded = (try? await store.record(sync, continuing: run)) ?? recorded
            } else if error.isTransient {
                // The snapshot could not be applied (database busy, disk full): the
                // previous one stays; the sync is tried again, or, at its last
                // attempt, has given up until its next poll.
                let stored = StoredError(kind: .storage, message: "\(resource.name): \(error.message)")
                if !last { return Self.unrecorded(resource.name, .gaveUp, stored, attempts: sync.counts.attempts) }
                sync.outcome = .gaveUp
                sync.state = .idle
                sync.error = stored
                var logger = logger
                logger[metadataKey: LogKey.resource] = "\(resource.name)"
                logStorage(error.message, at: .error, logger)
                if let written = try? await store.record(sync, continuing: run) {
                    recorded = written
                } else if let run {
                    context.storageEpisodes.leftRunning(resource.name, run: run, as: sync)
                }
            } else {
                // The snapshot could not be applied: the previous one stays, and
                // the failure is what the caller learns.
                sync.outcome = .failed
                sync.error = StoredError(kind: .store, message: "\(resource.name): \(error.message)")
                logger.error("\(error.message)", metadata: [LogKey.resource: "\(resource.name)"])
            }
        }
        if [.success, .notModified].contains(sync.outcome), context.storageEpisodes.succeeded(resource.name) {
            logger.notice("syncs are applied again", metadata: [LogKey.resource: "\(resource.name)"])
        }
        var report = SyncReport(
            SyncResult(
                resource: resource.name, outcome: sync.outcome, counts: sync.counts,
                durationMilliseconds: SyncRunRow.milliseconds(from: startedAt, to: recorded.finishedAt),
                error: sync.error, changes: recorded.changes),
            feed: recorded.feed ?? feed, records: recorded.itemCount, since: sync.since)
        // An incremental sync's pages kept the table as they were applied.
        report.columns = recorded.columns ?? totals.columns
        if resource.table != nil { report.result.misfits = report.columns?.misfits ?? 0 }
        return report
    }

    /// The report of an attempt that is not recorded: a storage failure
    /// tried again, or a sync that could not start.
    private static func unrecorded(
        _ resource: String, _ outcome: SyncOutcome, _ error: StoredError?, attempts: Int = 1
    ) -> SyncReport {
        SyncReport(
            SyncResult(resource: resource, outcome: outcome, counts: SyncCounts(attempts: attempts), error: error))
    }

    /// Logs a passing storage failure at `level` if it starts an episode for
    /// this resource, else at debug level.
    private func logStorage(_ message: String, at level: Logger.Level, _ logger: Logger) {
        logger.log(level: context.storageEpisodes.failed(resource.name) ? level : .debug, "\(message)")
    }

    /// Writes the end of an incremental sync of this resource whose row the
    /// database could not finish before; returns the storage failure if it
    /// still cannot (the end is kept for the next sync).
    private func recordLeftRunning() async -> StoreError? {
        guard let left = context.storageEpisodes.takeLeftRunning(resource.name) else { return nil }
        let result: Result<RecordedSync, StoreError>
        do {
            result = .success(try await store.record(left.sync, continuing: left.run))
        } catch {
            result = .failure(error)
        }
        guard case .failure(let error) = result, error.isTransient else { return nil }
        context.storageEpisodes.leftRunning(resource.name, run: left.run, as: left.sync)
        return error
    }

    /// Runs the sync while holding the resource's ``RefreshLock``, so that no
    /// other process syncs it at the same time. When another process held the
    /// lock and recorded a run that ended meanwhile (not a cancelled one), that
    /// run is the answer, as `joined`: the data is as fresh as this sync would make it.
    package func run(trigger: SyncTrigger, lock: RefreshLock) async -> SyncReport {
        do {
            let wanted = context.now()
            let held = try await lock.acquire(resource.name, clock: context.clock)
            defer { held.release() }
            if held.waited, let run = try await store.run(of: resource.name, finishedSince: wanted),
                let outcome = run.outcome, outcome != .cancelled
            {
                logger.info("joined a sync of another process", metadata: [LogKey.resource: "\(resource.name)"])
                return SyncReport(SyncResult(run: run, joined: true))
            }
            if let failure = await recordLeftRunning() {
                // Still failing: this sync is not started, and the row waits for the next.
                let stored = StoredError(kind: .storage, message: "\(resource.name): \(failure.message)")
                return Self.unrecorded(resource.name, .gaveUp, stored)
            }
            return await run(trigger: trigger)
        } catch {
            // The sync could not start (its lock file, or the database, out of
            // reach): told and recorded like any failure.
            let (outcome, stored) = StoredError.describing(error, resource: resource.name)
            guard outcome != .cancelled else { return Self.unrecorded(resource.name, outcome, stored) }
            var logger = logger
            logger[metadataKey: LogKey.resource] = "\(resource.name)"
            let message = stored.message.dropping(prefix: "\(resource.name): ")
            if stored.kind == .storage {
                logStorage(message, at: .warning, logger)
            } else {
                logger.warning("\(message)")
            }
            return await finish(
                outcome, trigger: trigger, startedAt: context.now(),
                progress: SyncTally(resource: resource.name, now: context.now),
                error: stored)
        }
    }

}

extension String {
    /// The string without `prefix`, if it starts with it.
    func dropping(prefix: String) -> String {
        hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self
    }
}
