/// One thing wrong with a configuration: where (`resources[1].pagination.size`)
/// and what (`must be between 1 and 10000`).
package struct ConfigProblem: Sendable, Hashable, CustomStringConvertible {
    /// The path of the offending key, or the file and position of a syntax error.
    package var path: String
    /// What is wrong, as a phrase that follows the path.
    package var message: String

    /// Creates a problem.
    package init(_ path: String, _ message: String) {
        self.path = path
        self.message = message
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
