import Foundation
import Testing

@testable import Store

@Suite(.timeLimit(.minutes(1))) struct TimestampTests {
    @Test func formatsUTCWithMilliseconds() {
        let date = Date(timeIntervalSince1970: 1_795_255_200.123)
        #expect(Timestamp.string(from: date) == "2026-11-21T10:00:00.123Z")
    }

    @Test func truncatesToTheMillisecond() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 0.9999)) == "1970-01-01T00:00:00.999Z")
    }

    @Test func parsesWhatItFormats() {
        let date = Date(timeIntervalSince1970: 1_795_255_200.456)
        let parsed = Timestamp.date(from: Timestamp.string(from: date))
        #expect(parsed.map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
        #expect(Timestamp.date(from: "2026-11-21T10:00:00Z") == Date(timeIntervalSince1970: 1_795_255_200))
    }

    @Test(arguments: ["", "2026-11-21", "2026-13-01T00:00:00Z", "2026-11-21T10:00:00.12Z", "2026-11-21 10:00:00Z"])
    func refusesOtherText(_ text: String) {
        #expect(Timestamp.date(from: text) == nil)
    }

    @Test func sortsInTimeOrderAsText() {
        let dates = [0.0, 1.5, 59.999, 60, 3600].map { Date(timeIntervalSince1970: 1_795_255_200 + $0) }
        let texts = dates.map(Timestamp.string(from:))
        #expect(texts == texts.sorted())
    }
}
