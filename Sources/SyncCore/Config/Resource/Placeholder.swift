import Foundation
import Store

/// How a `{since:…}` placeholder writes a time (docs/configuration.md#placeholders).
package enum TimeFormat: Sendable, Hashable {
    /// `iso8601`, `unixSeconds` or `unixMilliseconds`.
    case named(IncrementalSettings.Format)
    /// A date pattern (Unicode TR 35, `yyyy-MM-dd HH:mm`), written in `since.timeZone`.
    case pattern(String)

    /// The format `text` names: one of the named formats, else a pattern with
    /// at least one field letter; `nil` for anything else.
    init?(_ text: String) {
        if let named = IncrementalSettings.Format(rawValue: text) {
            self = .named(named)
        } else if Self.isPattern(text) {
            self = .pattern(text)
        } else {
            return nil
        }
    }

    /// Whether `text` is a date pattern: outside its quoted parts, each letter
    /// is a field letter of Unicode TR 35, and one at least is of a date or time.
    private static func isPattern(_ text: String) -> Bool {
        var quoted = false
        var fields = false
        for character in text {
            if character == "'" {
                quoted.toggle()
            } else if !quoted, character.isASCII, character.isLetter {
                guard "GyYuUrQqMLlwWdDFgEecabBhHKkjJCmsSAzZOvVXx".contains(character) else { return false }
                if "yMdHhms".contains(character) { fields = true }
            }
        }
        return fields && !quoted
    }

    /// `time` in this format, a pattern's in `timeZone`, in the proleptic Gregorian
    /// calendar of ISO 8601 and the kept times, and never later than `time`: a field
    /// the pattern leaves out is dropped, not rounded (docs/configuration.md#placeholders).
    func text(_ time: ExactTime, timeZone: TimeZone) -> String {
        switch self {
        case .named(let format): return format.text(time)
        case .pattern(let pattern):
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.calendar = Calendar(identifier: .gregorian)
            // ICU's calendar is Julian before 1582; the kept times are not.
            formatter.gregorianStartDate = .distantPast
            formatter.timeZone = timeZone
            formatter.dateFormat = Self.fractionWritten(pattern, nanoseconds: time.nanoseconds)
            // Whole seconds are exact in a `Date` of any year 1 to 9999; a fraction
            // would round, and 23:59:59.9999999 could become the next day.
            return formatter.string(from: Date(timeIntervalSince1970: Double(time.seconds)))
        }
    }

    /// `pattern` with each run of `S` outside its quoted parts replaced by that
    /// many digits of the fraction, cut off (digits are text in a pattern).
    static func fractionWritten(_ pattern: String, nanoseconds: Int32) -> String {
        let digits = Array(String(nanoseconds).leftPadded(to: 9))
        var result = ""
        var quoted = false
        var run = 0
        func endRun() {
            guard run > 0 else { return }
            result += String((0..<run).map { $0 < digits.count ? digits[$0] : "0" })
            run = 0
        }
        for character in pattern {
            if !quoted, character == "S" {
                run += 1
                continue
            }
            endRun()
            if character == "'" { quoted.toggle() }
            result.append(character)
        }
        endRun()
        return result
    }
}

extension String {
    /// The text with zeros before it, to `width` characters.
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// A text of a request (a query value, a header value, a string of the body,
/// a URL) with the placeholders of docs/configuration.md#placeholders: `{since}`
/// and `{since:FORMAT}`, the value an incremental sync sends, and `{{`, a
/// literal `{`. Other braces are text. The language substitutes values; it
/// evaluates nothing.
package struct TextTemplate: Sendable, Hashable {
    /// A part of the text.
    package enum Part: Sendable, Hashable {
        /// Text sent as is.
        case text(String)
        /// The value sent, in the format given (else the resource's `since.format`).
        case since(TimeFormat?)
    }

    /// Why a text cannot be read.
    package struct Problem: Error, Equatable {
        package var message: String
    }

    package var parts: [Part]

    /// Whether the text holds a `{since}` placeholder.
    package var hasSince: Bool {
        parts.contains { if case .since = $0 { true } else { false } }
    }

    /// Whether the text is exactly one placeholder, with the format given.
    package var onlySince: TimeFormat?? {
        guard parts.count == 1, case .since(let format) = parts[0] else { return nil }
        return .some(format)
    }

    /// Whether `raw` says anything to the placeholders: a `{since}`, or a `{{`
    /// that stands for a brace.
    package static func isTemplate(_ raw: String) -> Bool {
        guard raw.contains("{"), let template = try? parse(raw) else { return false }
        return template.hasSince || template.render(nil) != raw
    }

    /// The formats the placeholders give.
    package var formats: [TimeFormat] {
        parts.compactMap { if case .since(let format?) = $0 { format } else { nil } }
    }

    /// Reads `text`: `{{` is a `{`; a `{` followed by a name and `}` or `:` is a
    /// placeholder, and `since` is the one name known; other braces are text.
    package static func parse(_ text: String) throws(Problem) -> TextTemplate {
        guard text.contains("{") else { return TextTemplate(parts: [.text(text)]) }
        var parts: [Part] = []
        var literal = ""
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            literal += rest[..<open]
            let after = rest[rest.index(after: open)...]
            // `${…}` belongs to substitution (docs/configuration.md#substitution-and-secrets).
            if literal.last == "$", let close = after.firstIndex(of: "}") {
                literal += "{" + after[...close]
                rest = after[after.index(after: close)...]
                continue
            }
            if after.first == "{" {
                literal += "{"
                rest = after.dropFirst()
                continue
            }
            let name = after.prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") }
            let next = after.dropFirst(name.count).first
            guard let first = name.first, first.isLetter, next == "}" || next == ":" else {
                literal += "{"
                rest = after
                continue
            }
            guard let close = after.firstIndex(of: "}") else {
                throw Problem(
                    message: "the placeholder {\(name)… is never closed with \"}\" (write {{ for a literal {)")
            }
            let inside = after[..<close]
            guard name == "since" else {
                throw Problem(
                    message: "unknown placeholder {\(inside)}: the placeholders are {since} and {since:FORMAT} "
                        + "(write {{ for a literal {)")
            }
            var format: TimeFormat?
            if next == ":" {
                let text = String(inside.dropFirst(name.count + 1))
                guard let parsed = TimeFormat(text) else {
                    throw Problem(
                        message: "{\(inside)}: the format must be iso8601, unixSeconds, unixMilliseconds or a date "
                            + "pattern such as yyyy-MM-dd HH:mm")
                }
                format = parsed
            }
            if !literal.isEmpty { parts.append(.text(literal)) }
            literal = ""
            parts.append(.since(format))
            rest = after[after.index(after: close)...]
        }
        literal += rest
        if !literal.isEmpty || parts.isEmpty { parts.append(.text(literal)) }
        return TextTemplate(parts: parts)
    }

    /// The text with each placeholder replaced by `value`'s text in its format,
    /// passed through `encode` (percent-encoding in a URL); without a value,
    /// by nothing.
    package func render(_ value: SentValue?, encode: (String) -> String = { $0 }) -> String {
        var result = ""
        for part in parts {
            switch part {
            case .text(let text): result += text
            case .since(let format): result += value.map { encode($0.text(format)) } ?? ""
            }
        }
        return result
    }

    /// Fills `text` (a text without a placeholder comes back as it is, `{{` undone).
    package static func fill(_ text: String, with value: SentValue?, encode: (String) -> String = { $0 }) -> String {
        guard text.contains("{"), let template = try? parse(text) else { return text }
        return template.render(value, encode: encode)
    }
}

/// The value one incremental sync sends, as its placeholders write it.
package struct SentValue: Sendable, Hashable {
    package var state: SinceState
    /// `since.format`, for `{since}` with a time.
    package var format: IncrementalSettings.Format
    /// Where a date pattern writes its time.
    package var timeZone: TimeZone

    /// The value in `format` (a token as it is).
    package func text(_ format: TimeFormat? = nil) -> String {
        switch state {
        case .token(let token): return token
        case .time(let time): return (format ?? .named(self.format)).text(time, timeZone: timeZone)
        }
    }

    /// The value as a JSON value: a number for a Unix time, else a string.
    package func json(_ format: TimeFormat? = nil) -> JSONValue {
        guard case .time = state else { return .string(text(format)) }
        switch format ?? .named(self.format) {
        case .named(.unixSeconds), .named(.unixMilliseconds): return .number(text(format))
        default: return .string(text(format))
        }
    }
}
