import SyncCore

extension FuzzTarget {
    /// The JSON scanner that pages go through (`JSONDocument`, `JSONValue`) against
    /// CPython's json (``JSONReference``).
    ///
    /// The choices RFC 8259 leaves open, as the scanner makes them (docs/testing.md#fuzzing):
    /// - a name that repeats in an object: every member is kept in order, and a lookup
    ///   by name (`member(named:)`, a JSON pointer) finds the first;
    /// - numbers of any size or precision: accepted and kept as their text;
    /// - a lone surrogate escape (`"\ud800"`): accepted, read as U+FFFD, and not an
    ///   exact string (`exactString(at:)` is `nil`);
    /// - nesting: at most 512 arrays and objects deep; deeper is rejected.
    static let json = FuzzTarget(
        name: "json",
        property: "the scanner accepts exactly what CPython's json accepts, with the same value; "
            + "compact text and serialization read back the same; lookups find the first of repeated names"
    ) { input throws(PropertyViolation) in
        let reference = try JSONReference.shared.verdict(input)
        let document: JSONDocument
        do throws(JSONSyntaxError) {
            document = try JSONDocument(validating: input)
        } catch {
            switch reference {
            case .value(let tokens):
                let depth = nesting(input)
                try require(
                    depth > JSONDocument.maximumDepth && error.reason.contains("nesting deeper"),
                    "the scanner rejects what the reference accepts (\(error)): \(shown(input)) -> \(tokens.prefix(200))"
                )
            case .rejected, .tooDeep:
                break
            }
            return
        }
        let value = JSONValue(document, document.root)
        switch reference {
        case .rejected(let reason):
            throw PropertyViolation("the scanner accepts what the reference rejects (\(reason)): \(shown(input))")
        case .tooDeep:
            // Python's recursion limit is deeper than the scanner's 512 levels: it only
            // gives up on what the scanner must have rejected.
            throw PropertyViolation("the scanner accepts \(nesting(input)) levels of nesting: \(shown(input))")
        case .value(let tokens):
            var ours: [String] = []
            try canonical(document, document.root, into: &ours)
            let mine = ours.joined(separator: " ")
            try require(
                mine == tokens, "the values differ for \(shown(input)):\n  scanner   \(mine)\n  reference \(tokens)")
        }
        let compact = Array(document.compactText(of: document.root).utf8)
        let reread = try? JSONValue(parsing: compact)
        try require(reread == value, "its compact text reads back differently: \(shown(input)) -> \(shown(compact))")
        let serialized = Array(value.serialized().utf8)
        let again = try? JSONValue(parsing: serialized)
        try require(again == value, "its serialization reads back differently: \(shown(input)) -> \(shown(serialized))")
        try checkLookups(document, document.root, path: [])
    }

    /// The scanner's value as the reference's tokens (see `fuzz/json-reference.py`).
    private static func canonical(
        _ document: JSONDocument, _ span: JSONDocument.Span, into out: inout [String]
    ) throws(PropertyViolation) {
        switch document.kind(of: span) {
        case .null: out.append("n")
        case .boolean: out.append(document.bytes[span.range.lowerBound] == UInt8(ascii: "t") ? "t" : "f")
        case .number: out.append("#" + document.text(of: span))
        case .string:
            let text = document.string(at: span)!
            let exact = document.exactString(at: span) != nil
            out.append((exact ? "s" : "s!") + hex(text))
        case .array:
            out.append("[")
            var failure: PropertyViolation?
            document.forEachElement(of: span) { element in
                do throws(PropertyViolation) {
                    try canonical(document, element, into: &out)
                } catch {
                    failure = error
                }
                return failure == nil
            }
            if let failure { throw failure }
            out.append("]")
        case .object:
            out.append("{")
            for member in document.members(of: span) {
                out.append("k" + hex(member.name))
                try canonical(document, member.value, into: &out)
            }
            out.append("}")
        }
    }

    /// Every value is found by the JSON pointer to it; a repeated name finds its first member.
    /// Only the first 32 levels: a lookup walks each level's earlier values, so checking
    /// every value of a text nested 512 deep would take the harness minutes.
    private static func checkLookups(
        _ document: JSONDocument, _ span: JSONDocument.Span, path: [String]
    ) throws(PropertyViolation) {
        guard path.count <= 32 else { return }
        let found = document.span(at: JSONPointer(tokens: path))
        try require(
            found == span, "the pointer \(JSONPointer(tokens: path)) finds \(String(describing: found)), not \(span)")
        switch document.kind(of: span) {
        case .array:
            var elements: [JSONDocument.Span] = []
            document.forEachElement(of: span) {
                elements.append($0); return true
            }
            for (index, element) in elements.enumerated() {
                try checkLookups(document, element, path: path + [String(index)])
            }
        case .object:
            var seen: Set<String> = []
            for member in document.members(of: span) where seen.insert(member.name).inserted {
                try checkLookups(document, member.value, path: path + [member.name])
            }
        default:
            break
        }
    }

    private static func hex(_ text: String) -> String {
        var result = ""
        for byte in text.utf8 {
            result += (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
        return result
    }

    /// How deeply the input nests arrays and objects, counting brackets outside strings.
    private static func nesting(_ input: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in input {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }
}
