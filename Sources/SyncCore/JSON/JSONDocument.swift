/// A validated JSON text that is navigated in place: values are byte ranges
/// (``Span``) into its bytes, so reading a page of items copies nothing until an
/// item's text is asked for.
///
/// Thread-safety: a `Sendable` value.
package struct JSONDocument: Sendable {
    /// The UTF-8 bytes of the text.
    package let bytes: [UInt8]
    /// The root value.
    package let root: Span

    /// A value within the document.
    package struct Span: Sendable, Hashable {
        /// The value's bytes, from its first to its last character.
        package let range: Range<Int>
    }

    /// The kind of a JSON value.
    package enum Kind: String, Sendable {
        case object, array, string, number, boolean, null

        /// The kind as a phrase with its article: "an object", "a string", "null".
        package var phrase: String {
            switch self {
            case .object, .array: "an \(rawValue)"
            case .null: "null"
            default: "a \(rawValue)"
            }
        }
    }

    /// The deepest nesting of arrays and objects a document may have.
    package static let maximumDepth = JSONValidator.maximumDepth

    /// Validates `bytes` as one JSON text.
    package init(validating bytes: [UInt8]) throws(JSONSyntaxError) {
        self.bytes = bytes
        let range = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            try JSONValidator.validate(buffer)
        }
        self.root = Span(range: range)
    }

    /// The kind of the value at `span`.
    package func kind(of span: Span) -> Kind {
        switch bytes[span.range.lowerBound] {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .boolean
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    /// The value `pointer` refers to, starting from `span` (the root by default).
    package func span(at pointer: JSONPointer, in span: Span? = nil) -> Span? {
        var current = span ?? root
        for token in pointer.tokens {
            switch kind(of: current) {
            case .object:
                guard let member = member(named: token, in: current) else { return nil }
                current = member
            case .array:
                guard let index = JSONPointer.arrayIndex(token) else { return nil }
                var found: Span?
                var position = 0
                forEachElement(of: current) { element in
                    if position == index { found = element }
                    position += 1
                    return position <= index
                }
                guard let found else { return nil }
                current = found
            default:
                return nil
            }
        }
        return current
    }

    /// Calls `body` with each element of the array at `span`, in order, while it returns `true`.
    package func forEachElement(of span: Span, _ body: (Span) throws -> Bool) rethrows {
        try bytes.withUnsafeBufferPointer { buffer in
            var index = Self.skipWhitespace(buffer, from: span.range.lowerBound + 1)
            guard buffer[index] != UInt8(ascii: "]") else { return }
            while true {
                let end = Self.endOfValue(buffer, at: index)
                guard try body(Span(range: index..<end)) else { return }
                index = Self.skipWhitespace(buffer, from: end)
                guard buffer[index] == UInt8(ascii: ",") else { return }
                index = Self.skipWhitespace(buffer, from: index + 1)
            }
        }
    }

    /// Calls `body` with the name span and value span of each member of the object at `span`.
    func forEachMember(of span: Span, _ body: (_ name: Span, _ value: Span) throws -> Bool) rethrows {
        try bytes.withUnsafeBufferPointer { buffer in
            var index = Self.skipWhitespace(buffer, from: span.range.lowerBound + 1)
            guard buffer[index] != UInt8(ascii: "}") else { return }
            while true {
                let nameEnd = Self.endOfString(buffer, at: index)
                let name = Span(range: index..<nameEnd)
                let valueStart = Self.skipWhitespace(buffer, from: Self.skipWhitespace(buffer, from: nameEnd) + 1)
                let valueEnd = Self.endOfValue(buffer, at: valueStart)
                guard try body(name, Span(range: valueStart..<valueEnd)) else { return }
                index = Self.skipWhitespace(buffer, from: valueEnd)
                guard buffer[index] == UInt8(ascii: ",") else { return }
                index = Self.skipWhitespace(buffer, from: index + 1)
            }
        }
    }

    /// The value of the first member called `name` in the object at `span`.
    package func member(named name: String, in span: Span) -> Span? {
        var found: Span?
        var name = name
        name.withUTF8 { wanted in
            forEachMember(of: span) { nameSpan, value in
                if nameEquals(nameSpan, wanted) {
                    found = value
                    return false
                }
                return true
            }
        }
        return found
    }

    private func nameEquals(_ nameSpan: Span, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        let content = (nameSpan.range.lowerBound + 1)..<(nameSpan.range.upperBound - 1)
        let raw = bytes[content]
        if !raw.contains(UInt8(ascii: "\\")) {
            return raw.elementsEqual(wanted)
        }
        return Array(string(at: nameSpan)!.utf8).elementsEqual(wanted)
    }

    /// The members of the object at `span`, names decoded, in document order.
    package func members(of span: Span) -> [(name: String, value: Span)] {
        var result: [(name: String, value: Span)] = []
        forEachMember(of: span) { name, value in
            result.append((string(at: name)!, value))
            return true
        }
        return result
    }

    /// The decoded text of the string at `span`, or `nil` if it is not a string.
    /// A lone surrogate escape (`\ud800`) becomes U+FFFD.
    package func string(at span: Span) -> String? {
        decodedString(at: span)?.text
    }

    /// The decoded text of the string at `span`, or `nil` if it is not a string
    /// or holds a lone surrogate escape, which no Unicode text can represent.
    package func exactString(at span: Span) -> String? {
        guard let decoded = decodedString(at: span), decoded.exact else { return nil }
        return decoded.text
    }

    private func decodedString(at span: Span) -> (text: String, exact: Bool)? {
        guard kind(of: span) == .string else { return nil }
        let content = (span.range.lowerBound + 1)..<(span.range.upperBound - 1)
        guard bytes[content].contains(UInt8(ascii: "\\")) else {
            return (String(decoding: bytes[content], as: UTF8.self), true)
        }
        return Self.unescape(bytes[content])
    }

    /// The value's text exactly as in the document.
    package func text(of span: Span) -> String {
        String(decoding: bytes[span.range], as: UTF8.self)
    }

    /// The value's text without the whitespace between tokens.
    package func compactText(of span: Span) -> String {
        bytes.withUnsafeBufferPointer { buffer in
            String(unsafeUninitializedCapacity: span.range.count) { output in
                var count = 0
                var index = span.range.lowerBound
                while index < span.range.upperBound {
                    let byte = buffer[index]
                    switch byte {
                    case 0x20, 0x09, 0x0A, 0x0D:
                        index += 1
                    case UInt8(ascii: "\""):
                        let end = Self.endOfString(buffer, at: index)
                        for offset in index..<end {
                            output[count] = buffer[offset]
                            count += 1
                        }
                        index = end
                    default:
                        output[count] = byte
                        count += 1
                        index += 1
                    }
                }
                return count
            }
        }
    }

    // MARK: - Scanning validated bytes

    private static func skipWhitespace(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < buffer.count {
            switch buffer[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return index
            }
        }
        return index
    }

    private static func endOfString(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        var index = start + 1
        while true {
            switch buffer[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "\""): return index + 1
            default: index += 1
            }
        }
    }

    private static func endOfValue(_ buffer: UnsafeBufferPointer<UInt8>, at start: Int) -> Int {
        switch buffer[start] {
        case UInt8(ascii: "\""):
            return endOfString(buffer, at: start)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            var depth = 0
            var index = start
            while true {
                switch buffer[index] {
                case UInt8(ascii: "\""):
                    index = endOfString(buffer, at: index)
                    continue
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { return index + 1 }
                default:
                    break
                }
                index += 1
            }
        default:
            var index = start
            while index < buffer.count {
                switch buffer[index] {
                case UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]"), 0x20, 0x09, 0x0A, 0x0D: return index
                default: index += 1
                }
            }
            return index
        }
    }

    /// Decodes the escapes of a validated string's content; `exact` is false when
    /// a lone surrogate had to be replaced by U+FFFD.
    private static func unescape(_ content: ArraySlice<UInt8>) -> (text: String, exact: Bool) {
        var exact = true
        var output: [UInt8] = []
        output.reserveCapacity(content.count)
        var index = content.startIndex
        func hex4(_ at: Int) -> UInt32 {
            var value: UInt32 = 0
            for offset in 0..<4 { value = value << 4 | UInt32(JSONValidator.hexValue(content[at + offset])!) }
            return value
        }
        while index < content.endIndex {
            let byte = content[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let escape = content[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar), index + 6 <= content.endIndex,
                    content[index] == UInt8(ascii: "\\"), content[index + 1] == UInt8(ascii: "u")
                {
                    let low = hex4(index + 2)
                    if (0xDC00...0xDFFF).contains(low) {
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        index += 6
                    }
                }
                let character = Unicode.Scalar(scalar)
                if character == nil { exact = false }
                output.append(contentsOf: String(character ?? "\u{FFFD}").utf8)
            default: output.append(escape)
            }
        }
        return (String(decoding: output, as: UTF8.self), exact)
    }
}
