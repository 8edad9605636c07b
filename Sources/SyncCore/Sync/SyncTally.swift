import Foundation
import Store
import Streams
import Synchronization

/// The running totals of one sync (pages, items, bytes, retries) and the first
/// page's validators, updated from the page loop and from retry callbacks.
///
/// Thread-safety: `Sendable`; its totals are behind a `Mutex`.
final class SyncTally: Sendable {
    struct Totals {
        var pages = 0
        var items = 0
        var bytes = 0
        var wireBytes = 0
        var retries = 0
        var validators = Validators()

        /// Attempts made: 1 plus the retries of its requests.
        var attempts: Int { 1 + retries }
    }

    package let resource: String
    private let state = Mutex(Totals())

    init(resource: String) {
        self.resource = resource
    }

    var totals: Totals { state.withLock { $0 } }

    /// Records the request fingerprint the validators will belong to.
    func scope(_ fingerprint: String) {
        state.withLock { $0.validators.scope = fingerprint }
    }

    /// Adds a received page of `items` records (those of an unchanged page
    /// count once staged) and returns the progress to report.
    func add(_ page: FetchedPage, items: Int) -> SyncProgress {
        state.withLock { totals in
            if page.number == 1 {
                totals.validators.etag = page.stored.validators.etag
                totals.validators.lastModified = page.stored.validators.lastModified
            }
            totals.pages += 1
            totals.items += items
            totals.bytes += page.bytes
            totals.wireBytes += page.wireBytes
            return SyncProgress(resource: resource, pages: totals.pages, items: totals.items, attempts: totals.attempts)
        }
    }

    /// Adds records staged from unchanged pages.
    func addItems(_ count: Int) {
        state.withLock { $0.items += count }
    }

    /// Counts a retry about to happen and returns the progress to report.
    func retrying(_ event: RetryEvent) -> SyncProgress {
        let failure = event.error as? FetchError
        let rateLimited = failure?.kind == .rateLimited
        var notice = RetryNotice(
            request: failure?.request ?? "", cause: failure?.cause ?? "\(event.error)", attempt: event.attempt,
            maxAttempts: event.maxAttempts, delay: event.delay,
            rateLimitedUntil: rateLimited ? Date().addingTimeInterval(event.delay.seconds) : nil)
        // The budget's own waits are told without a status: no answer caused them.
        notice.waitsForBudget = rateLimited && failure?.status == nil
        return state.withLock { totals in
            if event.counted { totals.retries += 1 }
            return SyncProgress(
                resource: resource, pages: totals.pages, items: totals.items, attempts: totals.attempts, retry: notice)
        }
    }
}
