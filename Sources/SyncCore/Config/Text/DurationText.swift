import Foundation
import Streams

/// Durations as the configuration writes them: `"500ms"`, `"30s"`, `"5m"`,
/// `"1h"`, `"1m30s"`, `"1.5s"`, `"2d"`, or a number of seconds.
package enum DurationText {
    /// The longest duration accepted: 365 days, beyond any sensible interval or timeout.
    package static let maximum: Duration = .seconds(365 * 86_400)

    /// Parses a duration string; `nil` when it is not one or is longer than ``maximum``.
    package static func parse(_ text: String) -> Duration? {
        var remaining = Substring(text.trimmingSpaces())
        guard !remaining.isEmpty else { return nil }
        if let seconds = Double(remaining), seconds.isFinite, seconds >= 0 {
            return seconds <= maximum.seconds ? .milliseconds(Int64((seconds * 1000).rounded())) : nil
        }
        var total: Double = 0
        while !remaining.isEmpty {
            let number = remaining.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number) else { return nil }
            remaining = remaining.dropFirst(number.count)
            let unit = remaining.prefix { $0.isLetter }
            remaining = remaining.dropFirst(unit.count)
            guard let scale = units[String(unit)] else { return nil }
            total += value * scale
        }
        guard total.isFinite, total <= maximum.seconds else { return nil }
        return .milliseconds(Int64((total * 1000).rounded()))
    }

    private static let units: [String: Double] = ["ms": 0.001, "s": 1, "m": 60, "h": 3600, "d": 86_400]

    /// Formats a duration the way the configuration writes it: `1m30s`, `500ms`, `0s`.
    package static func format(_ duration: Duration) -> String {
        var milliseconds = Int64((duration.seconds * 1000).rounded())
        guard milliseconds > 0 else { return "0s" }
        var text = ""
        for (unit, size) in [("d", Int64(86_400_000)), ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1)]
        where milliseconds >= size {
            text += "\(milliseconds / size)\(unit)"
            milliseconds %= size
        }
        return text
    }

    /// A wait as people read it, to about two digits: `450ms`, `1.1s`, `12s`,
    /// `2m5s`. A parseable duration, but not an exact one (use ``format(_:)``).
    package static func approximate(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds < 1 { return "\(Int((seconds * 1000).rounded()))ms" }
        if seconds < 9.95 {
            let tenths = Int((seconds * 10).rounded())
            return tenths % 10 == 0 ? "\(tenths / 10)s" : "\(tenths / 10).\(tenths % 10)s"
        }
        return format(.seconds(seconds.rounded()))
    }
}

/// Byte sizes as the configuration writes them: `"32MiB"`, `"512KiB"`, `"10MB"`,
/// or a number of bytes.
package enum ByteSizeText {
    /// Parses a size; `nil` when it is not one.
    package static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingSpaces()
        let number = trimmed.prefix { $0.isNumber || $0 == "." }
        let unit = trimmed.dropFirst(number.count).trimmingSpaces()
        guard let value = Double(number), let scale = units[unit.lowercased()] else { return nil }
        let bytes = value * scale
        guard bytes.isFinite, bytes < 1e15 else { return nil }
        return Int(bytes.rounded())
    }

    private static let units: [String: Double] = [
        "": 1, "b": 1, "kb": 1e3, "mb": 1e6, "gb": 1e9,
        "kib": 1024, "mib": 1_048_576, "gib": 1_073_741_824,
    ]

    /// Formats a size in binary units: `32 MiB`, `512 KiB`, `100 B`.
    package static func format(_ bytes: Int) -> String {
        for (unit, size) in [("GiB", 1_073_741_824), ("MiB", 1_048_576), ("KiB", 1024)] where bytes >= size {
            let value = Double(bytes) / Double(size)
            return value == value.rounded() ? "\(Int(value)) \(unit)" : String(format: "%.1f \(unit)", value)
        }
        return "\(bytes) B"
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(self[first...last])
    }
}
