import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import Store
import SyncAgentDaemon
import SyncCore
import Synchronization

/// `sync-agent run`: the long-running agent.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the agent: keep every resource fresh until stopped.",
        discussion: """
            Syncs each resource an interval after its last successful sync (at once when \
            its data is older than that), retries what can succeed later, stops polling a \
            resource that fails for good until someone refreshes it, and waits while the \
            machine is offline. The status API listens on the configured Unix socket: \
            `sync-agent status` and `sync-agent refresh` talk to it, and so does curl. With \
            "http" in the configuration, metrics, health checks, a status page and the API \
            (read-only unless control is on) are served on a TCP address too.

            Under systemd (Type=notify) it sends READY=1 once the database is open and the \
            socket listens, a STATUS= line when it changes, WATCHDOG=1 when the watchdog is \
            on, and STOPPING=1 on SIGTERM. SIGTERM or SIGINT stops it within 10 seconds: \
            syncs in flight are rolled back and the socket file is removed. SIGUSR1 logs \
            one line per resource; SIGHUP reloads the configuration, as `sync-agent reload` \
            does (a file that does not validate is refused, and the agent runs on as it was).

            Exit codes: 0 after a clean stop; 1 fatal (another agent runs on the database, \
            the socket or database cannot be used); 78 bad configuration.

            Examples:
              sync-agent run -c config.json                 Run in the foreground.
              sync-agent run -c config.json --log-level debug
              curl --unix-socket sync-agent.sock http://localhost/v1/status
            """)

    @OptionGroup var options: GlobalOptions

    package func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let config = try options.loadConfig(environment: environment)
        try await AgentRunner(config: config, logger: options.logger(defaultLevel: .info), environment: environment)
            .runAsCommand()
    }
}

extension AgentRunner {
    /// Runs the agent; a failure is one line on standard error and exit code 1.
    func runAsCommand() async throws {
        do {
            try await run()
        } catch {
            if let message = error.message { Console.error("sync-agent: \(message)") }
            throw ExitStatus.failure
        }
    }
}
