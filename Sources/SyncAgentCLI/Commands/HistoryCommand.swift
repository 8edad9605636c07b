import ArgumentParser
import Foundation
import Store
import SyncCore

/// `sync-agent history`: recent syncs from the database.
struct HistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Show recent syncs, newest first.",
        discussion: """
            The store keeps the last \(SyncRunRow.keptPerResource) syncs of each resource. A sync still \
            running shows as running, with no duration yet.

            Examples:
              sync-agent history                  The last 20 syncs of every resource.
              sync-agent history users --limit 5  The last five syncs of users.
              sync-agent history --json           The same as JSON: {"runs": [...]}.
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Show only this resource's syncs.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The most syncs to show.", valueName: "n"))
    var limit = 20

    @Flag(help: "Print the syncs as JSON.")
    package var json = false

    func validate() throws {
        guard limit > 0 else { throw ValidationError("--limit must be at least 1.") }
    }

    package func run() async throws {
        let config = try options.loadConfig(fillingReferences: false)
        if let name { try config.checkResourceNames([name]) }
        let runs: [SyncRunRow]
        do {
            runs = try await config.openStore(mode: .readOnly).runs(of: name, limit: limit)
        } catch let error where error.kind == .missing {
            runs = []
        } catch {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
        if json {
            Console.out(JSONValue.object([.init("runs", .array(runs.map(\.json)))]).serialized(pretty: true))
        } else if runs.isEmpty {
            Console.out("No syncs recorded yet.")
        } else {
            Console.out(Self.render(runs))
        }
    }

    static func render(_ runs: [SyncRunRow], now: Date = Date()) -> String {
        var table = TextTable(
            "ID", "RESOURCE", "TRIGGER", "STARTED", "TOOK", "OUTCOME", "PAGES", "ITEMS", "CHANGES", "ERROR")
        for run in runs {
            let changes = run.changes
            table.add([
                "\(run.id)", run.resource, run.trigger.rawValue, TimestampText.relative(run.startedAt, now: now),
                // A sync still running has no outcome yet, nor a duration.
                run.durationMilliseconds.map { "\($0) ms" } ?? "-", run.outcome?.rawValue ?? "running",
                "\(run.counts.pages)", "\(run.counts.items)",
                "+\(changes.added) ~\(changes.changed) -\(changes.removed)", run.error?.message ?? "-",
            ])
        }
        return table.render(width: Terminal.width)
    }
}
