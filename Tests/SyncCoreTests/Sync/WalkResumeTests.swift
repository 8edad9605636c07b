import Foundation
import Store
import Testing

@testable import SyncCore

/// How an incremental walk cut off goes on (docs/configuration.md#how-a-walk-cut-off-goes-on):
/// what each page leaves to go on from, and how a stored walk is taken up again.
@Suite struct WalkResumeTests {
    static let updatedAt = JSONPointer(tokens: ["updated_at"])

    static func settings(
        _ source: IncrementalSettings.Source = .field(updatedAt), order: IncrementalSettings.Order = .oldestFirst
    ) -> IncrementalSettings {
        var settings = IncrementalSettings(source: source, placement: .query("updated_after"), lookback: .seconds(30))
        settings.order = order
        return settings
    }

    static func order(_ seconds: [Int64]) -> TimeOrder {
        var order = TimeOrder()
        for second in seconds { order.add(.at(second)) }
        return order
    }

    static func walk(sent: SinceState?, largest: SinceState?, resume: SinceState?) -> SyncCursor.Walk {
        SyncCursor.Walk(next: #"{"url":"page=3"}"#, pages: 2, sent: sent, largest: largest, resume: resume, run: 1)
    }

    static let start = SinceState.time(.at(1_000))
    static let largest = SinceState.time(.at(1_400))

    @Test func aFieldWalkWhoseItemsCameOldestFirstGoesOnFromTheLargestValueCommitted() {
        let settings = Self.settings()
        let resume = WalkResume.resume(
            settings, sent: Self.start, largest: Self.largest, order: Self.order([1_000, 1_100, 1_100, 1_400]))
        #expect(resume == Self.largest)
        // Taken up again: at the first page, from that value (the lookback is taken off when it is sent).
        let walk = Self.walk(sent: Self.start, largest: Self.largest, resume: resume)
        #expect(WalkResume(walk, settings) == .byValue(Self.largest))
        #expect(settings.value(toSend: Self.largest)?.text() == "1970-01-01T00:22:50Z")
    }

    @Test func aFieldWalkWhoseItemsDidNotShowTheOrderStartsAgainFromWhatItSent() {
        let settings = Self.settings()
        // Newest first though the configuration says otherwise: the largest is no place in the
        // list, so the walk starts again from the value it sent, which is exact in any order.
        let orders: [[Int64]] = [[1_400, 1_300, 1_000], [1_000, 1_400, 1_200], [1_400, 1_400], [1_400], []]
        for seen in orders {
            let resume = WalkResume.resume(settings, sent: Self.start, largest: Self.largest, order: Self.order(seen))
            #expect(resume == Self.start, "\(seen)")
        }
        // A first walk sent no value yet: it starts again from `initial`.
        #expect(
            WalkResume.resume(settings, sent: nil, largest: Self.largest, order: Self.order([1_400, 1_000])) == nil)
        #expect(WalkResume(Self.walk(sent: nil, largest: Self.largest, resume: nil), settings) == .byValue(nil))
    }

    @Test func aWalkKeptWithoutAValueToGoOnFromStartsAgainFromWhatItSent() {
        // A walk cut off by 0.1.0, which kept no walk_resume_value.
        let walk = Self.walk(sent: Self.start, largest: Self.largest, resume: nil)
        #expect(WalkResume(walk, Self.settings()) == .byValue(Self.start))
        #expect(WalkResume(walk, Self.settings(.body(Self.updatedAt))) == .byValue(Self.start))
    }

    @Test func aFromBodyWalkStartsAgainFromWhatItSent() {
        // A body's time may be the time the query ran, not where the page ended.
        let settings = Self.settings(.body(JSONPointer(tokens: ["end_time"])))
        let resume = WalkResume.resume(
            settings, sent: Self.start, largest: Self.largest, order: Self.order([1_000, 1_400]))
        #expect(resume == Self.start)
        #expect(
            WalkResume(Self.walk(sent: Self.start, largest: Self.largest, resume: resume), settings)
                == .byValue(Self.start))
    }

    @Test func newestFirstTokensAndLinksGoOnAtTheirNextPage() {
        let newestFirst = Self.settings(order: .newestFirst)
        let ascending = Self.order([1_000, 1_400])
        #expect(WalkResume.resume(newestFirst, sent: Self.start, largest: Self.largest, order: ascending) == nil)
        #expect(WalkResume(Self.walk(sent: Self.start, largest: Self.largest, resume: nil), newestFirst) == .byPage)
        // Even with a value kept by another configuration of the resource.
        #expect(
            WalkResume(Self.walk(sent: Self.start, largest: Self.largest, resume: Self.largest), newestFirst) == .byPage
        )
        for source in [IncrementalSettings.Source.token(JSONPointer(tokens: ["last_seq"])), .link(Self.updatedAt)] {
            let settings = Self.settings(source)
            let token = SinceState.token("2150-g1AAAA")
            #expect(WalkResume.resume(settings, sent: token, largest: token, order: TimeOrder()) == nil)
            #expect(WalkResume(Self.walk(sent: token, largest: token, resume: nil), settings) == .byPage)
        }
    }
}

/// The order of the times a walk's items gave, page after page.
@Suite struct TimeOrderTests {
    @Test func timesThatRoseAndNeverFellAreOldestFirst() {
        var first = WalkResumeTests.order([10, 10, 20])
        #expect(first.oldestFirst)
        #expect(first.first == .at(10) && first.last == .at(20))
        // The next page starts below the last one's end: the order is broken across pages.
        first.append(WalkResumeTests.order([15, 30]))
        #expect(!first.oldestFirst)
        #expect(first.fell && first.rose && first.last == .at(30))
        var equal = WalkResumeTests.order([10, 10])
        #expect(!equal.oldestFirst)
        equal.append(WalkResumeTests.order([10, 11]))
        #expect(equal.oldestFirst)
        // A page without times changes nothing.
        equal.append(TimeOrder())
        #expect(equal.oldestFirst && equal.last == .at(11))
        #expect(!WalkResumeTests.order([30, 20, 10]).oldestFirst)
        #expect(!TimeOrder().oldestFirst)
    }

    @Test func theDecoderTellsTheOrderOfTheItemsTimesSkippingNulls() throws {
        let decoder = PageDecoder(items: try JSONPointer("/data"), key: try JSONPointer("/id"))
        let settings = WalkResumeTests.settings()
        let ascending = #"""
            {"data": [{"id": 1, "updated_at": "2026-11-24T10:00:00Z"}, {"id": 2, "updated_at": null},
                      {"id": 3, "updated_at": "2026-11-24T11:00:00Z"}, {"id": 4}]}
            """#
        let decoded = try decoder.decode(Array(ascending.utf8), incremental: settings)
        #expect(decoded.order.oldestFirst)
        #expect(decoded.order.first == .at(1_795_514_400) && decoded.order.last == .at(1_795_518_000))
        let descending =
            #"{"data": [{"id": 3, "updated_at": "2026-11-24T11:00:00Z"}, {"id": 1, "updated_at": "2026-11-24T10:00:00Z"}]}"#
        #expect(try decoder.decode(Array(descending.utf8), incremental: settings).order.fell)
    }
}
