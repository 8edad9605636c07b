import Foundation

/// The text form of instants in the database and in every API: ISO 8601 in UTC
/// with milliseconds, such as `2026-11-21T10:00:00.123Z`.
///
/// Strings of this form sort in time order, so readers can compare them with
/// `<` in SQL.
public enum Timestamp {
    /// Formats an instant, truncated to the millisecond. The agent's own times
    /// (the clock's, and what it computes from them) are of these years; one
    /// outside years 1 to 9999 is written as the nearest end of them, never trapped on.
    public static func string(from date: Date) -> String {
        let time =
            ExactTime(date) ?? (date.timeIntervalSince1970 > 0 ? ExactTime.latest : ExactTime.earliest)
        return string(from: time)
    }

    /// Formats an exact time, truncated to the millisecond.
    public static func string(from time: ExactTime) -> String {
        time.text(fractionDigits: 3)
    }

    /// Parses a string made by ``string(from:)``; also accepts one without
    /// milliseconds. Returns `nil` for anything else.
    public static func date(from string: String) -> Date? {
        time(from: string)?.date
    }

    /// The exact time of a string made by ``string(from:)`` (or by ``ExactTime/iso8601``,
    /// with any fraction); `nil` for anything else.
    public static func time(from string: String) -> ExactTime? {
        let bytes = string.utf8
        guard bytes.count >= 20, bytes.count <= 30, bytes.last == UInt8(ascii: "Z"),
            bytes.count == 20 || [24, 27, 30].contains(bytes.count)
        else { return nil }
        let shape = Array(bytes)
        let separators: [(Int, UInt8)] = [
            (4, UInt8(ascii: "-")), (7, UInt8(ascii: "-")), (10, UInt8(ascii: "T")), (13, UInt8(ascii: ":")),
            (16, UInt8(ascii: ":")),
        ]
        for (index, character) in separators where shape[index] != character {
            return nil
        }
        if shape.count > 20, shape[19] != UInt8(ascii: ".") { return nil }
        return ExactTime(iso8601: string)
    }
}
