import Foundation
import Synchronization

/// The `json` target's reference parser: CPython's json in a process of its own
/// (`fuzz/json-reference.py`, which says why it and not Foundation), asked one
/// input at a time over a pipe.
///
/// Thread-safety: `Sendable`; one exchange at a time, behind a `Mutex`.
final class JSONReference: Sendable {
    /// What the reference says of an input.
    enum Verdict: Equatable {
        /// One JSON text, with its value as canonical tokens.
        case value(String)
        /// Not a JSON text.
        case rejected(String)
        /// Nested deeper than the reference can follow.
        case tooDeep
    }

    /// The process every target shares, started at the first question.
    static let shared = JSONReference()

    private struct Pipes {
        var process: Process
        var input: Int32
        var output: Int32
        var buffer: [UInt8] = []
    }

    private let pipes = Mutex<Pipes?>(nil)

    /// The reference's verdict on `bytes`.
    func verdict(_ bytes: [UInt8]) throws(PropertyViolation) -> Verdict {
        let line: String
        do {
            line = try pipes.withLock { pipes throws in
                if pipes == nil { pipes = try Self.start() }
                do {
                    return try Self.exchange(bytes, &pipes!)
                } catch {
                    // Asked again by a new process: an input that kills it twice is its own failure.
                    pipes = try Self.start()
                    return try Self.exchange(bytes, &pipes!)
                }
            }
        } catch {
            let said = (try? String(contentsOfFile: Self.errors, encoding: .utf8)).map { String($0.suffix(2000)) }
            throw PropertyViolation("the reference parser fails: \(error); it said: \(said ?? "nothing")")
        }
        if line.hasPrefix("ok ") { return .value(String(line.dropFirst(3))) }
        if line == "deep" { return .tooDeep }
        if line.hasPrefix("reject ") { return .rejected(String(line.dropFirst("reject ".count))) }
        throw PropertyViolation("the reference parser fails on this input: \(line)")
    }

    private static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../fuzz/json-reference.py"
        ).standardized.path
    }

    /// Where the reference writes its errors, which a failure quotes.
    private static let errors = FileManager.default.temporaryDirectory
        .appendingPathComponent("sync-agent-json-reference-\(getpid()).log").path

    private static func start() throws -> Pipes {
        // A reference that died must not kill this process as it writes to it.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script]
        let toChild = Pipe()
        let fromChild = Pipe()
        process.standardInput = toChild
        process.standardOutput = fromChild
        _ = FileManager.default.createFile(atPath: errors, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errors)
        try process.run()
        return Pipes(
            process: process, input: toChild.fileHandleForWriting.fileDescriptor,
            output: fromChild.fileHandleForReading.fileDescriptor)
    }

    private struct Broken: Error, CustomStringConvertible {
        var description: String
    }

    private static func exchange(_ bytes: [UInt8], _ pipes: inout Pipes) throws -> String {
        var message = withUnsafeBytes(of: UInt32(bytes.count).littleEndian) { Array($0) }
        message += bytes
        try message.withUnsafeBytes { raw in
            var sent = 0
            while sent < raw.count {
                let written = write(pipes.input, raw.baseAddress! + sent, raw.count - sent)
                guard written > 0 else { throw Broken(description: "write: errno \(errno)") }
                sent += written
            }
        }
        while true {
            if let newline = pipes.buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pipes.buffer[..<newline], as: UTF8.self)
                pipes.buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(pipes.output, &chunk, chunk.count)
            guard count > 0 else { throw Broken(description: "python3 \(script) stopped answering") }
            pipes.buffer += chunk[..<count]
        }
    }
}
