import Testing

@testable import SyncCore

/// How a count an API states (a total, a `Content-Length`) is read: exactly,
/// of any size, never rounded or wrapped (docs/configuration.md#numbers-an-answer-carries).
@Suite struct StatedCountTests {
    @Test func readsWholeNumbersOfTheBodyExactly() {
        #expect(StatedCount(.number("0")) == .count(0))
        #expect(StatedCount(.number("-0")) == .count(0))
        #expect(StatedCount(.number("180")) == .count(180))
        #expect(StatedCount(.number("1.8e2")) == .count(180))
        #expect(StatedCount(.number("180.0")) == .count(180))
        #expect(StatedCount(.number("9223372036854775807")) == .count(Int.max))
    }

    @Test func aCountPastIntIsTooLargeNeverWrapped() {
        for text in ["9223372036854775808", "18446744073709551616", "99999999999999999999", "1e30", "1e400"] {
            #expect(StatedCount(.number(text)) == .tooLarge, "\(text)")
        }
    }

    @Test func whatIsNoCountSaysSo() {
        for value: JSONValue in [.number("-5"), .number("1.5"), .number("1e-400"), .string("180"), .null, .bool(true)] {
            #expect(StatedCount(value) == .notACount, "\(value)")
        }
    }

    @Test func readsTheDigitsOfAHeader() {
        #expect(StatedCount(header: "42") == .count(42))
        #expect(StatedCount(header: " 0042\t") == .count(42))
        #expect(StatedCount(header: "9223372036854775807") == .count(Int.max))
        #expect(StatedCount(header: "000000000000000000000009223372036854775807") == .count(Int.max))
        #expect(StatedCount(header: "9223372036854775808") == .tooLarge)
        #expect(StatedCount(header: "18446744073709551616") == .tooLarge)
        #expect(StatedCount(header: String(repeating: "9", count: 400)) == .tooLarge)
        for text in ["", " ", "-1", "1e3", "4 2", "+3", "0x10", "١٢"] {
            #expect(StatedCount(header: text) == .notACount, "\(text)")
        }
    }

    @Test func pageNumbersAndOffsetsAreCheckedSums() throws {
        #expect(try PagePlanner.sum(41, 1, of: "the page number") == 42)
        #expect(throws: PagePlanner.Problem(message: "the offset would pass \(Int.max) after \(Int.max - 1)")) {
            try PagePlanner.sum(Int.max - 1, 2, of: "the offset")
        }
    }
}
