import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import SyncAgentDaemon
import SyncCore
import TestUpstream

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

            The database, the socket and the demo's configuration go in the current folder \
            (or beside --database), so while it runs you can try the other commands and \
            the status API. Ctrl-C stops it cleanly (exit 0); the database stays.

            Examples:
              sync-agent demo
              sync-agent demo --database /tmp/demo.db
              sync-agent status -c sync-agent-demo.json       (in another terminal)
              curl --unix-socket sync-agent-demo.sock http://localhost/v1/status
              sqlite3 sync-agent-demo.db 'select resource, count(*) from records group by 1'
            """)

    @Option(help: ArgumentHelp("The demo's database; its socket and configuration go beside it.", valueName: "file"))
    var database = "sync-agent-demo.db"

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least important log messages written to standard error (default: error).", valueName: "level"))
    var logLevel: LogLevelArgument?

    package func run() async throws {
        let files = DemoFiles(database: database)
        let upstream: TestUpstream
        do {
            upstream = try await TestUpstream.start(
                host: "127.0.0.1", port: 0, collections: DemoScenario.collections)
        } catch {
            Console.error("sync-agent: cannot start the demo API on 127.0.0.1: \(error)")
            throw ExitStatus.failure
        }
        let scenario = DemoScenario(upstream: upstream)
        scenario.prepare()
        let config: AgentConfig
        do {
            try scenario.configText(files: files).write(toFile: files.config, atomically: true, encoding: .utf8)
            config = try ConfigLoader.load(path: files.config, environment: [:])
        } catch {
            Console.error("sync-agent: cannot write the demo's configuration \(files.config): \(error)")
            await upstream.stop()
            throw ExitStatus.failure
        }
        var logger = Logger(label: "sync-agent")
        logger.logLevel = logLevel?.level ?? .error
        let intro = DemoDisplay.intro(upstream: upstream.baseURL, files: files)
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
        Console.out(
            "\nDemo stopped. The data stays in \(files.shown(files.database)): try "
                + "sync-agent history -c \(files.shown(files.config))")
    }
}

/// Where the demo keeps its files: the database, and beside it the socket
/// and the configuration.
struct DemoFiles: Sendable {
    var database: String
    package var socket: String
    var config: String

    init(database: String) {
        let path = URL(fileURLWithPath: database).standardizedFileURL.path
        let stem = path.hasSuffix(".db") ? String(path.dropLast(3)) : path
        self.database = path
        config = stem + ".json"
        let socket = stem + ".sock"
        // A Unix socket's path has a length limit; a deep folder falls back to /tmp.
        self.socket =
            socket.utf8.count <= UnixSocketPath.maxLength ? socket : "/tmp/sync-agent-demo-\(getpid()).sock"
    }

    /// A path as the user would type it: relative to the current folder when inside it.
    func shown(_ path: String) -> String {
        let folder = FileManager.default.currentDirectoryPath + "/"
        return path.hasPrefix(folder) ? String(path.dropFirst(folder.count)) : path
    }
}
