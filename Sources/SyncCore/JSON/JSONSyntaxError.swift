/// A JSON text that does not follow RFC 8259, with the byte offset where it broke.
package struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The offset of the offending byte from the start of the text.
    package var offset: Int
    /// What was wrong there, such as `expected ',' or '}'`.
    package var reason: String

    /// Creates a syntax error.
    package init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }

    /// The reason and the byte offset.
    package var description: String { "\(reason) at byte \(offset)" }

    /// The 1-based line and column of ``offset`` in `bytes`.
    package func location(in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        for byte in bytes.prefix(offset) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
