import Foundation
import Logging
import SyncCore

#if canImport(Glibc)
import Glibc
#endif

/// What a reload did.
enum ReloadOutcome: Sendable {
    /// The new configuration is in force.
    case reloaded(ReloadSummary)
    /// The file was refused: the previous configuration stays.
    case refused(ConfigError)
}

/// Reloads the running agent's configuration from its file
/// (docs/systemd.md#reloading), for `SIGHUP`, `POST /v1/reload` and
/// `sync-agent reload`: the new file is validated first, and an invalid one
/// (or one that changes what only a restart can) is refused with every
/// problem logged, the agent going on with the configuration it has.
struct ConfigReloader<C: Clock<Duration>>: Sendable {
    let engine: SyncEngine<C>
    /// The environment the agent started with: `${NAME}` and credentials.
    let environment: [String: String]
    let notifier: SystemdNotifier?
    let logger: Logger

    /// Reloads the configuration, asked by `who` (such as `SIGHUP`).
    func reload(asked who: String) async -> ReloadOutcome {
        let file = engine.config.file
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        notifier?.send("RELOADING=1\nMONOTONIC_USEC=\(Int(now.tv_sec) * 1_000_000 + now.tv_nsec / 1000)")
        defer { notifier?.send("READY=1") }
        let new: AgentConfig
        do throws(ConfigError) {
            new = try ConfigLoader.load(path: file, environment: environment)
            let problems = engine.config.restartOnlyChanges(to: new)
            guard problems.isEmpty else { throw ConfigError(file: file, problems: problems) }
        } catch {
            logger.error(
                "\(who): the configuration \(file) is not loaded; the agent goes on with the one it has. \(error)")
            return .refused(error)
        }
        LineLogHandler.format = new.logFormat
        let summary = await engine.reload(new)
        logger.notice("\(who): reloaded \(file): \(summary)")
        return .reloaded(summary)
    }

}
