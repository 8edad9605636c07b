/// Checks that bytes are one JSON text (RFC 8259), strictly: UTF-8, no trailing
/// commas, no comments, no leading zeros, nesting at most ``maximumDepth`` deep.
///
/// It allocates nothing; ``JSONDocument`` builds on it and then navigates the
/// validated bytes without checking them again.
struct JSONValidator {
    /// The deepest nesting accepted, so hostile input cannot exhaust the stack.
    static let maximumDepth = 512

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Validates a whole text and returns the range of its root value.
    static func validate(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> Range<Int> {
        var validator = JSONValidator(bytes)
        validator.skipWhitespace()
        guard validator.index < bytes.count else {
            throw JSONSyntaxError(offset: validator.index, reason: "the text is empty")
        }
        let start = validator.index
        try validator.value(depth: 0)
        let end = validator.index
        validator.skipWhitespace()
        guard validator.index == bytes.count else {
            throw JSONSyntaxError(offset: validator.index, reason: "unexpected text after the JSON value")
        }
        return start..<end
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private func fail(_ reason: String) -> JSONSyntaxError {
        if index >= bytes.count {
            return JSONSyntaxError(offset: bytes.count, reason: "the text ends early: \(reason)")
        }
        return JSONSyntaxError(offset: index, reason: reason)
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw fail("expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"): try object(depth: depth + 1)
        case UInt8(ascii: "["): try array(depth: depth + 1)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw fail("unexpected character \(Self.show(bytes[index])), expected a value")
        }
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw fail("expected a member name in double quotes")
            }
            try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw fail("expected ',' or '}'") }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or '}'") }
            index += 1
            skipWhitespace()
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) {
        guard depth <= Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
        index += 1
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return
        }
        while true {
            try value(depth: depth)
            skipWhitespace()
            guard index < bytes.count else { throw fail("expected ',' or ']'") }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return
            }
            guard bytes[index] == UInt8(ascii: ",") else { throw fail("expected ',' or ']'") }
            index += 1
            skipWhitespace()
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("expected \(word)") }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] {
            throw fail("expected \(word)")
        }
        index += count
    }

    private mutating func number() throws(JSONSyntaxError) {
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw fail("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, Self.isDigit(bytes[index]) { throw fail("a number must not start with 0") }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw fail("expected a digit after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else {
                throw fail("expected a digit in the exponent")
            }
            skipDigits()
        }
    }

    private mutating func skipDigits() {
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func string() throws(JSONSyntaxError) {
        index += 1
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return
            } else if byte == UInt8(ascii: "\\") {
                index += 1
                guard index < bytes.count else { break }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0..<4 {
                        guard index < bytes.count, Self.hexValue(bytes[index]) != nil else {
                            throw fail("expected four hexadecimal digits after \\u")
                        }
                        index += 1
                    }
                default:
                    throw fail("invalid escape \\\(Self.show(bytes[index]))")
                }
            } else if byte < 0x20 {
                throw fail("control character \(Self.show(byte)) in a string")
            } else if byte < 0x80 {
                index += 1
            } else {
                try utf8Sequence()
            }
        }
        throw fail("unterminated string")
    }

    /// Validates one multi-byte UTF-8 sequence (no overlong forms, no surrogates).
    private mutating func utf8Sequence() throws(JSONSyntaxError) {
        let lead = bytes[index]
        let length: Int
        var lower: UInt8 = 0x80
        var upper: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; lower = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; upper = 0x9F
        case 0xF0: length = 4; lower = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; upper = 0x8F
        default: throw fail("invalid UTF-8")
        }
        guard index + length <= bytes.count else { throw fail("invalid UTF-8") }
        let second = bytes[index + 1]
        guard second >= lower, second <= upper else { throw fail("invalid UTF-8") }
        for offset in 2..<max(2, length) where bytes[index + offset] & 0xC0 != 0x80 {
            throw fail("invalid UTF-8")
        }
        index += length
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private static func show(_ byte: UInt8) -> String {
        if byte >= 0x21, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }
}
