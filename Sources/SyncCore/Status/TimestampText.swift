import Foundation
import Store

/// Instants as people and programs read them.
package enum TimestampText {
    /// ISO 8601 UTC with milliseconds, as in the database and the API.
    package static func string(from date: Date) -> String { Timestamp.string(from: date) }

    /// How long ago (or how soon) `date` is, as "12s ago", "5m ago", "in 3h", "just now".
    package static func relative(_ date: Date?, now: Date = SystemSources.now()) -> String {
        guard let date else { return "never" }
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        if magnitude < 1 { return "just now" }
        let text = span(Int(magnitude))
        return seconds < 0 ? "\(text) ago" : "in \(text)"
    }

    /// A number of seconds in its largest whole unit: `12s`, `3m`, `2h`, `4d`.
    package static func span(_ seconds: Int) -> String {
        switch seconds {
        case ..<60: "\(seconds)s"
        case ..<3600: "\(seconds / 60)m"
        case ..<86_400: "\(seconds / 3600)h"
        default: "\(seconds / 86_400)d"
        }
    }
}
