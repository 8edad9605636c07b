import ArgumentParser
import Store
import SyncAgentDaemon
import SyncCore

/// `sync-agent refresh`: syncs resources now.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Sync resources now.",
        discussion: """
            Syncs the named resources (every resource when none is named) and prints one \
            line per resource. When an agent answers on the configured socket, the agent \
            does the work: a refresh joins a sync already in flight rather than start \
            another (reported as "joined"). With no agent, it syncs in this process, and two \
            such refreshes of one resource still make one upstream request.

            A request that fails with a transient error (a network fault, a timeout, 5xx) is \
            retried as the resource's retry policy says; a rate limit (429, or 403 with no \
            quota left) is waited out until its reset, using no attempt, for at most \
            rateLimit.maxWait. On a terminal, a refresh still running after 100 ms shows a \
            live line on standard error (pages, items, retries, rate-limit waits, "taking \
            longer than expected"); elsewhere each retry, each wait and each slow sync is \
            one line on standard error.

            Exit codes: 0 every resource succeeded or was not modified; 1 any failed or gave \
            up retrying; 75 offline, or rate limited past rateLimit.maxWait (try again \
            later); 78 bad configuration.

            Examples:
              sync-agent refresh                       Sync everything.
              sync-agent refresh users groups          Sync two resources.
              sync-agent refresh users --json          Print the Result objects as JSON.
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The resources to sync (all when none is named).", valueName: "name"))
    var names: [String] = []

    @Flag(help: "Print the results as JSON: {\"results\": [Result…]}.")
    package var json = false

    package func run() async throws {
        // The agent has the secrets; this process needs them only to sync itself.
        let config = try options.loadConfig(fillingReferences: false)
        try config.checkResourceNames(names)
        let selected = names.isEmpty ? config.resources : config.resources.filter { names.contains($0.name) }
        let results = try await RefreshReporter.showing { report in
            if let answered = await refreshThroughAgent(config, selected, report: report) {
                return answered
            }
            return try await refreshInProcess(try options.loadConfig(), report: report)
        }
        if json {
            Console.out(JSONValue(encoding: ResultsAnswer(results: results)).serialized(pretty: true))
        } else {
            Console.out(Self.render(results))
        }
        if let code = Self.exitCode(results) { throw code }
    }

    /// The results of the running agent, which syncs (or joins its syncs in
    /// flight) for us and streams what they report; `nil` when no agent
    /// answers on the socket.
    private func refreshThroughAgent(
        _ config: AgentConfig, _ resources: [ResourceConfig], report: RefreshReporter
    ) async -> [SyncResult]? {
        guard let agent = AgentClient.connect(socket: config.socket) else { return nil }
        do {
            let results = try await agent.refresh(resources, onActivity: report.report)
            await agent.shutdown()
            return results
        } catch {
            await agent.shutdown()
            report.note("sync-agent: \(error); refreshing in this process instead")
            return nil
        }
    }

    /// Syncs in this process.
    private func refreshInProcess(_ config: AgentConfig, report: RefreshReporter) async throws -> [SyncResult] {
        let (store, fleet) = try await config.openStoreToSync()
        let transport = HTTPTransport()
        let results = await LocalRefresh(
            config: config, store: store, fleet: fleet, transport: transport, logger: options.logger(),
            onActivity: report.report
        ).refresh(names)
        await transport.shutdown()
        await store.close()
        return results
    }

    /// One aligned line per result.
    static func render(_ results: [SyncResult]) -> String {
        var table = TextTable()
        for result in results {
            table.add([result.resource, outcomeText(result), detail(result)])
        }
        return table.render(width: Terminal.width)
    }

    static func outcomeText(_ result: SyncResult) -> String {
        switch result.outcome {
        case .success: "synced"
        case .notModified: "not modified"
        case .failed: "failed"
        case .gaveUp: "gave up"
        case .rateLimited: "rate limited"
        case .offline: "offline"
        case .cancelled: "cancelled"
        }
    }

    static func detail(_ result: SyncResult) -> String {
        var parts: [String] = []
        switch result.outcome {
        case .success:
            let pages = result.counts.pages == 1 ? "1 page" : "\(result.counts.pages) pages"
            let items = result.counts.items == 1 ? "1 item" : "\(result.counts.items) items"
            let changes = result.changes
            parts.append(
                "\(pages), \(items) (\(changes.added) new, \(changes.changed) changed, \(changes.removed) removed)")
        case .notModified:
            break
        default:
            parts.append(result.error?.message ?? "")
        }
        if result.counts.attempts > 1 { parts.append("\(result.counts.attempts) attempts") }
        parts.append("\(result.durationMilliseconds) ms")
        if result.joined { parts.append("joined a sync in progress") }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// 0 (`nil`) when all succeeded; 1 when any failed; else 75 (try again
    /// later) when any was offline or rate limited past `rateLimit.maxWait`.
    static func exitCode(_ results: [SyncResult]) -> ExitCode? {
        if results.contains(where: { [.failed, .gaveUp, .cancelled].contains($0.outcome) }) {
            return ExitStatus.failure
        }
        if results.contains(where: { $0.outcome == .offline || $0.outcome == .rateLimited }) {
            return ExitStatus.offline
        }
        return nil
    }
}
