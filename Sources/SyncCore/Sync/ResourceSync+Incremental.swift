import Foundation
import Logging
import Store

/// The incremental syncs of docs/configuration.md#incremental-resources: the
/// pages changed since the value kept, each merged and committed with the
/// cursor after it, and what is kept between syncs (a time, a token or a link),
/// sealed in the store.
extension ResourceSync {
    /// `cursor` as the store keeps it: a token or link with its secrets sealed.
    func sealed(_ cursor: SyncCursor) -> SyncCursor {
        var cursor = cursor
        cursor.since = cursor.since.map(sealed)
        if var walk = cursor.walk {
            walk.sent = walk.sent.map(sealed)
            walk.largest = walk.largest.map(sealed)
            cursor.walk = walk
        }
        return cursor
    }

    private func sealed(_ state: SinceState) -> SinceState {
        guard case .token(let text) = state else { return state }
        return .token(context.redactor.seal(text))
    }

    /// `cursor` as the store kept it, its secrets put back; `nil` when one is no
    /// longer configured.
    private func unsealed(_ cursor: SyncCursor) -> SyncCursor? {
        func unseal(_ state: SinceState?) -> SinceState?? {
            guard case .token(let text)? = state else { return .some(state) }
            return context.redactor.unseal(text).map { .some(.token($0)) }
        }
        var cursor = cursor
        guard let since = unseal(cursor.since) else { return nil }
        cursor.since = since
        if let walk = cursor.walk {
            guard let sent = unseal(walk.sent), let largest = unseal(walk.largest) else { return nil }
            cursor.walk?.sent = sent
            cursor.walk?.largest = largest
        }
        return cursor
    }

    /// `state` as `status` and `history` show it: a token or link shortened, its secrets scrubbed.
    func shown(_ state: SinceState) -> SinceState {
        guard case .token(let text) = state else { return state }
        let redacted = context.redactor.redact(text)
        return .token(redacted.count > 40 ? String(redacted.prefix(40)) + "…" : redacted)
    }

    /// One attempt of an incremental sync (docs/configuration.md#incremental-resources):
    /// the pages changed since the stored value, each merged and committed with
    /// the cursor after it, so that a walk cut off goes on from what it committed
    /// (docs/configuration.md#how-a-walk-cut-off-goes-on).
    func runIncrementalOnce(
        _ incremental: IncrementalSettings, trigger: SyncTrigger, startedAt: Date, progress: SyncTally, last: Bool
    ) async -> SyncReport {
        var logger = logger
        logger[metadataKey: LogKey.resource] = "\(resource.name)"
        var run: Int64?
        var feed: ClosedRange<Int64>?
        do {
            let values = try await resource.dependencyValues(in: store)
            let scope = Self.scope(values)
            let request = ResourceFetch.fingerprint(of: resource, dependencyValues: values, redactor: context.redactor)
            var cursor = try await store.cursor(of: resource.name, scope: scope)
            // Another request (a changed URL, query or items) starts afresh.
            if cursor?.request != request { cursor = nil }
            if let stored = cursor {
                cursor = unsealed(stored)
                if cursor == nil {
                    logger.notice("the value kept holds a secret no longer configured: starting afresh")
                }
            }
            // Records from another request (or kept as a snapshot before) are replaced by a
            // full sync, which deletes what the new one does not list.
            var replacing = false
            if cursor == nil, scope.isEmpty {
                replacing = try await store.resource(named: resource.name)?.itemCount ?? 0 > 0
            }
            let due = cursor.map { stored in
                stored.walk == nil
                    && incremental.fullResyncEvery.map { every in
                        stored.fullAt.map { context.now().timeIntervalSince($0) >= every.seconds } ?? true
                    } ?? false
            }
            let full = FullResync(
                values: values, scope: scope, request: request, since: incremental.value(toSend: nil), cursor: cursor)
            if replacing || due == true {
                return await runSnapshotOnce(
                    trigger: trigger, startedAt: startedAt, progress: progress, last: last, full: full)
            }
            do {
                let since = try await walkChanges(
                    incremental, cursor: cursor, request: request, scope: scope, values: values, trigger: trigger,
                    startedAt: startedAt, progress: progress, logger: logger, run: &run, feed: &feed)
                return await finish(
                    .success, trigger: trigger, startedAt: startedAt, progress: progress, last: last, run: run,
                    feed: feed, since: since)
            } catch let error as FetchError where error.stateExpired {
                // The API calls the value kept too old: a full sync starts afresh.
                logger.notice("\(error.cause): a full sync starts afresh")
                var afresh = full
                afresh.run = run
                // What was kept is too old: nothing of it is kept, even if the full walk names nothing.
                afresh.cursor = nil
                return await runSnapshotOnce(
                    trigger: trigger, startedAt: startedAt, progress: progress, last: last, full: afresh)
            }
        } catch {
            return await failed(
                error, trigger: trigger, startedAt: startedAt, progress: progress, last: last, logger: logger, run: run,
                feed: feed)
        }
    }

    /// The walk of an incremental sync from `cursor`, each page merged and
    /// committed with the cursor after it; returns the value kept for the
    /// next sync. A walk cut off by the API's cap of items for one query goes
    /// on from the largest value seen (`pagination.cap`).
    private func walkChanges(
        _ incremental: IncrementalSettings, cursor: SyncCursor?, request: String, scope: String,
        values: [URLTemplate.Dependency: String], trigger: SyncTrigger, startedAt: Date, progress: SyncTally,
        logger: Logger, run: inout Int64?, feed: inout ClosedRange<Int64>?
    ) async throws -> SinceState? {
        var walk = cursor?.walk
        let sent = walk?.sent ?? cursor?.since
        // The value this window of the walk sent.
        var windowSent = sent
        var fetch: ResourceFetch
        var start: PageRequest?
        if let stored = walk, case .byValue(let value) = WalkResume(stored, incremental) {
            // Its first page again, from the value it committed: items changed meanwhile
            // may have slid onto the pages it walked (docs/configuration.md#how-a-walk-cut-off-goes-on).
            windowSent = value
            let asked = incremental.value(toSend: value)
            fetch = makeFetch(values, since: asked, progress: progress, logger: logger)
            logger.info(
                "going on with the sync cut off after page \(stored.pages): from the first page, asking from \(asked?.text() ?? "the start")"
            )
        } else {
            fetch = makeFetch(values, since: incremental.value(toSend: sent), progress: progress, logger: logger)
            if let stored = walk {
                start = fetch.request(stored: stored.next, after: PageRequest(number: 0, url: ""))
                if start == nil {
                    // Its next page cannot be read back (a secret it held is gone): the walk starts again.
                    walk = nil
                } else {
                    logger.info("going on with the sync cut off after page \(stored.pages)")
                }
            }
        }
        progress.scope(request)
        if start == nil, case .link = incremental.source, case .token(let link)? = cursor?.since {
            // The URL the last sync's last page named is where this one starts.
            start = PageRequest(number: 1, url: link)
        }
        var kept = walk?.largest
        var ended = cursor?.since
        // The order of the times this window's items gave, which says where it may go on from.
        var order = TimeOrder()
        // A resumed walk counts its pages (and maxPages) from where it goes on; a window
        // starts at the time it asked from, its lookback taken off.
        var window = WalkCount(
            start: incremental.value(toSend: windowSent)?.state.time, pages: walk?.pages ?? 0)
        progress.beginWalk()
        while true {
            var following: (fetch: ResourceFetch, value: SentValue)?
            for try await received in fetch.pages(from: start) {
                let page = window.numbered(received)
                kept = Self.kept(kept, page.kept, incremental)
                order.append(page.order)
                window.add(page)
                var after = SyncCursor(request: request, since: cursor?.since, fullAt: cursor?.fullAt)
                var next = page.next
                var leading = fetch
                if next == nil, let value = try windowAfter(window, kept: kept) {
                    let windowFetch = makeFetch(values, since: value, progress: progress, logger: logger)
                    following = (windowFetch, value)
                    next = windowFetch.planner.first()
                    leading = windowFetch
                    windowSent = value.state
                    order = TimeOrder()
                }
                if var next {
                    // The loop guard's history stays out: kept, it would grow with every page.
                    next.seen = []
                    after.walk = SyncCursor.Walk(
                        next: leading.stored(next, after: PageRequest(number: 0, url: "")), pages: page.number,
                        sent: windowSent, largest: kept,
                        resume: WalkResume.resume(incremental, sent: windowSent, largest: kept, order: order), run: 0)
                } else {
                    after.since = kept ?? cursor?.since
                    // A complete walk from the initial value is a full sync too.
                    if sent == nil { after.fullAt = context.now() }
                    ended = after.since
                }
                let applied = try await store.applyPage(
                    IncrementalPage(
                        resource: resource.name, scope: scope, changes: page.changes, cursor: sealed(after),
                        run: run, trigger: trigger, startedAt: startedAt))
                run = applied.run
                progress.add(applied.columns)
                if let pageFeed = applied.feed {
                    feed = (feed?.lowerBound ?? pageFeed.lowerBound)...pageFeed.upperBound
                }
                let (report, retry) = progress.add(page, items: page.changes.count)
                onProgress(report)
                if let retry { onProgress(retry) }
                logger.debug(
                    "page merged",
                    metadata: [
                        LogKey.page: "\(page.number)", LogKey.items: "\(report.items)",
                        "changes":
                            "\(applied.changes.added) new, \(applied.changes.changed) changed, \(applied.changes.removed) removed",
                    ])
            }
            guard let following else { return ended }
            logger.info("a query's cap of items reached: asking again from \(following.value.text())")
            fetch = following.fetch
            start = nil
            window = window.next(start: following.value.state.time)
        }
    }
}
