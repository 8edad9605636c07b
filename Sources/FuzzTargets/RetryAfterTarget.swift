import Foundation
import SyncCore

extension FuzzTarget {
    /// `Retry-After` (RFC 9110 §10.2.3): seconds, decimal seconds, or an HTTP date in any
    /// of its three forms.
    static let retryAfter = FuzzTarget(
        name: "retry-after",
        property: "any value gives no wait or a wait of 0 to a day; seconds and valid HTTP dates "
            + "(IMF-fixdate, RFC 850, asctime) give the wait a calendar computed apart gives, at most a day"
    ) { input throws(PropertyViolation) in
        let now = Date(timeIntervalSince1970: 1_795_000_000)  // 2026-11-18T09:46:40Z
        let raw = String(decoding: input, as: UTF8.self)
        if let wait = RetryAfter.parse(raw, now: now) {
            try require(
                (.zero...RetryAfter.longest).contains(wait),
                "\(shown(input)) asks for a wait of \(wait), not between 0 and the longest wait")
        }

        var draw = FuzzInput(input)
        // Seconds, whole or with up to three decimals (Shopify's "2.0"), any size.
        let whole = draw.int(in: 0...Int(Int32.max)) * (draw.bool() ? draw.int(in: 1...1_000_000) : 1)
        let decimals = draw.int(in: 0...3)
        let fraction = decimals == 0 ? 0 : draw.int(in: 0...(Int(pow(10, Double(decimals))) - 1))
        var text = String(whole)
        if decimals > 0 {
            let digits = String(fraction)
            text += "." + String(repeating: "0", count: decimals - digits.count) + digits
        }
        let expected = min(
            Duration.seconds(whole) + .milliseconds(fraction * Int(pow(10, Double(3 - decimals)))), RetryAfter.longest)
        let read = RetryAfter.parse(text, now: now)
        try require(read == expected, "Retry-After: \(text) reads \(String(describing: read)), not \(expected)")

        // A valid HTTP date, from a calendar computed here (days from 1970, no Foundation).
        let year = draw.int(in: 1970...2199)
        let month = draw.int(in: 1...12)
        let day = draw.int(in: 1...CivilDate.days(in: month, of: year))
        let (hour, minute, second) = (draw.int(in: 0...23), draw.int(in: 0...59), draw.int(in: 0...59))
        let date = CivilDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        let form = draw.int(in: 0...2)
        if form == 1, !date.rfc850YearIsRead(relativeTo: 2026) { return }
        let value = [date.imfFixdate, date.rfc850, date.asctime][form]
        let wantedSeconds = max(0, date.epochSeconds - Int(now.timeIntervalSince1970))
        let wait = RetryAfter.parse(value, now: now)
        try require(
            wait == min(.seconds(wantedSeconds), RetryAfter.longest),
            "Retry-After: \(value) reads \(String(describing: wait)), not \(wantedSeconds) s")
    }
}

/// A date and time of the proleptic Gregorian calendar in UTC, computed without
/// Foundation, as the reference for HTTP dates.
struct CivilDate {
    var year, month, day, hour, minute, second: Int

    static func days(in month: Int, of year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's days_from_civil).
    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    var epochSeconds: Int { daysSinceEpoch * 86_400 + hour * 3600 + minute * 60 + second }

    private static let weekdays = ["Thursday", "Friday", "Saturday", "Sunday", "Monday", "Tuesday", "Wednesday"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private var weekday: String { Self.weekdays[((daysSinceEpoch % 7) + 7) % 7] }
    private var monthName: String { Self.months[month - 1] }
    private var time: String { "\(two(hour)):\(two(minute)):\(two(second))" }
    private func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`
    var imfFixdate: String { "\(weekday.prefix(3)), \(two(day)) \(monthName) \(year) \(time) GMT" }
    /// `Sunday, 06-Nov-94 08:49:37 GMT`
    var rfc850: String { "\(weekday), \(two(day))-\(monthName)-\(two(year % 100)) \(time) GMT" }
    /// `Sun Nov  6 08:49:37 1994`
    var asctime: String { "\(weekday.prefix(3)) \(monthName) \(day < 10 ? " \(day)" : "\(day)") \(time) \(year)" }

    /// Whether an RFC 850 date's two-digit year names this date's year, read as RFC 9110
    /// §5.6.7 says: a year more than 50 years after `currentYear` is the one a century before.
    func rfc850YearIsRead(relativeTo currentYear: Int) -> Bool {
        var read = currentYear - currentYear % 100 + year % 100
        if read > currentYear + 50 { read -= 100 }
        return read == year
    }
}
