import ArgumentParser
import Foundation
import Testing

@testable import SyncAgentCLI
@testable import SyncAgentDaemon
@testable import SyncCore

/// `--help` is part of the interface: each page is pinned, at 80 columns, in
/// `Help/<command>.txt`. After changing a help text on purpose, run the tests
/// with `SYNC_AGENT_RECORD_HELP=1` to rewrite the files, and review the diff.
@Suite(.timeLimit(.minutes(1))) struct HelpTests {
    /// The root command and every subcommand, so that a new command is pinned too.
    static let pages: [(String, any ParsableCommand.Type)] =
        [("sync-agent", SyncAgentCommand.self)]
        + SyncAgentCommand.configuration.subcommands.map { ($0.configuration.commandName ?? "\($0)", $0) }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Help")

    @Test(arguments: pages.map(\.0))
    func helpIsPinned(_ name: String) throws {
        let command = try #require(Self.pages.first { $0.0 == name }?.1)
        let text = SyncAgentCommand.helpMessage(for: command, columns: 80) + "\n"
        let file = Self.folder.appendingPathComponent("\(name).txt")
        if ProcessInfo.processInfo.environment["SYNC_AGENT_RECORD_HELP"] == "1" {
            try Data(text.utf8).write(to: file)
        }
        let pinned = try String(contentsOf: file, encoding: .utf8)
        #expect(text == pinned)
    }

    @Test func everySubcommandHelpTeachesByExample() {
        for (name, command) in Self.pages {
            let text = SyncAgentCommand.helpMessage(for: command, columns: 80)
            #expect(text.contains("Example"), "\(name) has no examples")
        }
    }
}
