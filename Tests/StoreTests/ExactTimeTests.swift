import Foundation
import Store
import Testing

/// Kept times are exact instants of the years 1 to 9999: read from ISO 8601 to the
/// nanosecond, written back as they were read, and anything else refused, never
/// read as another time (docs/configuration.md#incremental-resources).
@Suite struct ExactTimeTests {
    @Test func iso8601TextReadsBackToTheNanosecond() throws {
        for text in [
            "2026-09-21T14:13:20Z", "2026-09-21T14:13:20.123Z", "2026-09-21T14:13:20.123456Z",
            "2026-09-21T14:13:20.123456789Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
            "1969-12-31T23:59:59.5Z", "2024-02-29T00:00:00Z",
        ] {
            let time = try #require(ExactTime(iso8601: text), "\(text)")
            #expect(ExactTime(iso8601: time.iso8601) == time, "\(text)")
        }
        #expect(ExactTime(iso8601: "0001-01-01T00:00:00Z") == .earliest)
        #expect(ExactTime(iso8601: "9999-12-31T23:59:59.999999999Z") == .latest)
        #expect(ExactTime(iso8601: "1970-01-01T00:00:00Z") == .epoch)
        #expect(ExactTime(iso8601: "1969-12-31T23:59:59.5Z")?.seconds == -1)
        #expect(ExactTime(iso8601: "1969-12-31T23:59:59.5Z")?.nanoseconds == 500_000_000)
        #expect(
            ExactTime(iso8601: "2026-09-21T14:13:20.1234567891Z")
                == ExactTime(iso8601: "2026-09-21T14:13:20.123456789Z"))
    }

    @Test func offsetsAndShortFormsNameTheSameInstant() {
        let noon = ExactTime(seconds: 1_790_000_000)
        for text in [
            "2026-09-21T16:13:20+02:00", "2026-09-21T16:13:20+0200", "2026-09-21 14:13:20Z",
            "2026-09-21t14:13:20z", "2026-09-21T09:13:20-05",
        ] {
            #expect(ExactTime(iso8601: text) == noon, "\(text)")
        }
        #expect(ExactTime(iso8601: "2026-09-21") == ExactTime(seconds: 1_789_948_800))
        #expect(ExactTime(iso8601: "2026-09-21T14:13Z") == ExactTime(seconds: 1_789_999_980))
    }

    @Test func whatNoTimeCanHoldIsRefusedWithItsReason() {
        for text in ["10000-01-01T00:00:00Z", "+275760-09-13T00:00:00Z", "0000-01-01T00:00:00Z"] {
            #expect(ExactTime.parse(iso8601: text) == .failure(.outOfRange), "\(text)")
        }
        #expect(ExactTime.parse(iso8601: "2026-09-21T14:13:20") == .failure(.noTimeZone))
        for text in [
            "", "soon", "2026-02-29T00:00:00Z", "2026-06-31T00:00:00Z", "2026-09-21T25:00:00Z",
            "2026-09-21T14:13:20Z\u{0}", "2026-09-21T14:13:20+25:00", String(repeating: "9", count: 10_000),
        ] {
            #expect(ExactTime.parse(iso8601: text) == .failure(.notATime), "\(text.prefix(40))")
        }
        // Past either end, a time is no time; a move that would leave the years says so.
        #expect(ExactTime(seconds: 253_402_300_800) == nil)
        #expect(ExactTime(seconds: -62_135_596_801) == nil)
        #expect(ExactTime(seconds: 0, nanoseconds: 1_000_000_000) == nil)
        #expect(ExactTime.latest.moved(by: .nanoseconds(1)) == nil)
        #expect(ExactTime.earliest.moved(by: .seconds(-90)) == nil)
        #expect(ExactTime(Date(timeIntervalSince1970: 1e30)) == nil)
        #expect(ExactTime(nanosecondsSinceEpoch: Int128(Int64.max) * 1_000_000_000) == nil)
    }

    @Test func timestampsOfTheStoreNeverTrap() {
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1e30)) == "9999-12-31T23:59:59.999Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: -1e30)) == "0001-01-01T00:00:00.000Z")
        #expect(Timestamp.string(from: Date(timeIntervalSince1970: 1_790_000_000.1239)) == "2026-09-21T14:13:20.123Z")
        #expect(Timestamp.time(from: "2026-09-21T14:13:20.123456789Z")?.nanoseconds == 123_456_789)
        #expect(Timestamp.time(from: "2026-09-21") == nil)
    }
}
