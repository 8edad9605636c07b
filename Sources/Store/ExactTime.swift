import Foundation

/// An instant as an API wrote it, kept exactly: to the nanosecond, from the
/// start of year 1 to the end of year 9999, the years ISO 8601 writes with
/// four digits (docs/configuration.md#what-a-sync-keeps).
///
/// It cannot hold any other instant: every way of making one checks its range,
/// so a time read from an answer is either one of these or refused by name. A
/// `Date` holds seconds as a `Double`, which loses nanoseconds past 1970 and
/// whole seconds past a few million years, and whose conversions to integers
/// trap out of range; this type is what a kept value is instead.
public struct ExactTime: Sendable, Hashable, Comparable {
    /// Whole seconds since 1970-01-01T00:00:00Z, negative before it.
    public let seconds: Int64
    /// The fraction of the second, in nanoseconds: 0 to 999,999,999.
    public let nanoseconds: Int32

    /// 0001-01-01T00:00:00Z.
    public static let earliest = ExactTime(uncheckedSeconds: -62_135_596_800, nanoseconds: 0)
    /// 9999-12-31T23:59:59.999999999Z.
    public static let latest = ExactTime(uncheckedSeconds: 253_402_300_799, nanoseconds: 999_999_999)
    /// 1970-01-01T00:00:00Z.
    public static let epoch = ExactTime(uncheckedSeconds: 0, nanoseconds: 0)

    private init(uncheckedSeconds seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// The instant `seconds` and `nanoseconds` after the Unix epoch; `nil`
    /// outside years 1 to 9999 or for a fraction outside `0..<1_000_000_000`.
    public init?(seconds: Int64, nanoseconds: Int32 = 0) {
        guard (0..<1_000_000_000).contains(nanoseconds),
            (Self.earliest.seconds...Self.latest.seconds).contains(seconds)
        else { return nil }
        self.init(uncheckedSeconds: seconds, nanoseconds: nanoseconds)
    }

    /// The instant `nanoseconds` after the Unix epoch (before it when negative);
    /// `nil` outside years 1 to 9999.
    public init?(nanosecondsSinceEpoch nanoseconds: Int128) {
        let (seconds, fraction) = nanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
        let floored = fraction < 0 ? (seconds - 1, fraction + 1_000_000_000) : (seconds, fraction)
        guard let whole = Int64(exactly: floored.0), let nanos = Int32(exactly: floored.1) else { return nil }
        self.init(seconds: whole, nanoseconds: nanos)
    }

    /// `date` to the nearest microsecond, the finest a `Date` of these years
    /// holds; `nil` outside years 1 to 9999 (or for a date that is not finite).
    public init?(_ date: Date) {
        let micro = (date.timeIntervalSince1970 * 1_000_000).rounded()
        // 10^20 µs is some 3 million years: beyond it, no time of these years.
        guard micro.magnitude < 1e20, let micro = Int128(exactly: micro) else { return nil }
        self.init(nanosecondsSinceEpoch: micro * 1000)
    }

    /// The nanoseconds since the Unix epoch, negative before it.
    public var nanosecondsSinceEpoch: Int128 {
        Int128(seconds) * 1_000_000_000 + Int128(nanoseconds)
    }

    /// The instant as a `Date`, to the precision a `Date` holds (about a
    /// microsecond in these years).
    public var date: Date {
        Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1_000_000_000)
    }

    /// This instant moved by `duration` (back when negative); `nil` when that
    /// leaves years 1 to 9999.
    public func moved(by duration: Duration) -> ExactTime? {
        let (whole, attoseconds) = duration.components
        let nanos = Int128(whole) * 1_000_000_000 + Int128(attoseconds / 1_000_000_000)
        return ExactTime(nanosecondsSinceEpoch: nanosecondsSinceEpoch + nanos)
    }

    /// The time from `other` to this instant.
    public func duration(since other: ExactTime) -> Duration {
        .seconds(seconds - other.seconds) + .nanoseconds(Int64(nanoseconds) - Int64(other.nanoseconds))
    }

    /// Earlier instants first.
    public static func < (lhs: ExactTime, rhs: ExactTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}

extension ExactTime {
    /// The date and time of day in UTC.
    public struct Civil: Sendable, Hashable {
        /// The year, 1 to 9999.
        public var year: Int
        /// The month, 1 to 12.
        public var month: Int
        /// The day of the month, from 1.
        public var day: Int
        /// The hour, 0 to 23.
        public var hour: Int
        /// The minute, 0 to 59.
        public var minute: Int
        /// The second, 0 to 59.
        public var second: Int
    }

    /// The instant's date and time of day in UTC.
    public var civil: Civil {
        let (days, secondOfDay) = seconds.floorDividing(by: 86_400)
        let (year, month, day) = Self.civilDate(fromDays: days)
        return Civil(
            year: year, month: month, day: day, hour: Int(secondOfDay / 3600), minute: Int(secondOfDay % 3600 / 60),
            second: Int(secondOfDay % 60))
    }

    /// The instant of `civil` in UTC, plus `nanoseconds`; `nil` for a date that
    /// does not exist or lies outside years 1 to 9999. A second of 60 (a leap
    /// second) is the first second of the next minute, as POSIX counts.
    public init?(_ civil: Civil, nanoseconds: Int32 = 0, offsetSeconds: Int64 = 0) {
        guard (1...9999).contains(civil.year), (1...12).contains(civil.month),
            (1...Self.daysIn(month: civil.month, year: civil.year)).contains(civil.day),
            (0...23).contains(civil.hour), (0...59).contains(civil.minute), (0...60).contains(civil.second)
        else { return nil }
        let days = Self.days(year: civil.year, month: civil.month, day: civil.day)
        let seconds =
            days * 86_400 + Int64(civil.hour * 3600 + civil.minute * 60 + civil.second) - offsetSeconds
        self.init(seconds: seconds, nanoseconds: nanoseconds)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a date of the proleptic Gregorian calendar
    /// (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The date of a count of days since 1970-01-01 (`civil_from_days`).
    static func civilDate(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }
}

extension ExactTime {
    /// ISO 8601 in UTC, as the agent keeps and sends a time: `2026-11-24T10:00:00Z`,
    /// with a fraction only when there is one, of 3, 6 or 9 digits
    /// (`2026-11-24T10:00:00.120Z`, `….123456Z`, `….123456789Z`).
    public var iso8601: String {
        let fraction = Int(nanoseconds)
        if fraction == 0 { return text(fractionDigits: 0) }
        if fraction % 1_000_000 == 0 { return text(fractionDigits: 3) }
        return text(fractionDigits: fraction % 1000 == 0 ? 6 : 9)
    }

    /// ISO 8601 in UTC with a fraction of `fractionDigits` digits (0, 3, 6 or 9),
    /// truncated: what ``Timestamp`` writes with 3.
    func text(fractionDigits: Int) -> String {
        let civil = civil
        var fields: [(Int, Int, UInt8)] = [
            (civil.year, 4, UInt8(ascii: "-")), (civil.month, 2, UInt8(ascii: "-")), (civil.day, 2, UInt8(ascii: "T")),
            (civil.hour, 2, UInt8(ascii: ":")), (civil.minute, 2, UInt8(ascii: ":")),
        ]
        if fractionDigits > 0 {
            var fraction = Int(nanoseconds)
            for _ in fractionDigits..<9 { fraction /= 10 }
            fields += [(civil.second, 2, UInt8(ascii: ".")), (fraction, fractionDigits, UInt8(ascii: "Z"))]
        } else {
            fields.append((civil.second, 2, UInt8(ascii: "Z")))
        }
        // By hand: String(format:) costs more than the rest of a 304 poll's bookkeeping.
        return String(unsafeUninitializedCapacity: 30) { buffer in
            var index = 0
            for (value, width, separator) in fields {
                var rest = value
                for position in stride(from: index + width - 1, through: index, by: -1) {
                    buffer[position] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                buffer[index + width] = separator
                index += width + 1
            }
            return index
        }
    }

    /// What ``ExactTime/init(iso8601:)`` found wrong with a text.
    public enum ISO8601Problem: Error, Sendable, Hashable {
        /// The text is not an ISO 8601 date or date-time.
        case notATime
        /// It is one, with no time zone: which instant it means cannot be told.
        case noTimeZone
        /// It is one, of a year before 1 or after 9999 (`+275760-09-13T00:00:00Z`).
        case outOfRange
    }

    /// Reads an ISO 8601 date (`2026-11-24`, midnight UTC) or date-time with a
    /// time zone (RFC 3339: `2026-11-24T10:00:00Z`, `2026-11-24T11:00:00.123456+01:00`;
    /// `t`, `z` and a space for the `T` too; minutes without seconds; an offset
    /// as `+01:00`, `+0100` or `+01`). The fraction is kept to the nanosecond;
    /// finer digits are dropped, which never moves a time later. Years of more
    /// than four digits, or with a sign, are read to be refused as out of range.
    public static func parse(iso8601 text: some StringProtocol) -> Result<ExactTime, ISO8601Problem> {
        var reader = ISO8601Reader(Array(text.utf8))
        return reader.read()
    }

    /// The time of an ISO 8601 text, as ``parse(iso8601:)`` reads it; `nil` if it is none.
    public init?(iso8601 text: some StringProtocol) {
        guard case .success(let time) = Self.parse(iso8601: text) else { return nil }
        self = time
    }
}

/// Reads the ISO 8601 forms of ``ExactTime/parse(iso8601:)``, byte by byte.
private struct ISO8601Reader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    /// Exactly `count` digits.
    private mutating func digits(_ count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[index..<index + count] {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }

    private var atDigit: Bool { current.map { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } ?? false }

    mutating func read() -> Result<ExactTime, ExactTime.ISO8601Problem> {
        // An expanded year (`+275760`, `-0001`) or one of five digits or more is a
        // time, of a year this type does not hold.
        var expanded = false
        if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") {
            expanded = true
            index += 1
        }
        let yearStart = index
        while atDigit { index += 1 }
        let yearDigits = index - yearStart
        guard yearDigits >= 4 else { return .failure(.notATime) }
        index = yearStart
        var yearValue = 0
        if yearDigits == 4, let year = digits(4) {
            yearValue = year
        } else {
            index = yearStart + yearDigits
        }
        guard take(UInt8(ascii: "-")), let month = digits(2), take(UInt8(ascii: "-")), let day = digits(2) else {
            return .failure(.notATime)
        }
        var civil = ExactTime.Civil(year: yearValue, month: month, day: day, hour: 0, minute: 0, second: 0)
        var nanoseconds: Int32 = 0
        var offset: Int64 = 0
        if current != nil {
            guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(UInt8(ascii: " ")),
                let hour = digits(2), take(UInt8(ascii: ":")), let minute = digits(2)
            else { return .failure(.notATime) }
            civil.hour = hour
            civil.minute = minute
            if take(UInt8(ascii: ":")) {
                guard let second = digits(2) else { return .failure(.notATime) }
                civil.second = second
                if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                    guard atDigit else { return .failure(.notATime) }
                    var scale: Int32 = 100_000_000
                    while atDigit {
                        nanoseconds += Int32(bytes[index] - UInt8(ascii: "0")) * scale
                        scale /= 10
                        index += 1
                    }
                }
            }
            switch current {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign: Int64 = current == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = digits(2), hours <= 23 else { return .failure(.notATime) }
                var minutes = 0
                if take(UInt8(ascii: ":")) {
                    guard let value = digits(2) else { return .failure(.notATime) }
                    minutes = value
                } else if atDigit {
                    guard let value = digits(2) else { return .failure(.notATime) }
                    minutes = value
                }
                guard minutes <= 59 else { return .failure(.notATime) }
                offset = sign * Int64(hours * 3600 + minutes * 60)
            case nil:
                return .failure(.noTimeZone)
            default:
                return .failure(.notATime)
            }
        }
        guard current == nil else { return .failure(.notATime) }
        guard (1...12).contains(civil.month), (1...31).contains(civil.day), civil.hour <= 23, civil.minute <= 59,
            civil.second <= 60
        else { return .failure(.notATime) }
        if expanded || yearDigits != 4 || civil.year == 0 { return .failure(.outOfRange) }
        guard civil.day <= ExactTime.daysIn(month: civil.month, year: civil.year) else { return .failure(.notATime) }
        guard let time = ExactTime(civil, nanoseconds: nanoseconds, offsetSeconds: offset) else {
            // A valid date whose offset takes it past the range's ends.
            return .failure(.outOfRange)
        }
        return .success(time)
    }
}

extension Int64 {
    /// The quotient rounded toward negative infinity, and the remainder of that
    /// (`0..<divisor` for a positive divisor).
    func floorDividing(by divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        let (quotient, remainder) = quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }
}
