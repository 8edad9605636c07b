import ArgumentParser
import SyncAgentDaemon
import SyncCore

/// `sync-agent reload`: the running agent reads its configuration again.
struct ReloadCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reload",
        abstract: "Make the running agent read its configuration again.",
        discussion: """
            Asks the agent over its socket to reload the configuration file it was started with, \
            as SIGHUP does, and prints what changed. The agent validates the file first: an \
            invalid one (or one that changes database, socket, socketMode or connectivity, which \
            take a restart) is not loaded, its problems are printed, and the agent goes on as it \
            was. Resources added start syncing, removed ones stop (their records stay), changed \
            ones are scheduled anew; the others keep their state and their syncs in flight.

            Exit codes: 0 reloaded (or nothing changed); 1 the agent stopped answering; 3 the \
            agent is not running; 78 the configuration was not loaded.

            Examples:
              sync-agent reload                    After editing the configuration.
              sync-agent reload -c ./config.json   The agent of that configuration.
              systemctl reload sync-agent          The same, through the unit's ExecReload=.
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let config = try options.loadConfig(fillingReferences: false)
        guard let agent = AgentClient.connect(socket: config.socket) else {
            Console.error("sync-agent: the agent is not running (nothing answers at \(config.socket))")
            throw ExitStatus.notRunning
        }
        let answer: AgentClient.ReloadReply
        do {
            answer = try await agent.reload()
            await agent.shutdown()
        } catch {
            await agent.shutdown()
            Console.error("sync-agent: \(error)")
            throw ExitStatus.failure
        }
        switch answer {
        case .reloaded(let summary):
            Console.out("reloaded \(config.file): \(summary)")
        case .refused(let refusal):
            Console.error("sync-agent: \(refusal.error.message):")
            for problem in refusal.error.problems ?? [] { Console.error("  \(problem)") }
            throw ExitStatus.config
        }
    }

}
