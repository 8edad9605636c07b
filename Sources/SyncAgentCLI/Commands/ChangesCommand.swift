import ArgumentParser
import Foundation
import Store
import SyncCore

/// `sync-agent changes`: the change feed, read from the database.
struct ChangesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "changes",
        abstract: "Show the change feed: records inserted, updated and deleted, in order.",
        discussion: """
            Every sync that changes records adds one change per record to the feed, in the same \
            transaction. Each change has a seq that only grows: a program that keeps the last seq \
            it handled asks for what came after it with --after, and never misses nor repeats a \
            change. It reads the database, whether or not the agent runs.

            Changes are kept for as long as "changes" in the configuration says (a week by \
            default). When some after --after were pruned before they were read, the command \
            says so on stderr ("missed": true with --json): read the records again, then follow \
            from the newest seq.

            Examples:
              sync-agent changes                      The last 20 changes.
              sync-agent changes users --after 1200   Every change of users after 1200.
              sync-agent changes --follow             The last 20, then each new one.
              sync-agent changes --after 0 --json     {"changes": [...], "next", "missed"}
              sync-agent changes --after 9 --follow --json | jq .key
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("Show only this resource's changes.", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("Show the changes after this seq (all of them, unless --limit).", valueName: "seq"))
    var after: Int64?

    @Option(help: ArgumentHelp("The most changes to show (default: 20 without --after).", valueName: "n"))
    var limit: Int?

    @Flag(help: "Keep printing new changes as syncs make them, until Ctrl-C.")
    var follow = false

    @Flag(help: "Print the changes as JSON (with --follow, one change per line).")
    package var json = false

    /// How often --follow looks for new changes.
    static let pollInterval: Duration = .milliseconds(500)

    func validate() throws {
        if let after, after < 0 { throw ValidationError("--after must be 0 or more.") }
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1.") }
    }

    package func run() async throws {
        let config = try options.loadConfig(fillingReferences: false)
        if let name { try config.checkResourceNames([name]) }
        do {
            try await show(config)
        } catch let error as StoreError {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
    }

    /// The store `config` names, or `nil` when there is none yet.
    private static func open(_ config: AgentConfig) async throws -> (any SyncStore)? {
        do {
            return try await config.openStore(mode: .readOnly)
        } catch let error where error.kind == .missing {
            return nil
        }
    }

    private func show(_ config: AgentConfig) async throws {
        var store = try await Self.open(config)
        var first = ChangePage(changes: [], next: after ?? 0, missed: false)
        if let store { first = try await firstChanges(store) }
        if first.missed { Self.warnMissed(after: after ?? 0) }
        guard follow else {
            if json {
                Console.out(ChangeFeed.json(first).serialized(pretty: true))
            } else if first.changes.isEmpty {
                Console.out("No changes recorded yet.")
            } else {
                Console.out(Self.render(first.changes))
            }
            return
        }
        var shownHeader = show(first.changes, header: true)
        var next = first.next
        var printed = first.changes.count
        Console.flush()
        // Followed: what the syncs add from now on, as they add it.
        while limit.map({ printed < $0 }) ?? true {
            try await Task.sleep(for: Self.pollInterval)
            if store == nil { store = try await Self.open(config) }
            guard let store else { continue }
            let page = try await store.changes(of: name, after: next, limit: ChangeFeed.maxLimit)
            if page.missed { Self.warnMissed(after: next) }
            var changes = page.changes
            if let limit { changes = Array(changes.prefix(limit - printed)) }
            next = changes.last?.seq ?? next
            printed += changes.count
            if show(changes, header: !shownHeader) { shownHeader = true }
            Console.flush()
        }
    }

    /// The changes to show first: after --after (every one, or --limit), else the newest --limit (20).
    private func firstChanges(_ store: any SyncStore) async throws(StoreError) -> ChangePage {
        guard let after else {
            let newest = try await store.latestChanges(of: name, count: limit ?? 20)
            let next: Int64
            if let last = newest.last { next = last.seq } else { next = try await store.lastChangeSeq() }
            return ChangePage(changes: newest, next: next, missed: false)
        }
        var all = ChangePage(changes: [], next: after, missed: false)
        while limit.map({ all.changes.count < $0 }) ?? true {
            let want = min(ChangeFeed.maxLimit, limit.map { $0 - all.changes.count } ?? .max)
            let page = try await store.changes(of: name, after: all.next, limit: want)
            all.missed = all.missed || page.missed
            all.changes += page.changes
            all.next = page.next
            if page.changes.count < want { break }
        }
        return all
    }

    /// Prints `changes`, as a table (with its header if `header`) or one JSON
    /// object per line; returns whether it printed a header.
    private func show(_ changes: [ChangeRow], header: Bool) -> Bool {
        guard !changes.isEmpty else { return false }
        if json {
            for change in changes { Console.out(ChangeFeed.json(change).serialized()) }
            return false
        }
        Console.out(Self.render(changes, header: header))
        return header
    }

    static func render(_ changes: [ChangeRow], header: Bool = true) -> String {
        var table = TextTable("SEQ", "AT", "RESOURCE", "OP", "KEY")
        for change in changes {
            table.add([
                "\(change.seq)", TimestampText.string(from: change.at), change.resource, change.op.rawValue, change.key,
            ])
        }
        let text = table.render(width: Terminal.width)
        guard !header else { return text }
        return text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst().joined()
    }

    private static func warnMissed(after seq: Int64) {
        Console.error(
            "sync-agent: changes after seq \(seq) were pruned before they were read: "
                + "read the records again, then follow from the newest seq")
    }
}
