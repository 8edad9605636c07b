import Foundation

/// Prometheus's own checker, `promtool` (Debian's `prometheus` package), for
/// tests that hold the agent's metrics and the dashboard's queries to it.
public enum Promtool {
    /// What a run of `promtool` said, and how it exited.
    public struct Answer: Sendable {
        /// The exit status: 0 when it found nothing wrong.
        public var status: Int32
        /// What it printed, standard output and error together.
        public var output: String
    }

    /// Runs `promtool` with `arguments` (such as `check metrics`), `input` on its standard input.
    public static func run(_ arguments: [String], input: String = "") throws -> Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/promtool")
        process.arguments = arguments
        let stdin = Pipe()
        let output = Pipe()
        process.standardInput = stdin
        process.standardOutput = output
        process.standardError = output
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let said = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return Answer(status: process.terminationStatus, output: said)
    }

    /// What `promtool check metrics` says of a page of metrics: empty when
    /// it has nothing to say, else its words (and its exit status if it failed).
    public static func problems(inMetrics page: String) throws -> String {
        let answer = try run(["check", "metrics"], input: page)
        return answer.status == 0 ? answer.output : "exit \(answer.status): \(answer.output)"
    }
}
