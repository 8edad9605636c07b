import Foundation

/// Debian's tinyproxy, a real forward proxy, on loopback: it forwards plain
/// requests and opens `CONNECT` tunnels, optionally only for clients that
/// give its Basic credentials (407 otherwise). Its log records each request
/// line it receives.
final class TinyProxy: Sendable {
    let folder: String
    let port: Int
    private let process: Process

    /// Its URL, without credentials, such as `http://127.0.0.1:41234`.
    var url: String { "http://127.0.0.1:\(port)" }

    private init(folder: String, port: Int, process: Process) {
        self.folder = folder
        self.port = port
        self.process = process
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var log: String
        var description: String { "tinyproxy did not start:\n\(log)" }
    }

    /// Starts tinyproxy in a new temporary folder, on a free loopback port,
    /// in the foreground; with `credentials`, it asks clients for them.
    static func start(credentials: (user: String, password: String)? = nil) async throws -> TinyProxy {
        let folder = NSTemporaryDirectory() + "sync-agent-tinyproxy-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let binary = ["/usr/bin/tinyproxy", "/usr/sbin/tinyproxy"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        for attempt in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            // As root it would switch to the user `nobody`, who cannot write its folder.
            let config = """
                \(getuid() == 0 ? "User root\nGroup root" : "")
                Port \(port)
                Listen 127.0.0.1
                Allow 127.0.0.1
                Timeout 30
                MaxClients 32
                LogFile "\(folder)/tinyproxy.log"
                LogLevel Connect
                PidFile "\(folder)/tinyproxy.pid"
                \(credentials.map { "BasicAuth \($0.user) \($0.password)" } ?? "")
                """
            try config.write(toFile: folder + "/tinyproxy.conf", atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary ?? "/usr/bin/tinyproxy")
            process.arguments = ["-d", "-c", folder + "/tinyproxy.conf"]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            let proxy = TinyProxy(folder: folder, port: port, process: process)
            if try await eventually(timeout: .seconds(10), { loopbackAccepts(port: port) || !process.isRunning }),
                process.isRunning
            {
                return proxy
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            if attempt == 4 { break }
        }
        let log = (try? String(contentsOfFile: folder + "/tinyproxy.log", encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: folder)
        throw DidNotStart(log: log)
    }

    /// The request lines received so far, oldest first, such as `CONNECT 127.0.0.1:443`.
    func requests() -> [String] {
        let log = (try? String(contentsOfFile: folder + "/tinyproxy.log", encoding: .utf8)) ?? ""
        return log.split(separator: "\n").compactMap { line in
            // CONNECT   Nov 23 18:52:26.178 [15206]: Request (file descriptor 5): CONNECT 127.0.0.1:38124 HTTP/1.1
            guard let start = line.range(of: "): ", options: .backwards), line.contains("]: Request (") else {
                return nil
            }
            return line[start.upperBound...].split(separator: " ").prefix(2).joined(separator: " ")
        }
    }

    /// Stops tinyproxy and removes its folder. (With SIGKILL: it keeps the signal
    /// mask it inherits from the test runner, whose threads block SIGTERM.)
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Whether something accepts a TCP connection on loopback `port` (at `address`, one of 127.0.0.0/8).
func loopbackAccepts(port: Int, address: String = "127.0.0.1") -> Bool {
    guard let socket = connectedLoopbackSocket(port: port, address: address) else { return false }
    close(socket)
    return true
}
