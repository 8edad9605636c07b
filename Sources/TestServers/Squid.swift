import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Debian's Squid in its default configuration, as a company's forward proxy
/// runs it, for tests: `/etc/squid/squid.conf` as the package installs it,
/// changed only where running in a new temporary folder needs (`http_port` on
/// a free loopback port, `pid_filename`, `access_log`, `cache_log`,
/// `coredump_dir`, no `netdb_filename`). Its rules stay, so it forwards plain
/// HTTP to any safe port and opens `CONNECT` tunnels only to port 443
/// (`SSL_ports`), for clients on loopback.
///
/// With `credentials`, it asks for them: Basic authentication by Debian's
/// `basic_ncsa_auth` against a password file made with `openssl passwd -apr1`,
/// and `http_access deny !authenticated`, both at the place Debian's file
/// keeps for them ("INSERT YOUR OWN RULE(S) HERE").
///
/// As root, Squid runs as the user `proxy`, who owns the folder. ``stop()``
/// (or the end of the last reference) kills it and removes the folder. Squid is
/// the child of a shell that does the same when this process's end of a pipe
/// closes, so that a test runner that crashes or is killed leaves no proxy behind.
///
/// Thread-safety: `Sendable`; its methods may be called from any task.
public final class Squid: Sendable {
    /// The folder of its configuration and logs.
    public let folder: String
    /// The loopback TCP port it listens on.
    public let port: Int
    private let keeper: Process
    /// The keeper's input: its closing stops Squid.
    private let input: FileHandle
    /// Squid's process.
    private let pid: pid_t
    /// Whether it was stopped.
    private let stopped = Mutex(false)

    /// Its URL, without credentials, such as `http://127.0.0.1:41234`.
    public var url: String { "http://127.0.0.1:\(port)" }

    /// Why Squid did not start.
    public struct DidNotStart: Error, CustomStringConvertible {
        /// What went wrong, with its log.
        public var description: String
    }

    private init(folder: String, port: Int, keeper: Process, input: FileHandle, pid: pid_t) {
        self.folder = folder
        self.port = port
        self.keeper = keeper
        self.input = input
        self.pid = pid
    }

    deinit {
        stop()
    }

    /// The configuration Debian's package installs.
    public static let debianConfiguration = "/etc/squid/squid.conf"

    /// Starts Squid in a new temporary folder, on a free loopback port; with
    /// `credentials`, it asks clients for them (407 otherwise).
    public static func start(credentials: (user: String, password: String)? = nil) async throws -> Squid {
        guard let debian = try? String(contentsOfFile: debianConfiguration, encoding: .utf8) else {
            throw DidNotStart(description: "Squid is not installed (\(debianConfiguration)): run scripts/ensure-deps")
        }
        var log = ""
        for _ in 0..<5 {
            let folder = NSTemporaryDirectory() + "sync-agent-squid-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            var rules = ""
            if let credentials {
                let hash = try run("/usr/bin/openssl", ["passwd", "-apr1", credentials.password])
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                try "\(credentials.user):\(hash)\n".write(
                    toFile: folder + "/passwords", atomically: true, encoding: .utf8)
                rules = """
                    auth_param basic program /usr/lib/squid/basic_ncsa_auth \(folder)/passwords
                    acl authenticated proxy_auth REQUIRED
                    http_access deny !authenticated

                    """
            }
            let port = Int.random(in: 20_000..<60_000)
            let configuration = try Self.configuration(debian, folder: folder, port: port, rules: rules)
            try configuration.write(toFile: folder + "/squid.conf", atomically: true, encoding: .utf8)
            if getuid() == 0 { try run("/bin/chown", ["-R", "proxy:proxy", folder]) }
            // The keeper shell: Squid in the foreground (-N) as its child, killed
            // (it keeps no state worth a clean stop) when the keeper's input closes.
            let script = """
                /usr/sbin/squid -N -f \(quoted(folder + "/squid.conf")) > \(quoted(folder + "/squid.out")) 2>&1 &
                pid=$!
                echo $pid
                while read -r _; do :; done
                kill -KILL $pid 2>/dev/null
                wait $pid
                rm -rf \(quoted(folder))
                """
            let (commands, answers) = (Pipe(), Pipe())
            // This process's ends are not for the programs it starts (another test's nginx would keep the input open).
            _ = fcntl(commands.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
            _ = fcntl(answers.fileHandleForReading.fileDescriptor, F_SETFD, FD_CLOEXEC)
            let keeper = Process()
            keeper.executableURL = URL(fileURLWithPath: "/bin/sh")
            keeper.arguments = ["-c", script]
            keeper.standardInput = commands
            keeper.standardOutput = answers
            keeper.standardError = FileHandle.nullDevice
            try keeper.run()
            var said = Data()
            while !said.contains(UInt8(ascii: "\n")) {
                let more = answers.fileHandleForReading.availableData
                if more.isEmpty { break }
                said.append(more)
            }
            let pid = pid_t(String(decoding: said, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            let squid = Squid(
                folder: folder, port: port, keeper: keeper, input: commands.fileHandleForWriting, pid: pid)
            if await squid.waitUntilReady(timeout: 30) { return squid }
            log = squid.log() + ((try? String(contentsOfFile: folder + "/squid.out", encoding: .utf8)) ?? "")
            squid.stop()
            // Another program took the port: another one is tried.
            guard log.contains("Cannot bind") || log.contains("Address already in use") else { break }
        }
        throw DidNotStart(description: "Squid did not start:\n\(log)")
    }

    /// Debian's configuration with the changes a temporary folder needs, and
    /// `rules` at the place Debian's file keeps for one's own rules.
    static func configuration(_ debian: String, folder: String, port: Int, rules: String) throws -> String {
        let marker = "# INSERT YOUR OWN RULE(S) HERE TO ALLOW ACCESS FROM YOUR CLIENTS\n#\n"
        var lines = debian.components(separatedBy: "\n")
        guard let listen = lines.firstIndex(where: { $0.hasPrefix("http_port ") }),
            let dump = lines.firstIndex(where: { $0.hasPrefix("coredump_dir ") }),
            debian.components(separatedBy: marker).count == 2
        else {
            throw DidNotStart(
                description: "\(debianConfiguration) is not Debian's: no http_port, coredump_dir or rules marker")
        }
        lines[listen] = "http_port 127.0.0.1:\(port)"
        lines[dump] = "coredump_dir \(folder)"
        lines += [
            "pid_filename \(folder)/squid.pid",
            "access_log stdio:\(folder)/access.log squid",
            "cache_log \(folder)/cache.log",
            "netdb_filename none",
        ]
        return lines.joined(separator: "\n").replacingOccurrences(of: marker, with: marker + rules)
    }

    /// Waits until Squid accepts connections; `false` when it ended, or failed, first.
    private func waitUntilReady(timeout seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, keeper.isRunning {
            let log = log()
            if log.contains("Accepting HTTP Socket connections at") { return true }
            if log.contains("FATAL") || log.contains("Cannot bind") { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Its `cache.log` so far: what it tells of itself.
    public func log() -> String {
        (try? String(contentsOfFile: folder + "/cache.log", encoding: .utf8)) ?? ""
    }

    /// A request in its access log.
    public struct Request: Sendable, Equatable, CustomStringConvertible {
        /// `GET`, `POST`, `CONNECT`…
        public var method: String
        /// What was asked for: an absolute URL, or `host:port` for `CONNECT`.
        public var target: String
        /// Squid's result and the status it answered, such as `TCP_MISS/200` or `TCP_DENIED/407`.
        public var result: String
        /// The user who gave their credentials, or `-`.
        public var user: String

        /// The status it answered.
        public var status: Int? { result.split(separator: "/").last.flatMap { Int($0) } }

        /// The request as `METHOD target result user`.
        public var description: String { "\(method) \(target) \(result) \(user)" }
    }

    /// The requests logged so far, oldest first. (A `CONNECT` is logged when its tunnel closes.)
    public func requests() -> [Request] {
        let log = (try? String(contentsOfFile: folder + "/access.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            // 1795771100.473     21 127.0.0.1 TCP_MISS/200 665 GET http://127.0.0.1:38000/ - HIER_DIRECT/127.0.0.1 text/html
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8 else { return nil }
            return Request(
                method: String(fields[5]), target: String(fields[6]), result: String(fields[3]),
                user: String(fields[7]))
        }
    }

    /// Stops Squid (at once: it keeps nothing worth a clean stop) and removes its folder.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        if pid > 0 { kill(pid, SIGKILL) }
        try? input.close()
        // The keeper ends when its input closes, unless a program started meanwhile holds it open.
        let deadline = Date().addingTimeInterval(2)
        while keeper.isRunning, Date() < deadline { usleep(10_000) }
        if keeper.isRunning { kill(keeper.processIdentifier, SIGKILL) }
        keeper.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs a program to its end and returns its output; throws with it when the program fails.
    @discardableResult
    private static func run(_ program: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw DidNotStart(description: "\(program) \(arguments.first ?? "") failed")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// `text` quoted for `/bin/sh`.
private func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
