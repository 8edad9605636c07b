import Foundation
import Store
import SyncCore

/// Instants as people and programs read them.
package enum TimestampText {
    /// ISO 8601 UTC with milliseconds, as in the database and the API.
    package static func string(from date: Date) -> String { Timestamp.string(from: date) }

    /// How long ago (or how soon) `date` is, as "12s ago", "5m ago", "in 3h", "just now".
    package static func relative(_ date: Date?, now: Date = Date()) -> String {
        guard let date else { return "never" }
        let seconds = date.timeIntervalSince(now)
        let magnitude = abs(seconds)
        if magnitude < 1 { return "just now" }
        let text: String
        switch magnitude {
        case ..<60: text = "\(Int(magnitude))s"
        case ..<3600: text = "\(Int(magnitude / 60))m"
        case ..<86_400: text = "\(Int(magnitude / 3600))h"
        default: text = "\(Int(magnitude / 86_400))d"
        }
        return seconds < 0 ? "\(text) ago" : "in \(text)"
    }
}
