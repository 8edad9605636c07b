import Foundation
import Synchronization
import TestUpstream

/// A temporary folder holding one test's configuration and database, removed at
/// the end with the agents started in it: one a test left running is killed, so
/// that no agent outlives its test.
final class Workspace: Sendable {
    let folder: String
    /// The processes started in it.
    private let started = Mutex<[RunningProcess]>([])

    init() throws {
        folder = NSTemporaryDirectory() + "sync-agent-e2e-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        for process in started.withLock({ $0 }) where process.process.isRunning {
            process.send(SIGKILL)
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    var configPath: String { folder + "/config.json" }
    var databasePath: String { folder + "/sync-agent.db" }

    /// Writes `config.json`.
    func writeConfig(_ text: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: configPath))
    }

    /// Writes a configuration of `resources` (JSON objects) with short timings.
    func writeConfig(resources: [String], extra: String = "") throws {
        try writeConfig(
            #"""
            {\#(extra)
              "defaults": {"timeout": "5s", "retry": {"maxAttempts": 1}},
              "resources": [\#(resources.joined(separator: ",\n"))]
            }
            """#)
    }

    /// Writes the credential `name` (ending in a line break, as files do) into
    /// `credentials/`, as systemd's `LoadCredential=` would, and returns that
    /// folder for `CREDENTIALS_DIRECTORY`.
    func writeCredential(_ name: String, _ value: String) throws -> String {
        let credentials = folder + "/credentials"
        try FileManager.default.createDirectory(atPath: credentials, withIntermediateDirectories: true)
        try Data("\(value)\n".utf8).write(to: URL(fileURLWithPath: credentials + "/" + name))
        return credentials
    }

    /// Runs `sync-agent` with this workspace's configuration.
    func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> ProcessResult {
        try await AgentProcess.run(arguments + ["--config", configPath], environment: environment, in: folder)
    }

    /// Starts `sync-agent` with this workspace's configuration, without waiting.
    func start(
        _ arguments: [String], environment: [String: String] = [:], wrapper: [String] = []
    ) throws
        -> RunningProcess
    {
        let process = try AgentProcess.start(
            arguments + ["--config", configPath], environment: environment, in: folder, wrapper: wrapper)
        started.withLock { $0.append(process) }
        return process
    }

    /// Rows of a query, read with the `sqlite3` shell as any other reader would; fields split by tabs.
    func query(_ sql: String) throws -> [[String]] {
        try Self.output(of: "/usr/bin/sqlite3", ["-separator", "\t", "-bail", databasePath, sql])
            .split(separator: "\n").map {
                $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            }
    }

    /// What `program` writes to its standard output, reading `input` (a file) if given;
    /// ``QueryFailed`` with what it wrote to standard error when it fails.
    @discardableResult
    static func output(of program: String, _ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let input { process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input)) }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // The output can be larger than a pipe holds: read it while the program runs.
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw QueryFailed(message: "\(program): " + String(decoding: problem, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// Starts the `sqlite3` shell holding the database's write lock for
    /// `seconds`, as another program would; gives it 300 ms to take it.
    func holdWriteLock(seconds: Int) async throws -> Process {
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [databasePath]
        let script = Pipe()
        holder.standardInput = script
        holder.standardOutput = FileHandle.nullDevice
        try holder.run()
        script.fileHandleForWriting.write(
            Data("BEGIN IMMEDIATE;\nUPDATE resources SET state = state;\n.shell sleep \(seconds)\nCOMMIT;\n".utf8))
        try script.fileHandleForWriting.close()
        try await Task.sleep(for: .milliseconds(300))
        return holder
    }

    /// The single value of a query.
    func value(_ sql: String) throws -> String? {
        try query(sql).first?.first
    }

    struct QueryFailed: Error {
        var message: String
    }

    /// key → data of a resource's records.
    func records(_ resource: String) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try query("SELECT key, data FROM records WHERE resource = '\(resource)'").map {
                ($0[0], $0[1])
            })
    }

    /// key → updated_at of a resource's records.
    func updateTimes(_ resource: String) throws -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: try query("SELECT key, updated_at FROM records WHERE resource = '\(resource)'").map {
                ($0[0], $0[1])
            })
    }
}

extension TestUpstream {
    /// A resource of the test upstream's collection `collection` in pagination `style`.
    func resource(
        _ name: String, style: String, collection: String = "items", size: Int = 100, extra: String = ""
    ) -> String {
        let common = #""name": "\#(name)", "key": "/id""# + (extra.isEmpty ? "" : ", " + extra)
        switch style {
        case "page":
            return
                #"{\#(common), "url": "\#(baseURL)/page/\#(collection)", "items": "/data", "pagination": {"style": "page", "size": \#(size)}}"#
        case "offset":
            return
                #"{\#(common), "url": "\#(baseURL)/offset/\#(collection)", "items": "/items", "pagination": {"style": "offset", "limit": \#(size)}}"#
        case "cursor":
            return
                #"{\#(common), "url": "\#(baseURL)/cursor/\#(collection)", "items": "/items", "query": {"limit": \#(size)}, "pagination": {"style": "cursor", "next": "/next_cursor"}}"#
        case "link":
            return
                #"{\#(common), "url": "\#(baseURL)/link/\#(collection)?per_page=\#(size)", "pagination": {"style": "link"}}"#
        case "nextUrl":
            return
                #"{\#(common), "url": "\#(baseURL)/next/\#(collection)?per_page=\#(size)", "items": "/results", "pagination": {"style": "nextUrl", "next": "/next"}}"#
        default:
            return #"{\#(common), "url": "\#(baseURL)/all/\#(collection)"}"#
        }
    }
}
