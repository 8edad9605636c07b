import Foundation
import Store

/// Reads the HTTP `Retry-After` header (RFC 9110 §10.2.3): a number of
/// seconds (whole, or decimal as Shopify sends it), or an HTTP date.
enum RetryAfter {
    /// The wait the header asks for, measured from `now`; `nil` if absent or unreadable.
    static func parse(_ value: String?, now: Date = SystemSources.now()) -> Duration? {
        guard let value = value?.trimmingSpaces(), !value.isEmpty else { return nil }
        if value.first?.isNumber == true, let seconds = Double(value), seconds.isFinite {
            return seconds >= 0 ? .milliseconds(Int64((seconds * 1000).rounded(.up))) : nil
        }
        for format in formats {
            if let date = format.date(from: value) {
                return .milliseconds(Int64((max(0, date.timeIntervalSince(now)) * 1000).rounded(.up)))
            }
        }
        return nil
    }

    /// IMF-fixdate, then the two obsolete forms a server may still send.
    private static var formats: [DateFormatter] {
        ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"].map {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = $0
            return formatter
        }
    }
}
