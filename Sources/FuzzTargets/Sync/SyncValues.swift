/// The values the `sync` target's answers carry, drawn from an input's bytes:
/// the hostile ones of issue 40 (numbers of 18 to 20 digits, 2^63, 2^64, `1e30`,
/// `1e400`, years 0 and 10000, empty and very long strings…), times built
/// field by field, and raw text, where libFuzzer's dictionary tokens land.
enum SyncValues {
    /// Stands for the upstream's base URL (`http://host:port`) in the texts of
    /// an answer; the upstream puts the base in as it answers.
    static let base = "@BASE@"

    /// Numbers where conversions break: past 2^53, 2^63 and 2^64, past the years
    /// 1 to 9999 in seconds or milliseconds, below a nanosecond, of any size.
    static let numbers = [
        "113518922052419301", "9223372036854775807", "9223372036854775808", "18446744073709551615",
        "18446744073709551616", "99999999999999999999", "1e30", "1e400", "-1", "-0", "0", "1.5", "1e-9", "1e-10",
        "253402300799", "253402300800", "-62135596800", "-62135596801", "1767225600", "1767225600123",
        "1767225600.123456789", "1767225600.1234567891", "2.5e9", "1E3", "0.001", "-9223372036854775808",
        "253402300799999", "253402300800000", "-62135596800000", "9007199254740993", "1e18", "-1e30", "4e-400",
        "123456789012345678901234567890123456789012",
    ]

    /// Texts that are times or nearly: the ends of years 1 to 9999, past them,
    /// days that do not exist, leap seconds, no time zone, lenient forms.
    static let times = [
        "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59.999999999Z", "10000-01-01T00:00:00Z",
        "+275760-09-13T00:00:00Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "0001-01-01T00:00:00+01:00",
        "9999-12-31T23:59:59-01:00", "2026-02-29T00:00:00Z", "2024-02-29T12:00:00Z", "2026-11-24T10:00:00",
        "2026-11-24", "2026-11-24T10:00Z", "2026-11-24 10:00:00+0100", "2026-11-24T23:59:60Z", "2026-11-24T24:00:00Z",
        "2026-11-24T10:00:00.123456789Z", "2026-11-24T10:00:00,5Z", "2026-11-24t10:00:00z", "-0001-01-01T00:00:00Z",
        "2026-11-24T10:00:00.1234567891Z", "2026-11-24T10:00:00.123Z", "1969-12-31T23:59:59.999999999Z",
        "2026-11-24T10:00:00+14:00", "2026-13-01T00:00:00Z", "2026-11-24T10:00:00+24:00",
    ]

    /// Strings that are no time, or hold a number.
    static let strings = [
        "", "113518922052419301", "1e30", "-1", "abc", String(repeating: "x", count: 10_240), " 2026-11-24T10:00:00Z",
        "2026-11-24T10:00:00Z\u{0}", "\u{FEFF}1767225600", "١٧٦٧٢٢٥٦٠٠", "NaN", "Infinity", "0x10", "+1",
    ]

    /// A value of any kind: a hostile one, a small number, a token, or raw text.
    static func draw(_ input: inout FuzzInput) -> ServedValue {
        switch input.byte() & 7 {
        case 0: return .number(input.pick(numbers))
        case 1: return .string(input.pick(strings))
        case 2: return .string(input.pick(times))
        case 3, 4: return .number(String(input.int(in: 0...99)))
        case 5: return .string("tok-\(input.int(in: 0...999))")
        default: return ServedValue.from(input.anyText(upTo: 40))
        }
    }

    /// A value for a `since` field: mostly a time, built or hostile, as a string or a number.
    static func drawTime(_ input: inout FuzzInput) -> ServedValue {
        switch input.byte() & 15 {
        case 0, 1: return .string(input.pick(times))
        case 2: return .number(input.pick(numbers))
        case 3: return .string(input.pick(strings))
        case 4, 5: return ServedValue.from(input.anyText(upTo: 40))
        case 6, 7: return .number(String(1_767_225_600 + input.int(in: -100_000_000...100_000_000)))
        case 8: return .number(String(1_767_225_600_000 + Int64(input.int(in: -100_000_000...100_000_000))))
        case 9: return .number("1767225600." + digits(&input, upTo: 12))
        case 10: return .string(String(1_767_225_600 + input.int(in: 0...1_000_000)))
        case 11: return .number(digits(&input, upTo: 24, first: "1"))
        default: return .string(builtTime(&input))
        }
    }

    /// An ISO 8601 text built field by field, each field in or just past its range.
    static func builtTime(_ input: inout FuzzInput) -> String {
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let year = input.pick([2026, 2026, 2026, 1970, 2000, 1, 9999, 0, 10000, 1969, 2100, 2024, 1900])
        let month = input.int(in: 1...13)
        let day = input.int(in: 1...32)
        let hour = input.int(in: 0...24)
        let minute = input.int(in: 0...60)
        let second = input.int(in: 0...61)
        let fraction = digits(&input, upTo: 11)
        let zone = input.pick(["Z", "Z", "Z", "+01:00", "-05:30", "+0100", "+14:00", "", "z", "-23:59", "+00"])
        let separator = input.pick(["T", "T", "T", " ", "t"])
        var text = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))\(separator)\(padded(hour, 2)):"
        text += "\(padded(minute, 2)):\(padded(second, 2))"
        if !fraction.isEmpty { text += "." + fraction }
        return text + zone
    }

    /// Up to `count` digits (at least one after `first`, if given).
    static func digits(_ input: inout FuzzInput, upTo count: Int, first: String = "") -> String {
        let length = input.int(in: (first.isEmpty ? 0 : 1)...count)
        var text = first
        for _ in 0..<length { text += String(input.byte() % 10) }
        return text
    }

    /// A count: small, hostile, or raw.
    static func drawCount(_ input: inout FuzzInput) -> ServedValue {
        switch input.byte() & 7 {
        case 0: return .number(input.pick(numbers))
        case 1: return ServedValue.from(input.anyText(upTo: 24))
        case 2: return .string(String(input.int(in: 0...9)))
        default: return .number(String(input.int(in: 0...9)))
        }
    }

    /// A URL for a next page or a link to keep: on the upstream, relative, or none that can be followed.
    static func drawURL(_ input: inout FuzzInput, index: Int) -> String {
        switch input.byte() & 7 {
        case 0, 1, 2: return "\(base)/items?p=\(index + 1)"
        case 3: return "/items?p=\(index + 1)&t=\(input.int(in: 0...99))"
        case 4: return "items?p=\(index + 2)"
        case 5: return "\(base)/delta?token=\(input.int(in: 0...9999))"
        case 6: return input.pick(["ftp://example.test/", "", "http://[::1", "//other.test/x", "?p=9", "#frag"])
        default: return input.anyText(upTo: 40)
        }
    }
}

/// The values of the headers an answer carries.
enum HeaderValue {
    /// Waits and quotas past every bound, dates, and numbers that do not fit.
    static let literals = [
        "0", "1", "2.5", "1e20", "1e300", "-1", "18446744073709551616", "9223372036854775808", "9223372036854775807",
        "99999999999999999999", "3600", "86400", "4102444800", "4102444800000", "1767225600", "1767229200000",
        "Wed, 21 Oct 2015 07:28:00 GMT", "Fri, 31 Dec 9999 23:59:59 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "",
        "limit=40, remaining=0, reset=1e20", "39/40", "40/40", "W/\"abc\"", "\"etag-1\"", "gzip", "br", " 7 ",
        "<@BASE@/items?p=9>; rel=\"next\"", "</items?p=2>; rel=next", "1.0e3",
    ]

    /// A header value: a hostile one, a number, or raw printable text.
    static func draw(_ input: inout FuzzInput) -> String {
        switch input.byte() & 3 {
        case 0, 1: return input.pick(literals)
        case 2: return String(input.int(in: 0...5000))
        default:
            return String(
                input.anyText(upTo: 30).unicodeScalars.filter { $0.value >= 0x20 && $0.value < 0x7F }.map(
                    Character.init))
        }
    }
}
