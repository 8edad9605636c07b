import Foundation
import Store

/// Reads the HTTP `Retry-After` header (RFC 9110 §10.2.3): a number of
/// seconds (whole, or decimal as Shopify sends it), or an HTTP date.
package enum RetryAfter {
    /// The longest wait an API can ask for, one day (docs/configuration.md#the-longest-wait):
    /// a longer `Retry-After`, or a quota's reset further away, asks for this
    /// one, and a sync that ends `rateLimited` puts its next poll at most this
    /// far away. A request waits at most `rateLimit.maxWait` anyway.
    package static let longest: Duration = .seconds(86_400)

    /// The wait the header asks for, measured from `now`; `nil` if absent or unreadable.
    package static func parse(_ value: String?, now: Date = SystemSources.now()) -> Duration? {
        guard let value = value?.trimmingSpaces(), let first = value.utf8.first else { return nil }
        if first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") {
            return seconds(value)
        }
        // An obsolete date form may pad its day with two spaces (`Nov  6`).
        let date = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        for format in formats(now: now) {
            if let date = format.date(from: date) {
                // A date of any year: clamped before it becomes an integer.
                let seconds = min(max(0, date.timeIntervalSince(now)), longest.seconds)
                return .milliseconds(Int64((seconds * 1000).rounded(.up)))
            }
        }
        return nil
    }

    /// Digits, then optionally a point and digits, read exactly to the millisecond
    /// (a finer fraction rounds up), at most ``longest``.
    private static func seconds(_ text: String) -> Duration? {
        var whole: Int64 = 0
        var milliseconds: Int64 = 0
        var scale: Int64 = 100
        var roundUp = false
        var inFraction = false
        var digits = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = Int64(byte - UInt8(ascii: "0"))
                digits += 1
                if !inFraction {
                    whole = min(whole * 10 + digit, longest.components.seconds)
                } else if scale > 0 {
                    milliseconds += digit * scale
                    scale /= 10
                } else if digit > 0 {
                    roundUp = true
                }
            case UInt8(ascii: ".") where !inFraction && digits > 0:
                inFraction = true
                digits = 0
            default:
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return min(.seconds(whole) + .milliseconds(milliseconds + (roundUp ? 1 : 0)), longest)
    }

    /// IMF-fixdate, then the two obsolete forms a server may still send. RFC 850's
    /// two-digit year is the one at most 50 years after `now` (RFC 9110 §5.6.7).
    private static func formats(now: Date) -> [DateFormatter] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        let year = calendar.component(.year, from: now)
        let windowStart = calendar.date(from: DateComponents(year: year - 49, month: 1, day: 1))
        return ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"].map {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = calendar
            formatter.timeZone = calendar.timeZone
            formatter.dateFormat = $0
            formatter.twoDigitStartDate = windowStart
            return formatter
        }
    }
}
