import ArgumentParser
import SyncCore

/// `sync-agent`: the command line of docs/cli.md#command-line.
package struct SyncAgentCommand: AsyncParsableCommand {
    /// The root command: its help and subcommands.
    package static let configuration = CommandConfiguration(
        commandName: "sync-agent",
        abstract: "Keep a local SQLite copy of HTTP JSON APIs fresh.",
        discussion: """
            sync-agent loads data from HTTP JSON APIs into an SQLite database and keeps it \
            fresh: it follows every page, applies each sync in one transaction, and asks \
            only for what changed.

            Examples:
              sync-agent demo                      Watch it work against a built-in API; no setup.
              sync-agent validate -c config.json   Check a configuration.
              sync-agent run -c config.json        Run the agent in the foreground.
              sync-agent refresh -c config.json    Sync every resource now.
              sync-agent refresh users --json      Sync one; print the result as JSON.
              sync-agent status --watch            Follow each resource's state.
              sync-agent history users --limit 5   Show the last five syncs of users.
              sync-agent changes --follow          Follow the records inserted, updated, deleted.
              sync-agent columns orders            Infer the columns of orders' records.

            The configuration is --config FILE, else $SYNC_AGENT_CONFIG, else \
            /etc/sync-agent/config.json. Exit codes: 0 success, 1 failure, 3 agent not \
            running (status), 64 bad usage, 75 offline, 78 bad configuration.
            """,
        version: SyncAgentVersion.current,
        subcommands: [
            RunCommand.self, RefreshCommand.self, StatusCommand.self, HistoryCommand.self, ChangesCommand.self,
            ColumnsCommand.self, ValidateCommand.self, ReloadCommand.self, DemoCommand.self,
        ]
    )

    /// Creates the command, as the parser does.
    package init() {}
}

extension SyncAgentCommand {
    /// Parses the arguments, runs the chosen subcommand and exits with its code.
    ///
    /// This is `AsyncParsableCommand.main()` spelled out: from top-level code the
    /// compiler picks the synchronous `ParsableCommand.main()`, which refuses
    /// asynchronous subcommands.
    package static func execute(_ arguments: [String]? = nil) async {
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
