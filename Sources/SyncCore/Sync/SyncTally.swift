import Foundation
import Store
import Streams
import Synchronization

/// The running totals of one sync (pages, items, bytes, retries) and the first
/// page's validators, updated from the page loop and from retry callbacks.
///
/// The next page is fetched while the sync writes this one, so a retry of it
/// can come before this page is reported. Its report is held until then, so
/// that whoever follows the reports sees them in the order of the pages: the
/// page, then the retry of the next one (which a page report would otherwise
/// end).
///
/// Thread-safety: `Sendable`; its totals are behind a `Mutex`.
final class SyncTally: Sendable {
    struct Totals {
        var counts = SyncCounts()
        var validators = Validators()
        /// The number of the walk's last page reported (a walk's pages are
        /// numbered from 1).
        var reported = 0
        /// A retry of a page after the next one, told once the next one is reported.
        var held: RetryNotice?
        /// What the incremental pages applied so far did to the typed table.
        var columns: TypedTableWrite?

        /// The progress to report now.
        func progress(_ resource: String, retry: RetryNotice? = nil) -> SyncProgress {
            SyncProgress(
                resource: resource, pages: counts.pages, items: counts.items, attempts: counts.attempts, retry: retry)
        }
    }

    package let resource: String
    /// The wall-clock time, for the end of a rate limit's wait.
    private let now: @Sendable () -> Date
    private let state = Mutex(Totals())

    init(resource: String, now: @escaping @Sendable () -> Date) {
        self.resource = resource
        self.now = now
    }

    var totals: Totals { state.withLock { $0 } }

    /// Adds what an applied page did to the resource's typed table.
    func add(_ columns: TypedTableWrite?) {
        guard let columns else { return }
        state.withLock { totals in
            let before = totals.columns?.misfits ?? 0
            totals.columns = TypedTableWrite(misfits: before + columns.misfits, firstMisfit: columns.firstMisfit)
        }
    }

    /// Records the request fingerprint the validators will belong to.
    func scope(_ fingerprint: String) {
        state.withLock { $0.validators.scope = fingerprint }
    }

    /// A walk of the pages begins (again, for a new attempt of the whole sync).
    func beginWalk() {
        state.withLock { totals in
            totals.reported = 0
            totals.held = nil
        }
    }

    /// Adds a received page of `items` records (those of an unchanged page
    /// count once staged) and returns the progress to report, then the retry
    /// of the next page if one came meanwhile.
    func add(_ page: FetchedPage, items: Int) -> (report: SyncProgress, retry: SyncProgress?) {
        state.withLock { totals in
            if page.number == 1 {
                totals.validators.etag = page.stored.validators.etag
                totals.validators.lastModified = page.stored.validators.lastModified
            }
            totals.counts.pages += 1
            totals.counts.items += items
            totals.counts.bytes += page.bytes
            totals.counts.wireBytes += page.wireBytes
            totals.reported = page.number
            defer { totals.held = nil }
            return (totals.progress(resource), totals.held.map { totals.progress(resource, retry: $0) })
        }
    }

    /// Adds records staged from unchanged pages.
    func addItems(_ count: Int) {
        state.withLock { $0.counts.items += count }
    }

    /// Counts a retry about to happen, of page `page` (`nil`: of the whole
    /// sync), and returns its notice and the progress to report: none yet
    /// for a page fetched ahead of one not reported (``add(_:items:)`` returns it).
    func retrying(_ event: RetryEvent, page: Int? = nil) -> (notice: RetryNotice, report: SyncProgress?) {
        let failure = event.error as? FetchError
        let rateLimited = failure?.kind == .rateLimited
        var notice = RetryNotice(
            request: failure?.request ?? "", cause: failure?.cause ?? "\(event.error)", attempt: event.attempt,
            maxAttempts: event.maxAttempts, delay: event.delay,
            rateLimitedUntil: rateLimited ? now().addingTimeInterval(event.delay.seconds) : nil)
        // The budget's own waits are told without a status: no answer caused them.
        notice.waitsForBudget = rateLimited && failure?.status == nil
        return state.withLock { totals in
            if event.counted { totals.counts.attempts += 1 }
            // Fetched ahead: the page before it is not reported yet.
            if let page, page > totals.reported + 1 {
                totals.held = notice
                return (notice, nil)
            }
            return (notice, totals.progress(resource, retry: notice))
        }
    }
}
