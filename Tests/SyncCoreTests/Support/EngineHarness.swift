import Foundation
import Store
import Streams
import StreamsTesting
import Synchronization

@testable import SyncCore

/// A ``SyncEngine`` on virtual time for unit tests: a real SQLite file in a
/// temporary folder, a ``ScriptedTransport`` instead of the network, and a
/// connectivity monitor whose probe answers what the test says.
///
/// Time moves only when the test advances ``clock``; the tests wait for what
/// they can observe (a status, a request, a sleeper) before they move it,
/// because the database's work happens off the test's executor.
final class EngineHarness: Sendable {
    let clock = VirtualClock()
    let transport: ScriptedTransport
    let folder: String
    let config: AgentConfig
    let store: any SyncStore
    let monitor: ConnectivityMonitor<VirtualClock>
    let engine: SyncEngine<VirtualClock>
    let logs = LogCapture()
    /// What the probe answers, and how many probes ran.
    let probe = ProbeScript()

    /// The virtual wall clock: a fixed day plus the virtual clock's offset.
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    /// The lock file of the database, when the engine syncs under it.
    let lock: RefreshLock?

    /// An engine for `resources` (JSON objects), with `defaults` and `topLevel` (JSON members);
    /// with `locking`, it syncs under the database's ``RefreshLock``, as the agent does.
    init(
        defaults: String = "", topLevel: String = "", resources: [String], rows: [ResourceRow] = [],
        locking: Bool = false
    ) throws {
        folder = NSTemporaryDirectory() + "sync-agent-engine-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let top = topLevel.isEmpty ? "" : topLevel + ", "
        let text = #"{\#(top)"defaults": {\#(defaults)}, "resources": [\#(resources.joined(separator: ","))]}"#
        config = try ConfigLoader.decode(Array(text.utf8), file: folder + "/config.json", environment: [:])
        store = try SQLiteStore(path: config.database)
        let lock = locking ? RefreshLock(database: config.database) : nil
        self.lock = lock
        transport = ScriptedTransport(clock: clock)
        let clock = clock
        let probe = probe
        monitor = ConnectivityMonitor(
            maxProbeInterval: .seconds(30), probeTarget: "tcp://upstream.test:80", clock: clock,
            logger: logs.logger,
            probe: { probe.run() },
            routes: { true })
        engine = SyncEngine(
            config: config, store: store, rows: rows, transport: transport, connectivity: monitor, clock: clock,
            logger: logs.logger, lock: lock, random: { 0 },
            now: { Self.epoch.addingTimeInterval(clock.now.offset.seconds) })
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Starts the engine on the test's executor; cancel the task to stop it.
    func start() -> Task<Void, Never> {
        Task.inheritingExecutor { await self.engine.run() }
    }

    /// Lets the engine's tasks reach their next wait, then moves time on by `seconds`.
    func advance(by seconds: Double) async {
        await TestExecutor.current?.settle()
        await clock.advance(by: .milliseconds(Int64(seconds * 1000)))
    }

    /// Moves time on to `seconds` after the start.
    func advance(to seconds: Double) async {
        await TestExecutor.current?.settle()
        await clock.advance(to: VirtualClock.Instant(offset: .milliseconds(Int64(seconds * 1000))))
    }

    /// Seconds since the start, in virtual time.
    var elapsed: Double { clock.now.offset.seconds }

    /// The status of `name`.
    func status(_ name: String) -> ResourceStatus {
        engine.status(of: name)!
    }

    /// Waits until `condition` holds for the statuses, following the engine's changes.
    func until(_ condition: @Sendable ([String: ResourceStatus]) -> Bool) async {
        var changes = engine.changes.makeAsyncIterator()
        while !condition(Dictionary(uniqueKeysWithValues: engine.statuses().map { ($0.name, $0) })) {
            _ = await changes.next()
        }
    }

    /// Waits until `count` requests were sent.
    func untilRequests(_ count: Int, _ fragment: String = "") async {
        while requestTimes(fragment).count < count { await Task.yield() }
    }

    /// The virtual times, in seconds, of the requests to URLs containing `fragment`.
    func requestTimes(_ fragment: String = "") -> [Double] {
        transport.requests.filter { fragment.isEmpty || $0.url.contains(fragment) }.map { $0.at.seconds }
    }

    /// The virtual wall-clock time `seconds` after the start.
    static func date(_ seconds: Double) -> Date {
        epoch.addingTimeInterval(seconds)
    }
}

/// What the harness's probe answers.
final class ProbeScript: Sendable {
    private let state = Mutex((reaches: true, count: 0))

    /// Whether the probe reaches its target.
    var reaches: Bool {
        get { state.withLock { $0.reaches } }
        set { state.withLock { $0.reaches = newValue } }
    }

    /// How many probes ran.
    var count: Int { state.withLock { $0.count } }

    func run() -> Bool {
        state.withLock { state in
            state.count += 1
            return state.reaches
        }
    }
}

/// A resource of the scripted upstream: one page at `http://upstream.test/NAME`.
func scriptedResource(_ name: String, _ extra: String = "") -> String {
    let more = extra.isEmpty ? "" : ", " + extra
    return #"{"name": "\#(name)", "url": "http://upstream.test/\#(name)", "items": "/items", "key": "/id"\#(more)}"#
}

/// A page of items with these keys.
func page(_ keys: [Int]) -> HTTPResponseData {
    ScriptedTransport.json(#"{"items": [\#(keys.map { #"{"id": \#($0)}"# }.joined(separator: ","))]}"#)
}
