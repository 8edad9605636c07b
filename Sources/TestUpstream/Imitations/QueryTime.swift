import DemoUpstream
import Foundation

/// The times that the imitations of change queries read from the text of a query (Jira's
/// JQL, GitHub's `q`, Shopify's search syntax) and write in their items, on the clock of
/// ``Dataset``: stamp `s` is `s` seconds after 2026-01-01T00:00:00Z.
enum QueryTime {
    /// The instant a query writes as `yyyy-MM-dd` or `yyyy/MM/dd`, optionally followed by
    /// ` HH:mm` or `THH:mm`, seconds, a fraction, and `Z` or an offset (`+00:00`, `+0000`);
    /// without an offset, in UTC. `nil` for anything else.
    static func date(_ text: String) -> Date? {
        let pattern =
            #/^(\d{4})[-\/](\d{2})[-\/](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?$/#
        guard let match = text.wholeMatch(of: pattern) else { return nil }
        let (year, month, day) = (Int(match.1)!, Int(match.2)!, Int(match.3)!)
        let (hour, minute, second) = (
            match.4.map { Int($0)! } ?? 0, match.5.map { Int($0)! } ?? 0, match.6.map { Int($0)! } ?? 0
        )
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        var seconds = TimeInterval(timegm(&parts)) + (match.7.flatMap { Double("0" + $0) } ?? 0)
        if let zone = match.8, zone != "Z" {
            let digits = zone.dropFirst().filter(\.isNumber)
            let offset = (Int(digits.prefix(2))! * 60 + Int(digits.suffix(2))!) * 60
            seconds -= TimeInterval(zone.hasPrefix("-") ? -offset : offset)
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// The smallest stamp after `date` (`inclusive`: at or after it), never below 0.
    static func firstStamp(after date: Date, inclusive: Bool) -> Int {
        let offset = date.timeIntervalSince(Dataset.epoch)
        let stamp = inclusive ? Int(offset.rounded(.up)) : Int(offset.rounded(.down)) + 1
        return max(0, stamp)
    }

    /// The live items changed at stamp `since` or later, oldest change first (then by id).
    static func changed(in dataset: Dataset, since: Int) -> [(id: Int, stamp: Int)] {
        dataset.changes(since: since, limit: .max).filter { !$0.deleted }.map { ($0.id, $0.stamp) }
    }

    /// A stamp as Jira writes times: `2026-01-01T00:00:01.000+0000`.
    static func jira(_ stamp: Int) -> String {
        String(Dataset.time(stamp).dropLast()) + ".000+0000"
    }
}
