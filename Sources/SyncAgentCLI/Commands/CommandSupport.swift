import ArgumentParser
import Foundation
import Logging
import Store
import SyncAgentDaemon
import SyncCore

/// A `--log-level` value.
enum LogLevelArgument: String, ExpressibleByArgument, CaseIterable {
    case trace, debug, info, notice, warning, error, critical

    var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .warning }
}

/// The options every subcommand takes.
struct GlobalOptions: ParsableArguments {
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The configuration file (default: $SYNC_AGENT_CONFIG, else /etc/sync-agent/config.json).",
            valueName: "file"))
    var config: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "The least important log messages written to standard error (default: info for run, else error).",
            valueName: "level"))
    var logLevel: LogLevelArgument?
}

/// The exit codes of docs/cli.md#exit-codes.
enum ExitStatus {
    /// Something failed.
    static let failure = ExitCode(1)
    /// `status`: no agent answered.
    static let notRunning = ExitCode(3)
    /// The command line was wrong (`EX_USAGE`).
    static let usage = ExitCode(64)
    /// The machine is offline (`EX_TEMPFAIL`).
    static let offline = ExitCode(75)
    /// The configuration is invalid (`EX_CONFIG`).
    static let config = ExitCode(78)
}

extension GlobalOptions {
    /// The configuration, or exit 78 with every problem on standard error.
    ///
    /// A command that needs no secrets (it talks to the agent or reads the
    /// database) passes `fillingReferences: false`: it then works where the
    /// agent's credentials are not at hand, such as outside its systemd unit.
    func loadConfig(
        environment: [String: String] = ProcessInfo.processInfo.environment, fillingReferences: Bool = true
    ) throws -> AgentConfig {
        let path = ConfigLoader.path(explicit: config, environment: environment)
        do {
            let config = try ConfigLoader.load(
                path: path, environment: environment, fillingReferences: fillingReferences)
            LineLogHandler.format = config.logFormat
            return config
        } catch {
            Console.error(error.description)
            throw ExitStatus.config
        }
    }

    /// The logger commands use, at the level asked for, else at `defaultLevel`.
    func logger(defaultLevel: Logger.Level = .error) -> Logger {
        var logger = Logger(label: "sync-agent")
        logger.logLevel = logLevel?.level ?? defaultLevel
        return logger
    }
}

extension AgentConfig {
    /// Exits 64 unless every name is a configured resource.
    func checkResourceNames(_ names: [String]) throws {
        let unknown = names.filter { resource(named: $0) == nil }
        guard unknown.isEmpty else {
            let known = resources.map(\.name).joined(separator: ", ")
            let list = unknown.map { "\"\($0)\"" }.joined(separator: ", ")
            Console.error("sync-agent: no resource named \(list) in \(file) (resources: \(known))")
            throw ExitStatus.usage
        }
    }

    /// Opens the store as a process that syncs does (joining the fleet of a
    /// PostgreSQL store), or exits 1 with the reason.
    func openStoreToSync() async throws -> (store: any SyncStore, fleet: (any FleetLeases)?) {
        do {
            return try await openStoreJoiningFleet()
        } catch {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
    }
}
