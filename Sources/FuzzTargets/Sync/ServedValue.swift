/// A value the `sync` target's upstream puts in an answer (an item's field, a
/// cursor, a total, a token), as JSON: a number as its exact text, or a string.
///
/// The target reads these values itself, by the rules docs/configuration.md
/// states, never through the agent's parsers: ``time(unit:)`` is the instant a
/// value names, ``count`` the count of items it states.
enum ServedValue: Hashable, Sendable, CustomStringConvertible {
    /// A JSON number, as its text (always of JSON's grammar).
    case number(String)
    /// A JSON string, as its content.
    case string(String)

    /// The value as JSON text.
    var json: String {
        switch self {
        case .number(let text): text
        case .string(let text): Self.quoted(text)
        }
    }

    var description: String { json }

    /// The value's text, without quotes.
    var text: String {
        switch self {
        case .number(let text), .string(let text): text
        }
    }

    /// What a message that names the value must hold: the start of the value as JSON
    /// writes it (quotes and escapes, `\u0000` for a NUL), its first 12 Unicode scalars.
    /// A message shows a value as JSON text cut to 40 characters, so a string of control
    /// characters may show none of its letters (docs/configuration.md#what-a-sync-keeps).
    var namedPrefix: String {
        String(String.UnicodeScalarView(json.unicodeScalars.prefix(12)))
    }

    /// Whether `message` holds ``namedPrefix``, byte for byte (not by characters: a
    /// combining mark after the quote would join it), or, for a header the agent shows
    /// as it came (`its Content-Length is 00123…`), the start of its text unquoted.
    func isNamed(in message: String) -> Bool {
        let bytes = Array(message.utf8)
        if bytes.firstRange(of: Array(namedPrefix.utf8)) != nil { return true }
        // A count may be shown without its leading zeros (`the API stated 10379044 items`).
        let digits = text.allSatisfy { $0.isASCII && $0.isNumber } ? String(text.drop { $0 == "0" }) : text
        let start = String(String.UnicodeScalarView(digits.unicodeScalars.prefix(12)))
        // Only a start with a letter or digit tells: any message holds a space.
        guard
            start.unicodeScalars.contains(where: {
                $0.isASCII && $0.properties.isAlphabetic || ("0"..."9").contains($0)
            })
        else { return false }
        return bytes.firstRange(of: Array(start.utf8)) != nil
    }

    /// `text` as a JSON string, every character that needs it escaped.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A value from `text`: a number when it is one in JSON's grammar, else a string.
    static func from(_ text: String) -> ServedValue {
        Decimal(text) != nil ? .number(text) : .string(text)
    }
}

/// A time as the target reads it from a served value.
enum ServedTime: Hashable, Sendable {
    /// The instant, in nanoseconds since 1970 (finer digits dropped, toward
    /// the past), within years 1 to 9999: a sync keeps exactly this, or refuses it.
    case instant(Int128)
    /// A time outside years 1 to 9999, or a number that is none: it must be refused.
    case outOfRange
    /// Not a time at all: it must be refused.
    case notATime

    var instant: Int128? {
        if case .instant(let value) = self { value } else { nil }
    }
}

/// The instants of years 1 to 9999, in nanoseconds since 1970.
enum KeptRange {
    /// 0001-01-01T00:00:00Z.
    static let earliest: Int128 = -62_135_596_800 * 1_000_000_000
    /// 9999-12-31T23:59:59.999999999Z.
    static let latest: Int128 = 253_402_300_800 * 1_000_000_000 - 1

    static func checked(_ nanoseconds: Int128) -> ServedTime {
        (earliest...latest).contains(nanoseconds) ? .instant(nanoseconds) : .outOfRange
    }
}

extension ServedValue {
    /// The time this value names for a `since` of `format`
    /// (docs/configuration.md#incremental-resources): an ISO 8601 string, else a
    /// number (or a string holding one) of seconds, of milliseconds with `unixMilliseconds`.
    func time(millisecondUnits: Bool) -> ServedTime {
        switch self {
        case .number(let text):
            return Decimal(text)?.time(millisecondUnits: millisecondUnits) ?? .notATime
        case .string(let text):
            if let time = ISO8601Text.read(text) { return time }
            return Decimal(text)?.time(millisecondUnits: millisecondUnits) ?? .notATime
        }
    }

    /// The count of items a total states: a whole number of zero or more, of
    /// any size (as its digits); `nil` for any other value.
    var count: String? {
        guard case .number(let text) = self, let decimal = Decimal(text), !decimal.negative || decimal.isZero,
            decimal.exponent >= 0
        else { return nil }
        if decimal.isZero { return "0" }
        return decimal.digits + String(repeating: "0", count: decimal.exponent)
    }
}

/// A number of JSON's grammar, read exactly: its sign, significant digits and
/// power of ten.
struct Decimal: Hashable {
    var negative: Bool
    /// The significant digits, without leading or trailing zeros ("" for zero).
    var digits: String
    /// The power of ten the digits are multiplied by (bounded: far beyond any time).
    var exponent: Int

    var isZero: Bool { digits.isEmpty }

    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func digit(_ at: Int) -> Bool { at < bytes.count && (48...57).contains(bytes[at]) }
        negative = index < bytes.count && bytes[index] == 45
        if negative { index += 1 }
        guard digit(index) else { return nil }
        var all = ""
        var fraction = 0
        if bytes[index] == 48 {
            index += 1
            if digit(index) { return nil }
        } else {
            while digit(index) {
                all.append(Character(Unicode.Scalar(bytes[index])))
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == 46 {
            index += 1
            guard digit(index) else { return nil }
            while digit(index) {
                all.append(Character(Unicode.Scalar(bytes[index])))
                fraction += 1
                index += 1
            }
        }
        var power = 0
        if index < bytes.count, bytes[index] == 101 || bytes[index] == 69 {
            index += 1
            var minus = false
            if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
                minus = bytes[index] == 45
                index += 1
            }
            guard digit(index) else { return nil }
            while digit(index) {
                power = min(power * 10 + Int(bytes[index] - 48), 100_000)
                index += 1
            }
            if minus { power = -power }
        }
        guard index == bytes.count else { return nil }
        let trimmedLeading = all.drop { $0 == "0" }
        var significant = String(trimmedLeading)
        var trailing = 0
        while significant.last == "0" {
            significant.removeLast()
            trailing += 1
        }
        digits = significant
        exponent = significant.isEmpty ? 0 : power - fraction + trailing
    }

    /// The value times 10^`power`, rounded toward negative infinity, if its
    /// size is at most about 10^30 (else `nil`: beyond every kept time).
    func scaled(by power: Int) -> Int128? {
        if isZero { return 0 }
        let shift = exponent + power
        // The number of digits before the point.
        guard digits.count + shift <= 30 else { return nil }
        if digits.count + shift <= 0 { return negative ? -1 : 0 }
        var value: Int128 = 0
        let kept = shift >= 0 ? digits.count : digits.count + shift
        for character in digits.prefix(kept) { value = value * 10 + Int128(character.wholeNumberValue!) }
        if shift > 0 { for _ in 0..<shift { value *= 10 } }
        let dropped = kept < digits.count
        return negative ? -value - (dropped ? 1 : 0) : value
    }

    /// The instant this number of seconds (of milliseconds) since 1970 is.
    func time(millisecondUnits: Bool) -> ServedTime {
        guard let nanoseconds = scaled(by: millisecondUnits ? 6 : 9) else { return .outOfRange }
        return KeptRange.checked(nanoseconds)
    }
}

/// The ISO 8601 texts a time may be written as (docs/configuration.md#incremental-resources):
/// a date (its midnight in UTC), or a date and a time of day with `T` (or `t`
/// or a space), minutes, optionally seconds and a fraction (`.` or `,`), and a
/// zone (`Z`, `z`, `±HH:MM`, `±HHMM`, `±HH`; none is read as UTC). A second of
/// 60 is the first second of the next minute, and 24:00:00 the next day's midnight.
enum ISO8601Text {
    /// The time `text` names; `nil` when it is no ISO 8601 text (it may still
    /// be a number); ``ServedTime/outOfRange`` for one of another year than 1 to
    /// 9999, or with a sign or more than four digits in its year.
    static func read(_ text: String) -> ServedTime? {
        let bytes = Array(text.utf8)
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && (48...57).contains(bytes[at]) }
        func number(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for position in index..<index + count {
                guard isDigit(position) else { return nil }
                value = value * 10 + Int(bytes[position] - 48)
            }
            index += count
            return value
        }
        func take(_ options: String) -> Bool {
            guard index < bytes.count, options.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        let signed = take("+-")
        var yearDigits = 0
        while isDigit(index + yearDigits) { yearDigits += 1 }
        guard yearDigits >= 4 else { return nil }
        let yearText = String(decoding: bytes[index..<index + yearDigits], as: UTF8.self)
        index += yearDigits
        guard take("-"), let month = number(2), take("-"), let day = number(2) else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var nanoseconds: Int128 = 0
        var offset: Int128 = 0
        if index < bytes.count {
            guard take("Tt "), let h = number(2), take(":"), let m = number(2) else { return nil }
            (hour, minute) = (h, m)
            if take(":") {
                guard let s = number(2) else { return nil }
                second = s
                if take(".,") {
                    guard isDigit(index) else { return nil }
                    var scale: Int128 = 100_000_000
                    while isDigit(index) {
                        nanoseconds += Int128(bytes[index] - 48) * scale
                        scale /= 10
                        index += 1
                    }
                }
            }
            if take("Zz") {
            } else if index < bytes.count, bytes[index] == 43 || bytes[index] == 45 {
                let sign: Int128 = bytes[index] == 45 ? -1 : 1
                index += 1
                guard let hours = number(2), hours <= 23 else { return nil }
                var minutes = 0
                if take(":") {
                    guard let value = number(2) else { return nil }
                    minutes = value
                } else if isDigit(index) {
                    guard let value = number(2) else { return nil }
                    minutes = value
                }
                guard minutes <= 59 else { return nil }
                offset = sign * Int128(hours * 3600 + minutes * 60)
            }
        }
        // 24:00:00 is the end of the day: the next day's midnight.
        let endOfDay = hour == 24 && minute == 0 && second == 0 && nanoseconds == 0
        guard index == bytes.count, (1...12).contains(month), (1...31).contains(day), hour <= 23 || endOfDay,
            minute <= 59, second <= 60
        else { return nil }
        guard !signed, yearDigits == 4, let year = Int(yearText), year >= 1 else { return .outOfRange }
        guard day <= daysIn(month: month, year: year) else { return nil }
        let seconds =
            Int128(days(year: year, month: month, day: day)) * 86_400
            + Int128(hour * 3600 + minute * 60 + second) - offset
        return KeptRange.checked(seconds * 1_000_000_000 + nanoseconds)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar, counted one by one in years.
    static func days(year: Int, month: Int, day: Int) -> Int {
        func leapDays(before year: Int) -> Int {
            let y = year - 1
            return y / 4 - y / 100 + y / 400
        }
        let yearDays = (year - 1970) * 365 + leapDays(before: year) - leapDays(before: 1970)
        var monthDays = 0
        for earlier in 1..<month { monthDays += daysIn(month: earlier, year: year) }
        return yearDays + monthDays + day - 1
    }

    /// `nanoseconds` since 1970 as `YYYY-MM-DDTHH:MM:SS.fffffffffZ` (in the years 1 to 9999), for messages.
    static func text(_ nanoseconds: Int128) -> String {
        var seconds = nanoseconds / 1_000_000_000
        var fraction = nanoseconds % 1_000_000_000
        if fraction < 0 {
            fraction += 1_000_000_000
            seconds -= 1
        }
        var days = Int(seconds / 86_400)
        var rest = Int(seconds % 86_400)
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        var year = 1970
        while days < 0 {
            year -= 1
            days += daysIn(year)
        }
        while days >= daysIn(year) {
            days -= daysIn(year)
            year += 1
        }
        var month = 1
        while days >= daysIn(month: month, year: year) {
            days -= daysIn(month: month, year: year)
            month += 1
        }
        func padded(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(days + 1, 2))T\(padded(rest / 3600, 2)):"
            + "\(padded(rest % 3600 / 60, 2)):\(padded(rest % 60, 2)).\(padded(Int(fraction), 9))Z"
    }

    private static func daysIn(_ year: Int) -> Int {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 366 : 365
    }
}
