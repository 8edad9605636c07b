import Foundation

/// `sync-agent run` started in a workspace, and what a person (or a
/// script) does with it: `curl --unix-socket`, signals.
struct RunningAgent: Sendable {
    let workspace: Workspace
    let process: RunningProcess

    /// The status socket: by default `sync-agent.sock` beside the configuration.
    let socketPath: String

    /// Starts the agent and waits until its socket (at `socket`, relative to
    /// the workspace) answers.
    static func start(
        in workspace: Workspace, arguments: [String] = [], environment: [String: String] = [:],
        wrapper: [String] = [], socket: String = "sync-agent.sock"
    ) async throws -> RunningAgent {
        let agent = RunningAgent(
            workspace: workspace,
            process: try workspace.start(["run"] + arguments, environment: environment, wrapper: wrapper),
            socketPath: workspace.folder + "/" + socket)
        let answered = try await eventually { agent.curl("GET", "/v1/status").status == 200 }
        guard answered else {
            agent.process.send(SIGKILL)
            let output = try await agent.process.finish()
            throw AgentDidNotStart(stderr: output.stderr)
        }
        return agent
    }

    struct AgentDidNotStart: Error, CustomStringConvertible {
        var stderr: String
        var description: String { "the agent's socket never answered; it printed:\n\(stderr)" }
    }

    /// What curl got: the HTTP status (0 when it could not connect) and the body.
    struct Answer: Sendable {
        var status: Int
        var body: String

        /// The body as a JSON object.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
    }

    /// `curl --unix-socket SOCKET -X method http://localhost/path`, for at
    /// most `maxTime` seconds (an event stream is cut off then, with what
    /// it sent so far).
    /// `options` go to curl as they are (such as `--data-binary @FILE`).
    func curl(
        _ method: String, _ path: String, headers: [String] = [], options: [String] = [], maxTime: Int = 60
    ) -> Answer {
        Self.curl(
            method, "http://localhost" + path, headers: headers, options: ["--unix-socket", socketPath] + options,
            maxTime: maxTime)
    }

    /// `curl -X method url` over TCP (the HTTP listener), as `curl(_:_:headers:options:maxTime:)` does on the socket.
    static func curl(
        _ method: String, _ url: String, headers: [String] = [], options: [String] = [], maxTime: Int = 60
    ) -> Answer {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        process.arguments =
            ["--silent", "--no-buffer", "--max-time", "\(maxTime)", "-X", method, "-w", "\n%{http_code}"]
            + headers.flatMap { ["-H", $0] } + options + [url]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return Answer(status: 0, body: "") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.popLast() ?? "") ?? 0
        return Answer(status: status, body: lines.joined(separator: "\n"))
    }

    /// The state of resource `name` as `GET /v1/resources/NAME` tells it.
    func state(of name: String) -> String? {
        curl("GET", "/v1/resources/\(name)").json["state"] as? String
    }

    /// Sends SIGTERM and waits for the agent to exit.
    func stop(timeout: Duration = .seconds(30)) async throws -> ProcessResult {
        process.send(SIGTERM)
        return try await process.finish(timeout: timeout)
    }
}
