/// Which strings ``ColumnInference`` takes for date-times: the ones a
/// `timestamp` column holds (docs/configuration.md#typed-columns).
enum DateTimeText {
    /// Whether `text` is an ISO 8601 (RFC 3339) date-time with seconds:
    /// `2026-11-21T10:00:00Z`, `2026-11-21T10:00:00.250+01:00`, or
    /// `2026-11-21T10:00:00` (no zone: UTC), as both stores read them. A date alone, a time alone, or a
    /// number of seconds written as text is not.
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
        guard separators.allSatisfy({ bytes[$0.0] == $0.1 }),
            number(0, 4) != nil, let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
            let minute = number(14, 2), let second = number(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60
        else { return false }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let digits = bytes[index...].prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            guard digits > 0 else { return false }
            index += digits
        }
        let zone = bytes[index...]
        if zone.isEmpty || Array(zone) == [UInt8(ascii: "Z")] { return true }
        // ±HH:MM: both stores read that offset (SQLite's date functions not ±HHMM).
        guard zone.first == UInt8(ascii: "+") || zone.first == UInt8(ascii: "-") else { return false }
        let offset = Array(zone.dropFirst())
        guard offset.count == 5, offset[2] == UInt8(ascii: ":") else { return false }
        let hours = number(index + 1, 2)
        let minutes = number(index + 4, 2)
        guard let hours, let minutes else { return false }
        return hours < 24 && minutes < 60
    }
}
