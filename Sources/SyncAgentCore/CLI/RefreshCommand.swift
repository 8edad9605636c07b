import ArgumentParser
import Store

/// `sync-agent refresh`: syncs resources now.
struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "refresh",
        abstract: "Sync resources now.",
        discussion: """
            Syncs the named resources (every resource when none is named) and prints one \
            line per resource. A request that fails with a transient error (a network fault, \
            a timeout, 429 or 5xx) is retried as the resource's retry policy says, and each \
            retry is reported as it happens. Two refreshes of the same resource at the same \
            time make one upstream request: the second waits for the first and reports its \
            result as joined.

            Exit codes: 0 every resource succeeded or was not modified; 1 any failed or gave \
            up retrying; 75 offline; 78 bad configuration.

            Examples:
              sync-agent refresh                       Sync everything.
              sync-agent refresh users groups          Sync two resources.
              sync-agent refresh users --json          Print the Result objects as JSON.
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The resources to sync (all when none is named).", valueName: "name"))
    var names: [String] = []

    @Flag(help: "Print the results as JSON: {\"results\": [Result…]}.")
    var json = false

    func run() async throws {
        let config = try options.loadConfig()
        try config.checkResourceNames(names)
        let results: [SyncResult]
        if let answered = await refreshThroughAgent(config) {
            results = answered
        } else {
            results = try await refreshInProcess(config)
        }
        if json {
            Console.out(JSONValue.object([.init("results", .array(results.map(\.json)))]).serialized(pretty: true))
        } else {
            Console.out(Self.render(results))
        }
        if let code = Self.exitCode(results) { throw code }
    }

    /// The results of the running agent, which syncs (or joins its syncs in
    /// flight) for us; `nil` when no agent answers on the socket.
    private func refreshThroughAgent(_ config: AgentConfig) async -> [SyncResult]? {
        guard let agent = AgentClient.connect(socket: config.socket) else { return nil }
        do {
            let results = try await agent.refresh(names)
            await agent.shutdown()
            return results
        } catch {
            await agent.shutdown()
            Console.error("sync-agent: \(error); refreshing in this process instead")
            return nil
        }
    }

    /// Syncs in this process, with a progress line on a terminal.
    private func refreshInProcess(_ config: AgentConfig) async throws -> [SyncResult] {
        let store = try config.openStore()
        let transport = HTTPTransport()
        let line = Terminal.standardErrorWidth.map { width in
            ProgressLine(clock: ContinuousClock(), width: width) { Console.errorText($0) }
        }
        let drawing = Task { await line?.run() }
        let results = await LocalRefresh(
            config: config, store: store, transport: transport, logger: options.logger(),
            onProgress: { progress in
                // On a terminal the line shows retries; otherwise each is a line of its own.
                if let line {
                    line.update(progress)
                } else if let notice = progress.retry {
                    Console.error("\(progress.resource): \(notice.sentence)")
                }
            }
        ).refresh(names)
        drawing.cancel()
        await drawing.value
        line?.finish()
        await transport.shutdown()
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
        case .offline: "offline"
        case .cancelled: "cancelled"
        }
    }

    static func detail(_ result: SyncResult) -> String {
        var parts: [String] = []
        switch result.outcome {
        case .success:
            let pages = result.pages == 1 ? "1 page" : "\(result.pages) pages"
            let items = result.items == 1 ? "1 item" : "\(result.items) items"
            let changes = result.changes
            parts.append(
                "\(pages), \(items) (\(changes.added) new, \(changes.changed) changed, \(changes.removed) removed)")
        case .notModified:
            break
        default:
            parts.append(result.error?.message ?? "")
        }
        if result.attempts > 1 { parts.append("\(result.attempts) attempts") }
        parts.append("\(result.durationMilliseconds) ms")
        if result.joined { parts.append("joined a sync in progress") }
        return parts.filter { !$0.isEmpty }.joined(separator: ", ")
    }

    /// 0 (`nil`) when all succeeded; 1 when any failed; else 75 when any was offline.
    static func exitCode(_ results: [SyncResult]) -> ExitCode? {
        if results.contains(where: { [.failed, .gaveUp, .cancelled].contains($0.outcome) }) {
            return ExitStatus.failure
        }
        if results.contains(where: { $0.outcome == .offline }) { return ExitStatus.offline }
        return nil
    }
}
