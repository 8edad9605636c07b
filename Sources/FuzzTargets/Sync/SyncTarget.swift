import Foundation
import Logging
import Store
import Streams
import SyncCore
import Synchronization

extension FuzzTarget {
    /// Whole syncs of one resource against a scripted upstream
    /// (``SyncScript``): a configuration of any pagination style and any kind of
    /// `since`, snapshot or incremental, then one to three syncs, each answered
    /// with the bodies and headers the input chooses, in-process behind the
    /// transport's seam or, for some inputs, over loopback through the agent's
    /// HTTP transport. The syncs run on a ``LeapingClock``, so no wait sleeps.
    ///
    /// After each sync the target reads the store and judges it by what it
    /// served (``SyncJudge``): the cursor it keeps is unchanged by a sync that did
    /// not succeed, and after a success exactly the value the walk served (the
    /// largest item time, the body's time, the token or link), compared as an
    /// instant or as exact text; a value that is no time of the years 1 to 9999
    /// is refused; a refusal names the value; the value sent next is the one
    /// kept; a snapshot holds the keys served and the count the API stated; no
    /// wait passes its documented bound.
    static let sync = FuzzTarget(
        name: "sync",
        property: "whole syncs never trap and each ends in a documented outcome (never a hang), "
            + "and a kept value reads back as exactly what was seen, or was refused"
    ) { input throws(PropertyViolation) in
        try SyncHarness.shared().check(SyncScript(input))
    }
}

/// What the `sync` target's inputs share in one process: the SQLite store (a
/// file in `/dev/shm`, made again every ``storeUses`` inputs), the agent's HTTP
/// transport and the loopback server for inputs on the wire, and the
/// configurations loaded so far. Each input syncs a resource of its own name,
/// so that nothing of one input is seen by another.
///
/// Thread-safety: `Sendable`; its state is behind `Mutex`es.
final class SyncHarness: Sendable {
    private let folder: String
    private let state: Mutex<(store: SQLiteStore?, uses: Int, inputs: Int)>
    /// The wall-clock time of the input that runs, which the store stamps.
    private let wall = Mutex<@Sendable () -> Date>({ SyncHarness.epoch })
    private let configs = Mutex<[String: AgentConfig]>([:])
    private let wire: Mutex<(transport: HTTPTransport, server: LoopbackUpstream)?> = Mutex(nil)
    /// The classes of violation to let pass (``SyncViolation/Class``), from `$SYNC_AGENT_FUZZ_SKIP`.
    let skipped: Set<String>
    /// Whether a violation shows every exchange of its input ($SYNC_AGENT_FUZZ_TRACE=1),
    /// or every input does, on standard error ($SYNC_AGENT_FUZZ_TRACE=all).
    let traced: Bool
    let tracedAll: Bool

    /// The wall-clock time at the start of each input.
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)
    /// How many inputs use one database file.
    static let storeUses = 5000
    /// The longest the syncs of an input may take, in real time, before they count as hung.
    static let patience: DispatchTimeInterval = .seconds(20)

    private init() {
        folder = Self.makeFolder()
        state = Mutex((nil, 0, 0))
        let trace = ProcessInfo.processInfo.environment["SYNC_AGENT_FUZZ_TRACE"]
        traced = trace == "1" || trace == "all"
        tracedAll = trace == "all"
        skipped = Set(
            (ProcessInfo.processInfo.environment["SYNC_AGENT_FUZZ_SKIP"] ?? "").split(separator: ",").map {
                String($0)
            })
    }

    private static let made = SyncHarness()

    static func shared() -> SyncHarness { made }

    /// A folder in `/dev/shm` (memory), else in `/tmp`.
    private static func makeFolder() -> String {
        var template = Array("/dev/shm/sa-sync-XXXXXX".utf8CString)
        if let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) {
            let folder = String(cString: made)
            atexit(removeFolder)
            madeFolder.withLock { $0 = folder }
            return folder
        }
        return TemporaryFolder.make("sa-sync")
    }

    private static let madeFolder = Mutex<String?>(nil)
    private static let removeFolder: @convention(c) () -> Void = {
        if let folder = SyncHarness.madeFolder.withLock({ $0 }) { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Runs the script's syncs and judges each; throws what does not hold.
    func check(_ script: SyncScript) throws(PropertyViolation) {
        if skipped.contains("out-of-range"), script.holdsOutOfRangeTimes { return }
        let result = Mutex<Result<[SyncViolation], PropertyViolation>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(PropertyViolation) {
                let found = try await self.run(script)
                result.withLock { $0 = .success(found) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + Self.patience) == .success else {
            guard !skipped.contains(SyncViolation.Class.hang.rawValue) else { return }
            throw PropertyViolation(
                "[hang] the syncs of \(script.config) did not end within \(Self.patience) (answers: \(script.answers.count))"
            )
        }
        let found = try result.withLock { $0 }!.get().filter { !skipped.contains($0.kind.rawValue) }
        if let first = found.first {
            throw PropertyViolation(found.count == 1 ? first.description : "\(first) (and \(found.count - 1) more)")
        }
    }

    private func run(_ script: SyncScript) async throws(PropertyViolation) -> [SyncViolation] {
        let (store, name) = try await storeForInput()
        let clock = LeapingClock()
        let now: @Sendable () -> Date = { SyncHarness.epoch.addingTimeInterval(clock.now.offset.seconds) }
        wall.withLock { $0 = now }
        defer { clock.close() }
        let upstream: ScriptedUpstream
        let transport: any PageTransport
        if script.config.wire {
            let (http, server) = try wireParts()
            upstream = ScriptedUpstream(script, base: server.base)
            server.current = upstream
            transport = http
        } else {
            upstream = ScriptedUpstream(script, base: "http://upstream.test")
            transport = upstream
        }
        let config = try loaded(script.config, base: upstream.base)
        var resource = config.resources[0]
        resource.name = name
        let logger = Logger(label: "sync-agent-fuzz") { _ in SwiftLogNoOpLogHandler() }
        let context = SyncContext(
            store: store, transport: transport, redactor: config.redactor, logger: logger, clock: clock,
            timers: Timers(clock: clock), now: now, random: { 0.5 },
            budgets: RequestBudgets(resources: [resource], clock: clock),
            tokens: OAuth2Tokens(transport: transport, store: nil, logger: logger, clock: clock, now: now))
        var judge = SyncJudge(config: script.config, upstream: upstream)
        var found: [SyncViolation] = []
        var outcomes: [String] = []
        for number in 1...script.syncs {
            upstream.begin(sync: number)
            let before = try await read { try await store.cursor(of: name) }
            let waited = clock.waits.count
            let report = await context.sync(resource, trigger: SyncTrigger.refresh)
            let after = try await read { try await store.cursor(of: name) }
            let keys = script.config.incremental ? [] : try await read { try await store.records(of: name) }.map(\.key)
            found += judge.judge(
                SyncJudge.Sync(
                    number: number, report: report, before: before, after: after, keys: keys,
                    waits: Array(clock.waits.dropFirst(waited))))
            outcomes.append(
                "sync \(number): \(report.result.outcome.rawValue)"
                    + (report.result.error.map { " (\($0.message))" } ?? "")
                    + ", keeps \(after?.since.map { KeptValue($0).description } ?? "nothing")")
            if !found.isEmpty { break }
        }
        if tracedAll {
            let lines = [script.config.description] + upstream.log.map(\.trace) + outcomes
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
        if traced, !found.isEmpty, var first = found.first {
            first.detail += "\n" + upstream.log.map(\.trace).joined(separator: "\n")
            found[0] = first
        }
        if script.config.wire { wire.withLock { $0 }?.server.current = nil }
        return found
    }

    /// The store, made again after ``storeUses`` inputs, and a resource name no input used before.
    private func storeForInput() async throws(PropertyViolation) -> (SQLiteStore, String) {
        let (old, store, input) = try state.withLock { state throws(PropertyViolation) in
            state.inputs += 1
            var old: SQLiteStore?
            if state.uses >= Self.storeUses {
                old = state.store
                state.store = nil
            }
            if state.store == nil {
                let path = folder + "/sync-\(state.inputs).db"
                do {
                    state.store = try SQLiteStore(path: path) { self.wall.withLock { $0 }() }
                } catch {
                    throw PropertyViolation("the store does not open: \(error)")
                }
                state.uses = 0
            }
            state.uses += 1
            return (old, state.store!, state.inputs)
        }
        if let old {
            await old.close()
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: old.path + suffix) }
        }
        return (store, "s\(input)")
    }

    /// The HTTP transport and the loopback server, started at the first input on the wire.
    private func wireParts() throws(PropertyViolation) -> (HTTPTransport, LoopbackUpstream) {
        try wire.withLock { parts throws(PropertyViolation) in
            if let parts { return parts }
            do {
                let made = (HTTPTransport(), try LoopbackUpstream.start())
                parts = made
                return made
            } catch {
                throw PropertyViolation("the loopback upstream does not start: \(error)")
            }
        }
    }

    /// The configuration of `choice` at `base`, loaded as the agent loads a file, once per text.
    private func loaded(_ choice: SyncConfigChoice, base: String) throws(PropertyViolation) -> AgentConfig {
        let text = #"{"database": "\#(folder)/unused.db", "resources": [\#(choice.json(name: "r", base: base))]}"#
        if let config = configs.withLock({ $0[text] }) { return config }
        do {
            let config = try ConfigLoader.decode(Array(text.utf8), file: folder + "/config.json", environment: [:])
            configs.withLock { $0[text] = config }
            return config
        } catch {
            throw PropertyViolation("the configuration is refused: \(error)\n  \(text)")
        }
    }

    private func read<T>(_ body: () async throws -> T) async throws(PropertyViolation) -> T {
        do {
            return try await body()
        } catch {
            throw PropertyViolation("the store cannot be read: \(error)")
        }
    }
}

extension SyncScript {
    /// Whether an answer holds a time that the target reads as out of years 1 to 9999 where the resource keeps one.
    var holdsOutOfRangeTimes: Bool {
        guard config.incremental, config.source.keepsTime else { return false }
        let milliseconds = config.format == .unixMilliseconds
        return answers.contains { answer in
            guard case .page(let page) = answer.body else { return false }
            let values =
                config.source == .field
                ? page.items.compactMap { $0.since ?? nil } : [page.kept ?? nil].compactMap { $0 }
            return values.contains { $0.time(millisecondUnits: milliseconds) == .outOfRange }
        }
    }
}

extension SyncConfigChoice: CustomStringConvertible {
    var description: String {
        var parts = [incremental ? "incremental" : "snapshot", style.rawValue]
        if inBody { parts.append("in body") }
        if hasMore { parts.append("hasMore") }
        if stopWhen { parts.append("stopWhen") }
        if let total { parts.append("total in \(total.rawValue)") }
        if let cap { parts.append("cap \(cap)") }
        if incremental {
            parts.append("since.\(source.rawValue)")
            if source.keepsTime { parts.append(format.rawValue) }
            if source != .link { parts.append("sent by \(placement.rawValue)") }
            if lookbackMilliseconds > 0 { parts.append("lookback \(lookbackMilliseconds)ms") }
            if expiredWhen { parts.append("expiredWhen 410") }
        }
        if deleted { parts.append("deleted") }
        if wire { parts.append("on the wire") }
        return "(" + parts.joined(separator: ", ") + ")"
    }
}
