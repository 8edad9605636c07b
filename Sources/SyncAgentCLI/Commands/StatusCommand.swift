import ArgumentParser
import Foundation
import Store
import SyncAgentDaemon
import SyncCore

/// `sync-agent status`: the state of each resource.
struct StatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status",
        abstract: "Show the state of each resource.",
        discussion: """
            Asks the running agent over its socket; when none answers, prints the last state \
            stored in the database and exits 3. With --watch it follows the agent's event \
            stream until Ctrl-C: on a terminal the table is redrawn in place; elsewhere each \
            change is one line (one Resource object per line with --json).

            Exit codes: 0 the agent answered; 3 the agent is not running (or stopped while \
            watched); 64 unknown resource name; 78 bad configuration.

            Examples:
              sync-agent status                     A table: state, last success, next sync, errors;
                                                    a summary when the terminal cannot hold it.
              sync-agent status --all | less        Every resource.
              sync-agent status users --json        One resource, as JSON.
              sync-agent status --watch             Follow every change until Ctrl-C.
              sync-agent status --watch --json | jq .state
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Show only this resource.", valueName: "name"))
    var name: String?

    @Flag(help: "Print the status as JSON: {\"agent\": …, \"resources\": [Resource…]}.")
    package var json = false

    @Flag(help: "Keep following changes until Ctrl-C.")
    var watch = false

    @Flag(help: "List every resource, even when a terminal cannot hold them (then a summary is shown).")
    var all = false

    package func run() async throws {
        let config = try options.loadConfig(fillingReferences: false)
        if let name { try config.checkResourceNames([name]) }
        if let agent = AgentClient.connect(socket: config.socket) {
            do {
                let answer = try await agent.status()
                if watch {
                    try await StatusWatch(name: name, json: json).run(agent, initial: answer.resources)
                    return
                }
                await agent.shutdown()
                print(answer.resources.filter { name == nil || $0.name == name }, agent: answer.agent)
                return
            } catch let code as ExitCode {
                await agent.shutdown()
                throw code
            } catch {
                await agent.shutdown()
                Console.error("sync-agent: \(error)")
            }
        }
        var rows: [ResourceRow] = []
        var misfits: [String: ColumnMisfit] = [:]
        do {
            let store = try await config.openStore(mode: .readOnly)
            rows = try await store.resources()
            misfits = try await store.typedTableMisfits()
        } catch let error where error.kind == .missing {
            // No copy yet: every resource never synced.
        } catch {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
        let statuses = Self.statuses(config: config, rows: rows, misfits: misfits).filter {
            name == nil || $0.name == name
        }
        Console.error("sync-agent: the agent is not running; showing the state stored in \(config.storeDescription)")
        print(statuses, agent: nil)
        throw ExitStatus.notRunning
    }

    /// Prints the statuses, with the agent's fields (`null` when none runs).
    private func print(_ statuses: [ResourceStatus], agent: AgentInfo?) {
        if json {
            let answer = StatusAnswer(agent: agent, resources: statuses)
            Console.out(JSONValue(encoding: answer).serialized(pretty: true))
            return
        }
        if let agent {
            let online = agent.online ? "online" : "offline"
            Console.out(
                "agent: running (pid \(agent.pid), started \(TimestampText.relative(agent.startedAt))), \(online)")
        }
        Console.out(Self.render(statuses, height: all ? nil : Terminal.height))
    }

    /// One status per configured resource, from its stored row if it has one,
    /// with its typed tables and the first misfit stored for them.
    package static func statuses(
        config: AgentConfig, rows: [ResourceRow], misfits: [String: ColumnMisfit] = [:]
    ) -> [ResourceStatus] {
        let byName = Dictionary(rows.map { ($0.name, $0) }) { first, _ in first }
        return config.resources.map { resource in
            var status = ResourceStatus(name: resource.name, row: byName[resource.name])
            status.columns = resource.table.map { ColumnsStatus(tables: $0.tableNames, misfit: misfits[resource.name]) }
            return status
        }
    }

    /// The table of `statuses`; when `height` lines cannot hold it (a terminal
    /// that many lines high), a summary: the count of each state, then the
    /// resources that are not idle, those that need a person first.
    static func render(
        _ statuses: [ResourceStatus], now: Date = Date(), width: Int? = Terminal.width,
        height: Int? = nil
    ) -> String {
        guard let height, statuses.count + 1 > height else { return table(statuses, now: now, width: width) }
        var counts: [String: Int] = [:]
        for status in statuses { counts[summaryState(status), default: 0] += 1 }
        let states = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let summary =
            "\(statuses.count) resources: " + states.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let notable = statuses.filter { summaryState($0) != "idle" }.enumerated()
            .sorted { (attention($0.element), $0.offset) < (attention($1.element), $1.offset) }.map(\.element)
        // The summary, the table's heading, the last line and the prompt take 4 lines.
        let shown = notable.prefix(max(0, height - 4))
        var lines = [summary]
        if !shown.isEmpty { lines.append(table(Array(shown), now: now, width: width)) }
        let more = notable.count - shown.count
        lines.append(
            (more > 0 ? "… and \(more) more not idle. " : "")
                + "Every resource: sync-agent status --all (or --json); one: sync-agent status NAME")
        return lines.joined(separator: "\n")
    }

    /// The state a summary counts: `never synced` apart from `idle`.
    private static func summaryState(_ status: ResourceStatus) -> String {
        status.lastAttemptAt == nil && status.state == .idle ? "never synced" : status.state.rawValue
    }

    /// Those that need a person first: failed, then retrying and waiting, then the rest.
    private static func attention(_ status: ResourceStatus) -> Int {
        switch status.state {
        case .failed: return 0
        case .retrying, .waiting: return 1
        case .offline: return 2
        case .syncing where status.slow: return 3
        default: return 4
        }
    }

    private static func table(_ statuses: [ResourceStatus], now: Date, width: Int?) -> String {
        // In a fleet, which agent holds each resource.
        let fleet = statuses.contains { $0.owner != nil }
        var table = TextTable()
        table.header =
            ["RESOURCE", "STATE", "LAST SUCCESS", "NEXT SYNC", "ITEMS"] + (fleet ? ["AGENT"] : []) + ["LAST ERROR"]
        for status in statuses {
            table.add(
                [
                    status.name,
                    stateText(status),
                    TimestampText.relative(status.lastSuccessAt, now: now),
                    status.nextSyncAt.map { TimestampText.relative($0, now: now) } ?? "-",
                    "\(status.items)",
                ] + (fleet ? [status.owner ?? "-"] : []) + [status.lastError?.message ?? "-"])
        }
        let misfits = statuses.compactMap { status in status.columns?.misfit.map { (status.name, $0) } }
        return ([table.render(width: width)] + misfits.map(misfitLine)).joined(separator: "\n")
    }

    /// The note under the table about a value stored as NULL in a typed column (docs/schema.md#typed-tables).
    static func misfitLine(_ resource: String, _ misfit: ColumnMisfit) -> String {
        "\(resource): a value does not fit column \(misfit.table).\(misfit.column) and is stored as NULL "
            + "(key \(misfit.key), \(misfit.pointer))"
    }

    /// The state as the table shows it: `never synced`, or the state with
    /// what is going on (`syncing, taking longer than expected`, `retrying
    /// (attempt 2)`, `waiting: rate limited until 10:42:07`).
    static func stateText(_ status: ResourceStatus) -> String {
        if status.lastAttemptAt == nil, status.state == .idle { return "never synced" }
        switch status.state {
        case .syncing where status.slow: return "syncing, \(ResourceMachine.slowMessage)"
        case .retrying where status.attempt > 1: return "retrying (attempt \(status.attempt))"
        case .waiting where status.message != nil: return "waiting: \(status.message ?? "")"
        default: return status.state.rawValue
        }
    }
}
