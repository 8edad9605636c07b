/// The texts that fingerprints of requests are made of (docs/schema.md#fingerprints),
/// written by hand.
///
/// Release 0.1.0 made them by reflection (`"\(pagination)"`), so they read as
/// Swift prints values: `Pagination(style: SyncCore.Pagination.Style.page(param:
/// "page", …), …)`. These functions write exactly those texts for every value
/// that exists, so that an upgrade keeps every stored validator and cursor, but
/// no longer ask the runtime: renaming a case, adding a member or a new Swift
/// release changes nothing here. Every `switch` is exhaustive: a new style,
/// source or JSON kind needs a text of its own, which no existing text may
/// take (docs/schema.md#fingerprints says how to add one).
enum FingerprintText {
    /// How the pages are asked for: the style, where its parameters go,
    /// `hasMore` and `stopWhen`; not `total` or `cap`, which check a walk
    /// rather than change what it asks.
    static func pagination(_ pagination: Pagination) -> String {
        "Pagination(style: \(style(pagination.style)), placement: \(placement(pagination.placement)), "
            + "hasMore: \(optional(pagination.hasMore, pointer)), stopWhen: \(optional(pagination.stopWhen, match)))"
    }

    /// What a kept token or link adds to a fingerprint: where it came from.
    /// `nil` for a kept time, which belongs to any request of the resource.
    static func kept(_ source: IncrementalSettings.Source) -> String? {
        switch source {
        case .field, .body: nil
        case .token(let at): "token(\(pointer(at)))"
        case .link(let at): "link(\(pointer(at)))"
        }
    }

    private static func style(_ style: Pagination.Style) -> String {
        let type = "SyncCore.Pagination.Style."
        switch style {
        case .none:
            return type + "none"
        case .page(let param, let sizeParam, let size, let start):
            return type
                + "page(param: \(quoted(param)), sizeParam: \(quoted(sizeParam)), size: \(size), start: \(start))"
        case .offset(let param, let limitParam, let limit):
            return type + "offset(param: \(quoted(param)), limitParam: \(quoted(limitParam)), limit: \(limit))"
        case .cursor(let from, let param):
            return type + "cursor(from: \(cursorSource(from)), param: \(quoted(param)))"
        case .link:
            return type + "link"
        case .nextURL(let next):
            return type + "nextURL(next: \(pointer(next)))"
        }
    }

    private static func cursorSource(_ source: Pagination.CursorSource) -> String {
        switch source {
        case .body(let at): "SyncCore.Pagination.CursorSource.body(\(pointer(at)))"
        case .lastItem(let at): "SyncCore.Pagination.CursorSource.lastItem(\(pointer(at)))"
        }
    }

    private static func placement(_ placement: Pagination.Placement) -> String {
        switch placement {
        case .query: "SyncCore.Pagination.Placement.query"
        case .body: "SyncCore.Pagination.Placement.body"
        }
    }

    private static func match(_ match: ResponseMatch) -> String {
        "SyncCore.ResponseMatch(status: \(optional(match.status) { String($0) }), "
            + "bodyContains: \(optional(match.bodyContains, quoted)), pointer: \(optional(match.pointer, pointer)), "
            + "equals: \(optional(match.equals, json)))"
    }

    private static func json(_ value: JSONValue) -> String {
        let type = "SyncCore.JSONValue."
        switch value {
        case .null:
            return type + "null"
        case .bool(let flag):
            return type + (flag ? "bool(true)" : "bool(false)")
        case .number(let literal):
            return type + "number(\(quoted(literal)))"
        case .string(let text):
            return type + "string(\(quoted(text)))"
        case .array(let elements):
            return type + "array([\(elements.map(json).joined(separator: ", "))])"
        case .object(let members):
            let texts = members.map { "SyncCore.JSONValue.Member(name: \(quoted($0.name)), value: \(json($0.value)))" }
            return type + "object([\(texts.joined(separator: ", "))])"
        }
    }

    /// A pointer as it was written in the configuration.
    private static func pointer(_ pointer: JSONPointer) -> String {
        pointer.description
    }

    private static func optional<Wrapped>(_ value: Wrapped?, _ text: (Wrapped) -> String) -> String {
        value.map { "Optional(\(text($0)))" } ?? "nil"
    }

    /// `text` as a Swift string literal, in double quotes: `\\`, `\'`, `\"`,
    /// `\0`, `\t`, `\n`, `\r`, `\u{1F}` for the other ASCII controls, anything
    /// else as it is, except a scalar that would join the character before it
    /// (a combining mark after the opening quote or an escape, `\u{0301}`) or
    /// the closing quote (a prepended mark at the end, `\u{0600}`).
    static func quoted(_ text: String) -> String {
        var result = "\""
        var afterEscape = true
        for scalar in text.unicodeScalars {
            if let escape = escape(scalar) {
                result += escape
                afterEscape = true
            } else if afterEscape && extendsASCII(scalar) {
                result += hex(scalar)
                afterEscape = true
            } else {
                result.unicodeScalars.append(scalar)
                afterEscape = false
            }
        }
        // The closing quote must be a character of its own: escape what it would join.
        var suffix = Array("\"".unicodeScalars)
        while !result.isEmpty {
            result.unicodeScalars.append(suffix[0])
            let character = result.index(before: result.endIndex)
            let scalar = result.unicodeScalars.index(before: result.endIndex)
            if character >= scalar {
                result.unicodeScalars.append(contentsOf: suffix.dropFirst())
                break
            }
            result.unicodeScalars.removeLast()
            let last = result.unicodeScalars.removeLast()
            suffix.insert(contentsOf: asciiEscape(last).unicodeScalars, at: 0)
        }
        return result
    }

    /// The escape of a scalar that is always escaped; `nil` for the others.
    private static func escape(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x5C: return #"\\"#
        case 0x27: return #"\'"#
        case 0x22: return #"\""#
        case 0x20...0x7E: return nil
        case 0x00: return #"\0"#
        case 0x0A: return #"\n"#
        case 0x0D: return #"\r"#
        case 0x09: return #"\t"#
        case 0x01...0x7F: return #"\u{"# + digits(scalar.value, count: 2) + "}"
        default: return nil
        }
    }

    /// `scalar` as a literal of ASCII only writes it.
    private static func asciiEscape(_ scalar: Unicode.Scalar) -> String {
        if let escape = escape(scalar) { return escape }
        return scalar.isASCII ? String(scalar) : hex(scalar)
    }

    /// `\u{…}` with four hexadecimal digits, or eight beyond U+FFFF.
    private static func hex(_ scalar: Unicode.Scalar) -> String {
        #"\u{"# + digits(scalar.value, count: scalar.value > 0xFFFF ? 8 : 4) + "}"
    }

    private static func digits(_ value: UInt32, count: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, count - text.count)) + text
    }

    /// Whether `scalar` after an ASCII character would be part of it (a
    /// combining mark, a joiner, a spacing mark): Unicode's grapheme breaks.
    private static func extendsASCII(_ scalar: Unicode.Scalar) -> Bool {
        var text = "x"
        text.unicodeScalars.append(scalar)
        return text.count == 1
    }
}
