import Foundation

/// The text form of instants in the database and in every API: ISO 8601 in UTC
/// with milliseconds, such as `2026-11-21T10:00:00.123Z`.
///
/// Strings of this form sort in time order, so readers can compare them with
/// `<` in SQL.
public enum Timestamp {
    /// Formats an instant, truncated to the millisecond.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(milliseconds.floorDivided(by: 1000))
        let millis = Int(milliseconds - Int64(seconds) * 1000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        // By hand: String(format:) costs more than the rest of a 304 poll's bookkeeping.
        let fields: [(Int, Int, UInt8)] = [
            (Int(parts.tm_year) + 1900, 4, UInt8(ascii: "-")), (Int(parts.tm_mon) + 1, 2, UInt8(ascii: "-")),
            (Int(parts.tm_mday), 2, UInt8(ascii: "T")), (Int(parts.tm_hour), 2, UInt8(ascii: ":")),
            (Int(parts.tm_min), 2, UInt8(ascii: ":")), (Int(parts.tm_sec), 2, UInt8(ascii: ".")),
            (millis, 3, UInt8(ascii: "Z")),
        ]
        return String(unsafeUninitializedCapacity: 24) { buffer in
            var index = 0
            for (value, width, separator) in fields {
                var rest = max(0, value)
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                buffer[index + width] = separator
                index += width + 1
            }
            return index
        }
    }

    /// Parses a string made by ``string(from:)``; also accepts one without
    /// milliseconds. Returns `nil` for anything else.
    public static func date(from string: String) -> Date? {
        let bytes = Array(string.utf8)
        guard bytes.count == 20 || bytes.count == 24, bytes.last == UInt8(ascii: "Z") else { return nil }
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + length] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
        for (index, character) in separators where bytes[index] != character.asciiValue {
            return nil
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var millis = 0
        if bytes.count == 24 {
            guard bytes[19] == UInt8(ascii: "."), let value = number(20, 3) else { return nil }
            millis = value
        }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        return Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
    }
}

extension Int64 {
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
