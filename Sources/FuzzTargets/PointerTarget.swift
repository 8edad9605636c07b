import SyncCore

extension FuzzTarget {
    /// JSON pointers (RFC 6901), which say where items, keys and cursors are.
    static let pointer = FuzzTarget(
        name: "pointer",
        property: "a pointer that reads is written back as the same text from its tokens, and any "
            + "tokens written as a pointer read back as the same tokens"
    ) { input throws(PropertyViolation) in
        let raw = String(decoding: input, as: UTF8.self)
        if let pointer = try? JSONPointer(raw) {
            let written = JSONPointer(tokens: pointer.tokens).description
            try require(written == raw, "\(shown(input)) reads as \(pointer.tokens), written back as \(written)")
        } else {
            // Refused only when it does not start with "/", or holds a "~" (a byte: in
            // characters, "~" and a combining mark after it are one).
            try require(
                !raw.isEmpty && (!raw.hasPrefix("/") || raw.utf8.contains(UInt8(ascii: "~"))),
                "\(shown(input)) is refused")
        }

        var draw = FuzzInput(input)
        var tokens: [String] = []
        for _ in 0..<draw.int(in: 0...5) {
            tokens.append(draw.text(upTo: 8, from: "a~/01é ".map(String.init) + ["~0", "~1", "/~"]))
        }
        let written = JSONPointer(tokens: tokens).description
        do {
            let read = try JSONPointer(written)
            try require(read.tokens == tokens, "\(tokens) is written \(written), which reads \(read.tokens)")
        } catch {
            throw PropertyViolation("\(tokens) is written \(written), which does not read: \(error)")
        }
    }
}
