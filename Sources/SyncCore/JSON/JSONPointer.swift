/// A JSON pointer (RFC 6901), such as `/data` or `/meta/next~1cursor`.
///
/// The empty pointer `""` refers to the whole document.
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, in order.
    package let tokens: [String]
    /// The pointer as written.
    package let description: String

    /// The pointer to the whole document.
    package static let root = JSONPointer(validated: "", tokens: [])

    private init(validated text: String, tokens: [String]) {
        self.description = text
        self.tokens = tokens
    }

    /// The pointer to these reference tokens, as written with RFC 6901 escapes.
    package init(tokens: [String]) {
        var text = ""
        for token in tokens {
            text += "/"
            // By scalars: "~" and a combining mark after it are one character.
            for scalar in token.unicodeScalars {
                switch scalar {
                case "~": text += "~0"
                case "/": text += "~1"
                default: text.unicodeScalars.append(scalar)
                }
            }
        }
        self.init(validated: text, tokens: tokens)
    }

    /// Parses a pointer.
    ///
    /// - Throws: ``Problem`` when the text is not a valid pointer.
    package init(_ text: String) throws(Problem) {
        guard !text.isEmpty else {
            self = .root
            return
        }
        guard text.hasPrefix("/") else { throw Problem(text: text, reason: "must be empty or start with \"/\"") }
        var tokens: [String] = []
        for raw in text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst() {
            var token: [UInt8] = []
            var iterator = raw.makeIterator()
            while let byte = iterator.next() {
                guard byte == UInt8(ascii: "~") else {
                    token.append(byte)
                    continue
                }
                switch iterator.next() {
                case UInt8(ascii: "0"): token.append(UInt8(ascii: "~"))
                case UInt8(ascii: "1"): token.append(UInt8(ascii: "/"))
                default: throw Problem(text: text, reason: "\"~\" must be followed by 0 or 1")
                }
            }
            tokens.append(String(decoding: token, as: UTF8.self))
        }
        self.init(validated: text, tokens: tokens)
    }

    /// The array index a token denotes (`0`, or digits without a leading zero).
    static func arrayIndex(_ token: String) -> Int? {
        guard let first = token.utf8.first, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard first != UInt8(ascii: "0") || token.utf8.count == 1 else { return nil }
        return Int(token)
    }

    /// A text that is not a valid JSON pointer.
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// The text given.
        package var text: String
        /// What is wrong with it.
        package var reason: String

        /// The problem as one sentence.
        package var description: String { "invalid JSON pointer \"\(text)\": \(reason)" }
    }
}
