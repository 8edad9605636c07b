import ArgumentParser
import DemoUpstream
import Foundation
import Logging
import ServiceLifecycle
import SyncAgentDaemon
import SyncCore

/// `sync-agent demo`: the agent against a built-in API, with live status.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run the agent against a built-in demo API and watch it work.",
        discussion: """
            Starts a small JSON API on 127.0.0.1 (a free port) and runs the agent against \
            it, showing each resource's state and what happens as it happens. Within a \
            minute you see every behaviour: pages applied in one transaction, 503s retried \
            with backoff, a 429 whose Retry-After is honoured, a slow page reported as \
            "taking longer than expected", data that changes between polls, and a resource \
            (my-team) whose URL reads another's record (me) and syncs again when it changes.

            Its files (database, configuration, socket) go in a new temporary folder, \
            removed when the demo stops; with --keep they go in your state folder \
            ($XDG_STATE_HOME/sync-agent/demo, else ~/.local/state/sync-agent/demo) and \
            stay, as they do beside --database. The demo says where they are, so while \
            it runs you can try the other commands and the status API. It also serves \
            the status page and the metrics on another free port of 127.0.0.1, which it \
            names: open it in a browser. Ctrl-C stops it cleanly (exit 0).

            Examples:
              sync-agent demo
              sync-agent demo --keep
              sync-agent demo --database /tmp/demo.db
              sync-agent status -c FOLDER/demo.json       (in another terminal)
              curl --unix-socket FOLDER/demo.sock http://localhost/v1/status
            """)

    @Flag(help: "Keep the demo's files in your state folder rather than in a temporary one.")
    var keep = false

    @Option(
        help: ArgumentHelp(
            "Keep the demo's database in this file; its socket and configuration go beside it.", valueName: "file"))
    var database: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least important log messages written to standard error (default: error).", valueName: "level"))
    var logLevel: LogLevelArgument?

    package func validate() throws {
        if keep, database != nil { throw ValidationError("--keep and --database cannot be used together.") }
    }

    package func run() async throws {
        let files: DemoFiles
        do {
            files = try DemoFiles.make(database: database, keep: keep)
        } catch {
            Console.error("sync-agent: \(error)")
            throw ExitStatus.failure
        }
        defer { files.removeIfTemporary() }
        let upstream: DemoUpstream
        do {
            upstream = try await DemoUpstream.start(
                host: "127.0.0.1", port: 0, collections: DemoScenario.collections)
        } catch {
            Console.error("sync-agent: cannot start the demo API on 127.0.0.1: \(error)")
            throw ExitStatus.failure
        }
        let scenario = DemoScenario(upstream: upstream)
        scenario.prepare()
        let config: AgentConfig
        // A port the kernel picks, let go at once for the agent to take.
        let httpPort = try? HTTPListener.prepare(HTTPListenerSettings(host: "127.0.0.1", port: 0))
        do {
            try scenario.configText(files: files, httpPort: httpPort).write(
                toFile: files.config, atomically: true, encoding: .utf8)
            config = try ConfigLoader.load(path: files.config, environment: [:])
        } catch {
            Console.error("sync-agent: cannot write the demo's configuration \(files.config): \(error)")
            await upstream.stop()
            throw ExitStatus.failure
        }
        var logger = Logger(label: "sync-agent")
        logger.logLevel = logLevel?.level ?? .error
        let intro = DemoDisplay.intro(
            upstream: upstream.baseURL, files: files, page: httpPort.map { "http://127.0.0.1:\($0)/" })
        let runner = AgentRunner(
            config: config, logger: logger, environment: ProcessInfo.processInfo.environment,
            extraServices: { engine in
                [
                    .init(service: DemoDisplay(engine: engine, intro: intro), serviceName: "demo display"),
                    .init(service: scenario, serviceName: "demo scenario"),
                ]
            })
        do {
            try await runner.runAsCommand()
        } catch {
            await upstream.stop()
            throw error
        }
        await upstream.stop()
        if files.temporary {
            Console.out(
                "\nDemo stopped. Its folder \(files.folder) is removed; sync-agent demo --keep keeps the data.")
        } else {
            Console.out(
                "\nDemo stopped. The data stays in \(files.shown(files.database)): try "
                    + "sync-agent history -c \(files.shown(files.config))")
        }
    }
}

/// Where the demo keeps its files: the database, and beside it the socket
/// and the configuration. By default in a temporary folder removed at the
/// end; with `--keep` in the user's state folder; or beside `--database`.
struct DemoFiles: Sendable {
    /// The folder that holds them.
    var folder: String
    var database: String
    var socket: String
    var config: String
    /// Whether the folder is the demo's own, removed when it stops.
    var temporary: Bool

    /// Why the demo's folder cannot be made.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The files of a demo: beside `database`, in the state folder (`keep`), or in a new temporary folder.
    static func make(
        database: String?, keep: Bool, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(Failure) -> DemoFiles {
        if let database { return DemoFiles(database: database) }
        if keep {
            let state =
                environment["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
                ?? (environment["HOME"] ?? NSHomeDirectory()) + "/.local/state"
            let folder = state + "/sync-agent/demo"
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "cannot create the demo's folder \(folder): \(error.localizedDescription)")
            }
            return DemoFiles(database: folder + "/demo.db")
        }
        var base = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        removeStale(in: base)
        var template = Array("\(base)/\(temporaryTemplate)".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            let reason = String(cString: strerror(errno))
            throw Failure(description: "cannot create a temporary folder in \(base): \(reason)")
        }
        var files = DemoFiles(database: String(cString: made) + "/demo.db")
        files.temporary = true
        return files
    }

    /// The name of a demo's temporary folder, made unique by `mkdtemp`.
    static let temporaryTemplate = "sync-agent-demo.XXXXXX"

    /// Removes the temporary folders that demos killed before they could
    /// remove their own left in `base`: those older than a minute whose
    /// agent no longer runs. Returns their paths.
    @discardableResult
    static func removeStale(in base: String, now: Date = Date()) -> [String] {
        TemporaryFolders.older(than: 60, in: base, template: temporaryTemplate, now: now).filter {
            !AgentLock.isHeld(database: $0 + "/demo.db") && (try? FileManager.default.removeItem(atPath: $0)) != nil
        }
    }

    /// The files beside `database`, kept.
    init(database: String) {
        let path = URL(fileURLWithPath: database).standardizedFileURL.path
        let stem = path.hasSuffix(".db") ? String(path.dropLast(3)) : path
        folder = (path as NSString).deletingLastPathComponent
        self.database = path
        config = stem + ".json"
        temporary = false
        let socket = stem + ".sock"
        // A Unix socket's path has a length limit; a deep folder falls back to /tmp.
        self.socket = StatusServer.fits(socket) ? socket : "/tmp/sync-agent-demo-\(getpid()).sock"
    }

    /// Removes the folder if it is the demo's own.
    func removeIfTemporary() {
        guard temporary else { return }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// A path as the user would type it: relative to the current folder when inside it.
    func shown(_ path: String) -> String {
        let folder = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
    }
}
