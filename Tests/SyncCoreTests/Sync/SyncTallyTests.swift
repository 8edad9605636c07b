import Foundation
import Store
import Streams
import Testing

@testable import SyncCore

struct SyncTallyTests {
    static func page(_ number: Int) -> FetchedPage {
        FetchedPage(
            number: number, request: "GET /items?page=\(number)", records: [], bytes: 100, notModified: false,
            next: nil,
            stored: StoredPage(number: number, request: "", validators: Validators(), next: nil, itemCount: 10))
    }

    static func retry(attempt: Int) -> RetryEvent {
        RetryEvent(
            attempt: attempt, maxAttempts: 3, delay: .seconds(1),
            error: FetchError(.transient, resource: "items", request: "GET /items?page=2", cause: "HTTP 503"),
            counted: true)
    }

    @Test func aRetryOfThePageFetchedAheadIsToldAfterTheReportOfThePageBeforeIt() throws {
        let tally = SyncTally(resource: "items", now: { Date(timeIntervalSince1970: 1_795_000_000) })
        tally.beginWalk()
        // Page 2, fetched ahead, fails before page 1 is reported: held.
        let (notice, held) = tally.retrying(Self.retry(attempt: 2), page: 2)
        #expect(held == nil)
        #expect(notice.attempt == 2)
        let (report, retry) = tally.add(Self.page(1), items: 10)
        #expect(report.retry == nil)
        #expect(report.pages == 1 && report.items == 10 && report.attempts == 2)
        let told = try #require(retry)
        #expect(told.retry == notice)
        #expect(told.pages == 1)
        // Told once.
        #expect(tally.add(Self.page(2), items: 10).retry == nil)
    }

    @Test func aRetryOfTheNextPageToReportOrOfTheWholeSyncIsToldAtOnce() {
        let tally = SyncTally(resource: "items", now: { Date(timeIntervalSince1970: 1_795_000_000) })
        tally.beginWalk()
        #expect(tally.retrying(Self.retry(attempt: 2), page: 1).report?.retry != nil)
        #expect(tally.retrying(Self.retry(attempt: 3)).report?.retry != nil)
        #expect(tally.add(Self.page(1), items: 10).retry == nil)
        #expect(tally.retrying(Self.retry(attempt: 4), page: 2).report?.retry != nil)
    }

    @Test func aNewWalkForgetsAHeldRetryOfTheWalkBefore() {
        let tally = SyncTally(resource: "items", now: { Date(timeIntervalSince1970: 1_795_000_000) })
        tally.beginWalk()
        _ = tally.add(Self.page(1), items: 10)
        #expect(tally.retrying(Self.retry(attempt: 2), page: 3).report == nil)
        // The whole sync starts again (a storage fault while page 2 was written).
        #expect(tally.retrying(Self.retry(attempt: 3)).report?.retry != nil)
        tally.beginWalk()
        #expect(tally.add(Self.page(1), items: 10).retry == nil)
        #expect(tally.retrying(Self.retry(attempt: 4), page: 2).report?.retry != nil)
    }
}
