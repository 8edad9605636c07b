import ArgumentParser
import Foundation
import Store

/// `sync-agent status`: the state of each resource.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the state of each resource.",
        discussion: """
            Asks the running agent over its socket; when none answers, prints the last state \
            stored in the database and exits 3.

            Examples:
              sync-agent status                 A table: state, last success, errors.
              sync-agent status users --json    One resource, as JSON.
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Show only this resource.", valueName: "name"))
    var name: String?

    @Flag(help: "Print the status as JSON: {\"agent\": …, \"resources\": [Resource…]}.")
    var json = false

    func run() async throws {
        let config = try options.loadConfig()
        if let name { try config.checkResourceNames([name]) }
        if let agent = AgentClient.connect(socket: config.socket) {
            do {
                let (fields, statuses) = try await agent.status()
                await agent.shutdown()
                print(statuses.filter { name == nil || $0.name == name }, agent: fields)
                return
            } catch {
                await agent.shutdown()
                Console.error("sync-agent: \(error)")
            }
        }
        let rows: [ResourceRow]
        do {
            rows = try await SyncStore(path: config.database, mode: .readOnly).resources()
        } catch let error where error.kind == .missing {
            rows = []
        } catch {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
        let statuses = Self.statuses(config: config, rows: rows).filter { name == nil || $0.name == name }
        Console.error("sync-agent: the agent is not running; showing the state stored in \(config.database)")
        print(statuses, agent: .null)
        throw ExitStatus.notRunning
    }

    /// Prints the statuses, with the agent's fields (`null` when none runs).
    private func print(_ statuses: [ResourceStatus], agent: JSONValue) {
        if json {
            let object: JSONValue = ["agent": agent, "resources": .array(statuses.map(\.json))]
            Console.out(object.serialized(pretty: true))
            return
        }
        if let pid = agent["pid"]?.intValue {
            let since = agent["startedAt"]?.stringValue.flatMap(Timestamp.date(from:))
            let online = agent["online"]?.boolValue == false ? "offline" : "online"
            Console.out("agent: running (pid \(pid), started \(TimestampText.relative(since))), \(online)")
        }
        Console.out(Self.render(statuses))
    }

    /// One status per configured resource, from its stored row if it has one.
    static func statuses(config: AgentConfig, rows: [ResourceRow]) -> [ResourceStatus] {
        let byName = Dictionary(rows.map { ($0.name, $0) }) { first, _ in first }
        return config.resources.map { ResourceStatus(name: $0.name, row: byName[$0.name]) }
    }

    static func render(_ statuses: [ResourceStatus], now: Date = Date()) -> String {
        var table = TextTable("RESOURCE", "STATE", "LAST SUCCESS", "NEXT SYNC", "ITEMS", "LAST ERROR")
        for status in statuses {
            table.add([
                status.name,
                status.lastAttemptAt == nil ? "never synced" : status.state.rawValue,
                TimestampText.relative(status.lastSuccessAt, now: now),
                status.nextSyncAt.map { TimestampText.relative($0, now: now) } ?? "-",
                "\(status.items)",
                status.lastError?.message ?? "-",
            ])
        }
        return table.render(width: Terminal.width)
    }
}
