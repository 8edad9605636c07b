/// One thing wrong with a configuration: where (`resources[1].pagination.size`)
/// and what (`must be between 1 and 10000`).
package struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    /// The path of the offending key, or the file and position of a syntax error.
    package var path: String
    /// What is wrong, as a phrase that follows the path.
    package var message: String

    /// Creates a problem. Control characters (a line break in a key, an escape
    /// sequence) are shown as JSON escapes (`\n`, `\u001b`), so that each problem
    /// stays one line of `validate`'s output and no terminal reads them.
    package init(_ path: String, _ message: String) {
        self.path = Self.printable(path)
        self.message = Self.printable(message)
    }

    /// `text` with its control characters (C0, DEL, C1, the line and paragraph
    /// separators) as JSON escapes.
    static func printable(_ text: String) -> String {
        func isControl(_ scalar: Unicode.Scalar) -> Bool {
            scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                || scalar.value == 0x2029
        }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n".unicodeScalars
            case "\r": shown += "\\r".unicodeScalars
            case "\t": shown += "\\t".unicodeScalars
            case _ where isControl(scalar):
                let hex = String(scalar.value, radix: 16)
                shown += ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars
            default: shown.append(scalar)
            }
        }
        return String(shown)
    }

    /// The problem as `path: message`.
    package var description: String { "\(path): \(message)" }
}

/// A configuration that cannot be used, with every problem found in it.
package struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// The file the problems are in.
    package var file: String
    /// Every problem, in the order of the file.
    package var problems: [ConfigProblem]

    /// Creates a configuration error.
    package init(file: String, problems: [ConfigProblem]) {
        self.file = file
        self.problems = problems
    }

    /// The file, the number of problems, then one problem per line.
    package var description: String {
        // A problem of the file itself (unreadable, not JSON) names the file already.
        if problems.count == 1, problems[0].path.hasPrefix(file) { return problems[0].description }
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return (["\(file): \(count):"] + problems.map(\.description)).joined(separator: "\n")
    }
}
