/// A JSON value as a tree, with objects in document order.
///
/// Used for the configuration and for the JSON the agent prints; pages of items
/// are read in place with ``JSONDocument`` instead.
package enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    /// A number, kept as its literal text so nothing is lost in conversion.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// An object's members in order; a name may repeat in parsed input.
    case object([Member])

    /// A member of an object.
    package struct Member: Sendable, Hashable {
        /// The member's name.
        package var name: String
        /// The member's value.
        package var value: JSONValue

        /// Creates a member.
        package init(_ name: String, _ value: JSONValue) {
            self.name = name
            self.value = value
        }
    }

    /// Parses one JSON text.
    package init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        let document = try JSONDocument(validating: bytes)
        self.init(document, document.root)
    }

    /// The value at `span` of a validated document.
    package init(_ document: JSONDocument, _ span: JSONDocument.Span) {
        switch document.kind(of: span) {
        case .null: self = .null
        case .boolean: self = .bool(document.bytes[span.range.lowerBound] == UInt8(ascii: "t"))
        case .number: self = .number(document.text(of: span))
        case .string: self = .string(document.string(at: span)!)
        case .array:
            var elements: [JSONValue] = []
            document.forEachElement(of: span) { element in
                elements.append(JSONValue(document, element))
                return true
            }
            self = .array(elements)
        case .object:
            self = .object(document.members(of: span).map { Member($0.name, JSONValue(document, $0.value)) })
        }
    }

    /// A number value.
    package static func number(_ value: Int) -> JSONValue { .number(String(value)) }

    /// A number value; non-finite numbers, which JSON cannot hold, become `null`.
    package static func number(_ value: Double) -> JSONValue {
        guard value.isFinite else { return .null }
        if value == value.rounded(), abs(value) < 1e15 { return .number(String(Int64(value))) }
        return .number(String(value))
    }

    /// The value of the first member called `name`, if this is an object that has one.
    package subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.name == name }?.value
    }

    /// The value `pointer` refers to within this value.
    package func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object: guard let next = current[token] else { return nil }; current = next
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default: return nil
            }
        }
        return current
    }

    /// The kind of this value, named as in messages ("an object", "a string", …).
    package var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// This value with `value` at `pointer`: members on the way are created
    /// (or replaced) as objects, an existing member is replaced in place, and
    /// an array element is set when its index exists. A name an object repeats
    /// is left once, the last (the one set): whichever a reader takes, it finds
    /// the value set (docs/configuration.md#one-value-per-parameter).
    package func setting(_ value: JSONValue, at pointer: JSONPointer) -> JSONValue {
        setting(value, at: pointer.tokens[...])
    }

    private func setting(_ value: JSONValue, at tokens: ArraySlice<String>) -> JSONValue {
        guard let token = tokens.first else { return value }
        let rest = tokens.dropFirst()
        switch self {
        case .array(var elements):
            if let index = Int(token), elements.indices.contains(index) {
                elements[index] = elements[index].setting(value, at: rest)
            }
            return .array(elements)
        case .object(var members):
            if let index = members.lastIndex(where: { $0.name == token }) {
                var kept = members[index]
                kept.value = kept.value.setting(value, at: rest)
                let earlier = members[..<index].filter { $0.name == token }.count
                members.removeAll { $0.name == token }
                members.insert(kept, at: index - earlier)
            } else {
                members.append(Member(token, JSONValue.object([]).setting(value, at: rest)))
            }
            return .object(members)
        default:
            return JSONValue.object([]).setting(value, at: tokens)
        }
    }

    /// The number as a `Double`, if this is a number.
    package var doubleValue: Double? {
        guard case .number(let text) = self else { return nil }
        return Double(text)
    }

    /// The text, if this is a string.
    package var stringValue: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The elements, if this is an array.
    package var arrayValue: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }

    /// The number as an `Int`, if this is a number with an integral value.
    package var intValue: Int? {
        guard case .number(let text) = self else { return nil }
        if let value = Int(text) { return value }
        guard let double = Double(text), double == double.rounded(), abs(double) < 9e15 else { return nil }
        return Int(double)
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    /// A string.
    package init(stringLiteral value: String) { self = .string(value) }
    /// A number.
    package init(integerLiteral value: Int) { self = .number(String(value)) }
    /// A boolean.
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array.
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object with the members in the order written.
    package init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements.map { Member($0.0, $0.1) })
    }
    /// `null`.
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    /// A string value, or `null` for `nil`.
    package static func string(_ value: String?) -> JSONValue { value.map { .string($0) } ?? .null }

    /// The value as JSON text: on one line, or indented by two spaces per
    /// level, from `indent` levels (a value written inside others).
    package func serialized(pretty: Bool = false, indent: Int = 0) -> String {
        var output = ""
        write(to: &output, pretty: pretty, indent: indent)
        return output
    }

    private func write(to output: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let text): output += text
        case .string(let text): Self.writeString(text, to: &output)
        case .array(let elements):
            guard !elements.isEmpty else {
                output += "[]"
                return
            }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, pretty: pretty, indent: indent + 1)
                element.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            Self.newline(&output, pretty: pretty, indent: indent)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else {
                output += "{}"
                return
            }
            output += "{"
            for (index, member) in members.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, pretty: pretty, indent: indent + 1)
                Self.writeString(member.name, to: &output)
                output += pretty ? ": " : ":"
                member.value.write(to: &output, pretty: pretty, indent: indent + 1)
            }
            Self.newline(&output, pretty: pretty, indent: indent)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, pretty: Bool, indent: Int) {
        guard pretty else { return }
        output += "\n"
        output += String(repeating: "  ", count: indent)
    }

    private static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            case "\u{00}"..."\u{1F}":
                let hex = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: output.unicodeScalars.append(scalar)
            }
        }
        output += "\""
    }
}
