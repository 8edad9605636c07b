// What the agent asks of ICU, printed: scripts/icu-data runs it linked statically with the
// toolchain's ICU data and with the agent's, and the two outputs must be the same.
// Named time zones (`since.timeZone`), `{since:PATTERN}` (en_US_POSIX, gregorian, the
// resource's zone), Retry-After's HTTP dates, a certificate's day, ISO 8601 dates.
import Foundation

let letters = Array("GyYuUrQqMLlwWdDFgEecabBhHKkjJCmsSAzZOvVXx")
let dates = [
    Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_790_000_000.123),
    Date(timeIntervalSince1970: 1_719_835_200), Date(timeIntervalSince1970: 951_782_400),
]
let zones = [
    "UTC", "GMT", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe",
    "America/St_Johns", "Pacific/Chatham", "Etc/GMT+5", "GMT+02:00", "Europe/London", "Asia/Tokyo",
    "US/Eastern", "EST", "CET", "Africa/Casablanca", "America/Sao_Paulo", "Not/AZone", "utc",
]
func formatter(_ zone: TimeZone, _ pattern: String) -> DateFormatter {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.calendar = Calendar(identifier: .gregorian)
    formatter.timeZone = zone
    formatter.dateFormat = pattern
    return formatter
}
for name in zones {
    guard let zone = TimeZone(identifier: name) else {
        print("zone \(name): nil")
        continue
    }
    print(
        "zone \(name): \(zone.identifier) \(zone.secondsFromGMT(for: dates[1])) \(zone.abbreviation(for: dates[2]) ?? "-")"
    )
    for count in 1...5 {
        for letter in letters {
            let pattern = String(repeating: letter, count: count)
            print("  \(pattern): " + dates.map { formatter(zone, pattern).string(from: $0) }.joined(separator: " | "))
        }
    }
}
let names = "yyyy-MM-dd HH:mm:ss z zzzz Z ZZZZ ZZZZZ O OOOO v vvvv V VV VVV VVVV X XXXXX x"
for name in TimeZone.knownTimeZoneIdentifiers {
    guard let zone = TimeZone(identifier: name) else {
        print("\(name): nil")
        continue
    }
    print("\(name): " + dates.map { formatter(zone, names).string(from: $0) }.joined(separator: " | "))
}
let http = ["EEE, dd MMM yyyy HH:mm:ss zzz", "EEEE, dd-MMM-yy HH:mm:ss zzz", "EEE MMM d HH:mm:ss yyyy"]
let sent = [
    "Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
    "Wed, 21 Oct 2015 07:28:00 CET", "Wed, 21 Oct 2015 07:28:00 PST", "garbage",
]
for pattern in http {
    let parser = formatter(TimeZone(identifier: "GMT")!, pattern)
    for text in sent {
        print("parse \(pattern) <- \(text): \(parser.date(from: text).map { "\($0.timeIntervalSince1970)" } ?? "nil")")
    }
}
let options: [ISO8601DateFormatter.Options] = [
    [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
]
for option in options {
    let parser = ISO8601DateFormatter()
    parser.formatOptions = option
    for text in ["2026-11-24T10:00:00Z", "2026-11-24T10:00:00.123+02:00", "2026-11-24", "2026-02-30", "x"] {
        print(
            "iso \(option.rawValue) <- \(text): \(parser.date(from: text).map { "\($0.timeIntervalSince1970)" } ?? "nil")"
        )
    }
}
// URLs: every host goes through ICU's IDNA (UTS #46) when a URL is parsed.
for text in [
    "http://127.0.0.1:8080/items?q=caf%C3%A9", "https://api.example.com/v1/items", "http://localhost/x",
    "http://bücher.example/items", "https://xn--bcher-kva.example/", "http://EXAMPLE.com/Path", "http:// bad",
] {
    let url = URL(string: text)
    print("url \(text): \(url.map { "\($0.host ?? "nil") \($0.absoluteString)" } ?? "nil")")
}
// Strings compared, cased and normalized as Foundation does it by locale.
let words = ["Zebra", "apple", "Äpfel", "ﬁle", "İstanbul", "straße"]
print(words.sorted { $0.localizedStandardCompare($1) == .orderedAscending })
print(words.map { $0.localizedCapitalized }, words.map { $0.uppercased() })
print(words.map { $0.precomposedStringWithCompatibilityMapping })
