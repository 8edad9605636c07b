/// Which strings ``ColumnInference`` takes for date-times: the ones a
/// `timestamp` column holds (docs/configuration.md#typed-columns).
enum DateTimeText {
    /// Whether `text` is an ISO 8601 (RFC 3339) date-time with seconds:
    /// `2026-11-21T10:00:00Z`, `2026-11-21T10:00:00.250+01:00`, or
    /// `2026-11-21T10:00:00` (no zone: UTC), as both stores read them: a year
    /// from 1, a day the month has, an offset of at most 14 hours, up to
    /// 9999-12-31T23:59:59.999Z. A date alone, a time alone, or a number of
    /// seconds written as text is not.
    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        // YYYY-MM-DDTHH:MM:SS is 19 bytes; then a fraction, then a zone.
        guard bytes.count >= 19, bytes.count <= 40 else { return false }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + length] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        let separators: [(Int, UInt8)] = [
            (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
            (16, UInt8(ascii: ":")),
        ]
        // Year 0 is no year PostgreSQL reads; a day past the month's end (2023-02-29)
        // SQLite takes but PostgreSQL refuses.
        guard separators.allSatisfy({ bytes[$0.0] == $0.1 }),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            year >= 1, (1...12).contains(month), (1...daysIn(month, of: year)).contains(day), hour < 24,
            minute < 60, second < 60
        else { return false }
        var index = 19
        var fraction: ArraySlice<UInt8> = []
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = bytes[index...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            guard digits > 0 else { return false }
            fraction = bytes[index..<index + digits]
            index += digits
        }
        let zone = bytes[index...]
        var offset = 0
        if !(zone.isEmpty || Array(zone) == [UInt8(ascii: "Z")]) {
            // ±HH:MM: both stores read that offset (SQLite's date functions not ±HHMM,
            // nor more than 14 hours).
            guard zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-") else { return false }
            let digits = Array(zone.dropFirst())
            guard digits.count == 5, digits[2] == UInt8(ascii: ":") else { return false }
            guard let hours = number(index + 1, 2), let minutes = number(index + 4, 2), hours <= 14, minutes < 60
            else { return false }
            offset = (hours * 60 + minutes) * 60 * (zone.first == UInt8(ascii: "-") ? -1 : 1)
        }
        // SQLite's date functions end at 9999-12-31T23:59:59.999Z: an offset west
        // of UTC on that day, or a fraction rounding up to the next second, goes past it.
        if year == 9999, month == 12, day == 31 {
            let seconds = hour * 3_600 + minute * 60 + second - offset
            // SQLite rounds to the millisecond: .9995 is the next second.
            let roundsUp =
                fraction.count >= 4 && fraction.prefix(3).allSatisfy { $0 == UInt8(ascii: "9") }
                && fraction[fraction.startIndex + 3] >= UInt8(ascii: "5")
            return seconds < 86_399 || (seconds == 86_399 && !roundsUp)
        }
        return true
    }

    /// The days of `month` (1-12) of `year` in the Gregorian calendar, as both stores count them.
    static func daysIn(_ month: Int, of year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}
