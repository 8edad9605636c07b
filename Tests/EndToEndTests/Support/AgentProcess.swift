import Foundation

/// What a finished process printed and how it exited.
struct ProcessResult: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// Runs the real `sync-agent` binary, the way a user or a script does.
enum AgentProcess {
    /// The `sync-agent` binary built beside the test bundle (or `$SYNC_AGENT_BINARY`).
    static let binary: String = {
        if let explicit = ProcessInfo.processInfo.environment["SYNC_AGENT_BINARY"] { return explicit }
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var folder = executable.deletingLastPathComponent()
        // The test runner lives in `<build>/debug/` or inside an `.xctest` bundle below it.
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("sync-agent").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        fatalError("sync-agent binary not found near \(executable.path); run `swift build` first")
    }()

    /// Runs `sync-agent` with `arguments` and waits for it to exit.
    ///
    /// Output goes to files rather than pipes, so a chatty process can never
    /// block on a full pipe while the test waits for it.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], in folder: String, timeout: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        let process = try start(arguments, environment: environment, in: folder)
        return try await process.finish(timeout: timeout)
    }

    /// Starts `sync-agent` without waiting for it; with a `wrapper` (such as
    /// `ip netns exec NAME`), the wrapper runs it.
    static func start(
        _ arguments: [String], environment: [String: String] = [:], in folder: String, wrapper: [String] = []
    ) throws
        -> RunningProcess
    {
        let id = UUID().uuidString
        let stdoutPath = "\(folder)/.stdout-\(id)"
        let stderrPath = "\(folder)/.stderr-\(id)"
        _ = FileManager.default.createFile(atPath: stdoutPath, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrPath, contents: nil)
        let process = Process()
        let command = wrapper + [binary] + arguments
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        var base = ProcessInfo.processInfo.environment
        // The machine's proxies are no test's: each test names its own.
        let proxies = [
            "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
        ]
        for key in ["SYNC_AGENT_CONFIG", "NOTIFY_SOCKET", "JOURNAL_STREAM", "STATE_DIRECTORY", "RUNTIME_DIRECTORY"]
            + proxies
        {
            base[key] = nil
        }
        // Under `scripts/sanitize address`, LeakSanitizer checks the agent, not the test
        // runner (docs/testing.md#sanitizers).
        if let options = base["SYNC_AGENT_ASAN_OPTIONS"] { base["ASAN_OPTIONS"] = options }
        process.environment = base.merging(environment) { $1 }
        let stdout = try FileHandle(forWritingTo: URL(fileURLWithPath: stdoutPath))
        let stderr = try FileHandle(forWritingTo: URL(fileURLWithPath: stderrPath))
        // The child has its own copies once it runs: the test process closes
        // its own at once. Left to Foundation, they stay open as long as the
        // `Process` lives, and a test that starts hundreds of agents ran the
        // test process up to a thousand open files, where Foundation's
        // `Process.run()` reads past its buffer of /proc/self/fd and crashes
        // (swift-corelibs-foundation#5472, in Swift 6.3.1).
        defer {
            try? stdout.close()
            try? stderr.close()
        }
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = AsyncStream<Int32>.makeStream()
        process.terminationHandler = { process in
            exited.continuation.yield(process.terminationStatus)
            exited.continuation.finish()
        }
        try process.run()
        return RunningProcess(
            process: process, exited: exited.stream, stdoutPath: stdoutPath, stderrPath: stderrPath)
    }
}

/// A started `sync-agent` process.
struct RunningProcess: @unchecked Sendable {
    // `Process` is not Sendable; this wrapper only reads its pid and signals it.
    let process: Process
    let exited: AsyncStream<Int32>
    let stdoutPath: String
    let stderrPath: String

    /// What it has written to standard output so far.
    var stdoutSoFar: String { (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "" }

    /// What it has written to standard error so far.
    var stderrSoFar: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }

    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    /// Sends `signal` (such as `SIGKILL`) to the process.
    func send(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// Waits for the process to exit (killing it after `timeout`) and collects its output.
    func finish(timeout: Duration = .seconds(60)) async throws -> ProcessResult {
        let process = process
        let watchdog = Task {
            try await Task.sleep(for: timeout)
            process.terminate()
        }
        var status: Int32 = -1
        for await code in exited { status = code }
        watchdog.cancel()
        defer {
            try? FileManager.default.removeItem(atPath: stdoutPath)
            try? FileManager.default.removeItem(atPath: stderrPath)
        }
        return ProcessResult(
            status: status,
            stdout: (try? String(contentsOfFile: stdoutPath, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "")
    }
}
