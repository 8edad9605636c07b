import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A throwaway PostgreSQL cluster for tests and benchmarks: Debian's server,
/// initialized in a new temporary folder and listening on a free loopback port
/// and on a Unix socket in that folder, with trust authentication for the
/// user `postgres`.
///
/// `initdb` refuses to run as root, so as root the cluster belongs to the
/// user `postgres` (the server runs as that user). The server is the child of
/// a shell that stops it, and removes the folder, when this process's end of
/// a pipe closes: a test runner that crashes or is killed leaves no server
/// behind.
///
/// Thread-safety: `Sendable`; its methods may be called from any task.
public final class PostgresCluster: Sendable {
    /// The cluster's folder (data in `data/`, the socket in the folder itself).
    public let folder: String
    /// The loopback TCP port it listens on.
    public let port: Int
    private let binaries: String
    private let keeper: Process
    /// The keeper's input: commands, and by its closing, the end.
    private let commands: FileHandle
    /// The keeper's output: `done` after each command.
    private let answers: FileHandle

    /// The URL of database `database` as the superuser `postgres`, over TCP.
    public func url(database: String = "postgres") -> String {
        "postgres://postgres@127.0.0.1:\(port)/\(database)"
    }

    /// Why a cluster did not start.
    public struct DidNotStart: Error, CustomStringConvertible {
        /// What went wrong, with the server's log.
        public var description: String
    }

    private init(
        folder: String, port: Int, binaries: String, keeper: Process, commands: FileHandle, answers: FileHandle
    ) {
        self.folder = folder
        self.port = port
        self.binaries = binaries
        self.keeper = keeper
        self.commands = commands
        self.answers = answers
    }

    /// One cluster for the whole test process, started at its first use and
    /// stopped when the process ends.
    public static func shared() async throws -> PostgresCluster {
        try await sharedCluster.value
    }

    private static let sharedCluster = Task { try await start() }

    /// The folder of the newest installed PostgreSQL's programs.
    static func binaryFolder() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [])
            .compactMap(Int.init).sorted()
        guard let newest = versions.last else {
            throw DidNotStart(description: "PostgreSQL is not installed (\(root) is empty): run scripts/ensure-deps")
        }
        return "\(root)/\(newest)/bin"
    }

    /// Initializes and starts a new cluster.
    public static func start() async throws -> PostgresCluster {
        let binaries = try binaryFolder()
        let asRoot = getuid() == 0
        let user = asRoot ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] : []
        for _ in 0..<5 {
            let folder = NSTemporaryDirectory() + "sync-agent-postgres-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            if asRoot { try run("/bin/chown", ["postgres:postgres", folder]) }
            try run(
                user.first ?? "\(binaries)/initdb",
                Array(user.dropFirst()) + (asRoot ? ["\(binaries)/initdb"] : [])
                    + ["-D", "\(folder)/data", "-U", "postgres", "-A", "trust", "-E", "UTF8", "--no-sync"])
            let port = Int.random(in: 20_000..<60_000)
            let asPostgres = user.map(quoted).joined(separator: " ")
            let log = quoted("\(folder)/server.log")
            // The keeper shell owns the server: it starts it, stops it (fast
            // shutdown) or starts it again when told on its input, saying
            // `done` when it has, and when its input closes (this process
            // ended), it stops the server at once and removes the folder.
            let server = """
                \(asPostgres) \(quoted("\(binaries)/postgres")) -D \(quoted("\(folder)/data")) \
                -k \(quoted(folder)) -p \(port) -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off \
                -c max_connections=200 -c shared_buffers=32MB >> \(log) 2>&1 &
                """
            let script = """
                : > \(log)
                \(asRoot ? "chown postgres:postgres \(log)" : "")
                \(server)
                pid=$!
                while read -r command; do
                  case $command in
                    stop) kill -INT $pid; wait $pid ;;
                    start) \(server)
                      pid=$! ;;
                  esac
                  echo done
                done
                kill -QUIT $pid 2>/dev/null
                wait $pid
                rm -rf \(quoted(folder))
                """
            let input = Pipe()
            let output = Pipe()
            let keeper = Process()
            keeper.executableURL = URL(fileURLWithPath: "/bin/sh")
            keeper.arguments = ["-c", script]
            keeper.standardInput = input
            keeper.standardOutput = output
            try keeper.run()
            let cluster = PostgresCluster(
                folder: folder, port: port, binaries: binaries, keeper: keeper,
                commands: input.fileHandleForWriting, answers: output.fileHandleForReading)
            if await cluster.waitUntilReady(timeout: 30) { return cluster }
            let written = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            guard written.contains("could not bind") || written.contains("could not create any") else {
                throw DidNotStart(description: "PostgreSQL did not start:\n\(written)")
            }
            // Another program took the port: the shell removes this cluster; another one tries another port.
            try? cluster.commands.close()
            keeper.waitUntilExit()
        }
        throw DidNotStart(description: "PostgreSQL found no free port")
    }

    /// Waits until the server accepts queries.
    public func waitUntilReady(timeout seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if (try? Self.run("\(binaries)/pg_isready", ["-q", "-h", "127.0.0.1", "-p", "\(port)"])) != nil {
                return true
            }
            let log = (try? String(contentsOfFile: "\(folder)/server.log", encoding: .utf8)) ?? ""
            guard keeper.isRunning, !log.contains("could not bind"), !log.contains("could not create any") else {
                return false
            }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Runs `sql` with `psql` (as any reader of the copy would) in `database`,
    /// with `schema` first in its search path; returns its output, rows one
    /// per line, columns separated by tabs.
    @discardableResult
    public func psql(_ sql: String, database: String = "postgres", schema: String? = nil) throws -> String {
        let url = url(database: database) + (schema.map { "?options=-csearch_path%3D\($0)" } ?? "")
        return try Self.run(
            "/usr/bin/psql", ["-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
    }

    /// A new empty database, named after `prefix`; returns its name.
    public func createDatabase(prefix: String = "test") throws -> String {
        let name = "\(prefix)_\(UUID().uuidString.prefix(8).lowercased())"
        try psql("CREATE DATABASE \(name)")
        return name
    }

    /// Stops the server (fast shutdown: sessions are ended, transactions in
    /// flight roll back) and starts it again on the same port and folder.
    public func restart() async throws {
        try stop()
        try await start()
    }

    /// Stops the server (fast shutdown) until ``start()``.
    public func stop() throws {
        try tell("stop")
    }

    /// Starts the server again after ``stop()``.
    public func start() async throws {
        try tell("start")
        guard await waitUntilReady(timeout: 30) else {
            throw DidNotStart(description: "PostgreSQL did not start again")
        }
    }

    /// Stops the server for good and removes its folder (a cluster of one
    /// test's own; the shared one ends with the process).
    public func shutdown() {
        try? commands.close()
        keeper.waitUntilExit()
    }

    /// Tells the keeper `command` and waits until it has done it.
    private func tell(_ command: String) throws {
        try commands.write(contentsOf: Data("\(command)\n".utf8))
        var answer = Data()
        while !answer.contains(UInt8(ascii: "\n")) {
            let more = answers.availableData
            guard !more.isEmpty else { throw DidNotStart(description: "the cluster's keeper ended") }
            answer.append(more)
        }
    }

    /// Runs a program to its end; throws with its output when it fails.
    @discardableResult
    static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw DidNotStart(description: "\(program) \(arguments.joined(separator: " ")) failed: \(text)")
        }
        return text
    }
}

/// `text` quoted for `/bin/sh`.
private func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
