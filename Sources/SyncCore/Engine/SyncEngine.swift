import AsyncAlgorithms
import Foundation
import Logging
import Store
import Streams
import Synchronization

/// The running agent's syncs (SPEC §1), expressed with the Streams operators:
///
/// - Each resource is polled with `poll`: an `interval` (plus `pollJitter`)
///   after its last successful sync; a poll due while the machine is offline
///   is held with `pausable` until it is back. A sync that fails for good
///   (unrecoverable, or retries used up) stops the polls until a sync that
///   someone asked for succeeds.
/// - Every sync, whoever asks for it (a poll, a refresh, a dependency), goes
///   through one `InFlight`: at most one sync per resource, shared by all who
///   ask while it runs, each told whether it joined.
/// - Page requests retry with `retryIf` and wait while offline (see
///   ``ResourceFetch``); `withSlowSignal` marks a sync slow after `slowAfter`.
/// - A resource whose URL reads another's record syncs again when that record
///   changes, switching to the latest with `switchMap`: a sync in flight with
///   the old values is cancelled.
///
/// A sync that someone else started tells the resource's poll through
/// `poll`'s triggers; the poll then takes that sync's result as its own run:
/// a success restarts the interval, a failure for good stops the polls.
///
/// Each resource's state is a ``ResourceMachine``; ``changes`` tells every
/// change, ``activity`` what running syncs report, and ``metrics`` counts
/// syncs and requests.
///
/// Thread-safety: `Sendable`; its state is behind `Mutex`es.
package final class SyncEngine<C: Clock<Duration>>: Sendable {
    /// A proof of life for the systemd watchdog, given by the engine's own loop.
    package struct Heartbeat: Sendable {
        /// How often to beat.
        package var interval: Duration
        /// Called when the engine and its database answer.
        package var beat: @Sendable () -> Void

        /// A heartbeat every `interval`.
        package init(interval: Duration, beat: @escaping @Sendable () -> Void) {
            self.interval = interval
            self.beat = beat
        }
    }

    package let config: AgentConfig
    package let store: SyncStore
    /// When the engine was created.
    package let startedAt: Date
    /// Every change of a resource's status, in order.
    package let changes = PassthroughSubject<ResourceStatus, Never>()
    /// What running syncs report: pages, retries, slowness.
    package let activity = PassthroughSubject<SyncActivity, Never>()
    /// The counters of `GET /metrics`.
    package let metrics: AgentMetrics
    package let connectivity: ConnectivityMonitor<C>

    private let transport: any PageTransport
    private let clock: C
    private let random: @Sendable () -> Double
    /// The wall-clock time, for the statuses' timestamps.
    private let now: @Sendable () -> Date
    private let logger: Logger
    private let lock: RefreshLock?
    private let heartbeat: Heartbeat?
    private let firstRunAfter: [String: Duration]
    private let inFlight = InFlight<String, SyncResult>(policy: .runToCompletion)
    private let machines: Mutex<[String: ResourceMachine]>
    private let latest = Mutex<[String: SyncResult]>([:])
    private let syncCounter = Atomic<Int>(0)
    private let statusChanges = Atomic<Int>(0)
    private let watcherCounter = Atomic<Int>(0)
    /// Per resource: the refreshes waiting on it that want its activity, by ID.
    private let watchers = Mutex<[String: [Int: @Sendable (SyncActivity) -> Void]]>([:])
    private let stopping = Atomic<Bool>(false)
    /// Per resource: a sync of it ended (the poll takes its result).
    private let syncEnded: [String: PassthroughSubject<Void, Never>]
    /// Per dependent resource: a resource its URL reads has new data. Kept
    /// (the latest only) until the resource's follower reads it, so a change
    /// made before the follower starts is not lost.
    private let dependencyChanged: [String: (signals: AsyncStream<Void>, send: AsyncStream<Void>.Continuation)]

    /// Creates an engine over an open store.
    ///
    /// - Parameters:
    ///   - rows: The resources' rows as stored, for their last success.
    ///   - lock: The lock file that keeps `refresh` processes and the agent
    ///     from syncing one resource at the same time.
    ///   - random: Draws the jitter of polls and retries, in `0..<1`.
    ///   - heartbeat: The systemd watchdog's proof of life, if it watches.
    ///   - now: The wall-clock time, for the statuses' timestamps.
    package init(
        config: AgentConfig, store: SyncStore, rows: [ResourceRow], transport: any PageTransport,
        connectivity: ConnectivityMonitor<C>, clock: C, logger: Logger, lock: RefreshLock? = nil,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }, heartbeat: Heartbeat? = nil,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.config = config
        self.store = store
        self.transport = transport
        self.connectivity = connectivity
        self.clock = clock
        self.logger = logger
        self.lock = lock
        self.random = random
        self.heartbeat = heartbeat
        self.now = now
        metrics = AgentMetrics(resources: config.resources.map(\.name))
        let now = now()
        startedAt = now
        let rowsByName = Dictionary(rows.map { ($0.name, $0) }) { first, _ in first }
        var firstRunAfter: [String: Duration] = [:]
        var machines: [String: ResourceMachine] = [:]
        var syncEnded: [String: PassthroughSubject<Void, Never>] = [:]
        var dependencyChanged: [String: (signals: AsyncStream<Void>, send: AsyncStream<Void>.Continuation)] = [:]
        for resource in config.resources {
            let row = rowsByName[resource.name]
            let wait = Self.firstRunAfter(resource, lastSuccessAt: row?.lastSuccessAt, now: now)
            firstRunAfter[resource.name] = wait
            machines[resource.name] = ResourceMachine(
                name: resource.name, row: row, nextSyncAt: now.addingTimeInterval(wait.timeInterval))
            syncEnded[resource.name] = PassthroughSubject()
            if !resource.dependencies.isEmpty {
                let (signals, send) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
                dependencyChanged[resource.name] = (signals, send)
            }
        }
        self.firstRunAfter = firstRunAfter
        self.machines = Mutex(machines)
        self.syncEnded = syncEnded
        self.dependencyChanged = dependencyChanged
    }

    /// How long after the start a resource first syncs (SPEC §1): at once
    /// when it never succeeded or its last success is older than its interval.
    static func firstRunAfter(_ resource: ResourceConfig, lastSuccessAt: Date?, now: Date) -> Duration {
        guard let lastSuccessAt else { return .zero }
        let remaining = resource.settings.interval - .seconds(now.timeIntervalSince(lastSuccessAt))
        return max(.zero, remaining)
    }

    // MARK: - Status

    /// Every resource's status, in configuration order.
    package func statuses() -> [ResourceStatus] {
        machines.withLock { machines in config.resources.compactMap { machines[$0.name]?.status } }
    }

    /// The status of `name`, or `nil` for an unknown resource.
    package func status(of name: String) -> ResourceStatus? {
        machines.withLock { $0[name]?.status }
    }

    /// How many times a status has changed: equal counts, equal statuses.
    package var statusVersion: Int { statusChanges.load(ordering: .acquiring) }

    /// Applies an event to a resource's machine, performs its actions and
    /// tells ``changes`` when the status changed, and ``activity`` what the
    /// running sync reported (in the lock, so in order).
    private func update(_ name: String, _ event: ResourceMachine.Event) {
        let actions = machines.withLock { machines -> [ResourceMachine.Action] in
            guard let before = machines[name]?.status else { return [] }
            switch event {
            case .progressed(let sync, let progress) where machines[name]!.isCurrent(sync):
                publish(.progress(progress))
            case .retrying(let sync, let notice) where machines[name]!.isCurrent(sync):
                publish(.retry(resource: name, notice))
            default:
                break
            }
            let actions = machines[name]!.handle(event)
            let after = machines[name]!.status
            if after != before {
                statusChanges.add(1, ordering: .releasing)
                changes.send(after)
            }
            return actions
        }
        for action in actions {
            switch action {
            case .warnSlow:
                publish(.slow(resource: name))
                logger.warning("\(ResourceMachine.slowMessage)", metadata: [LogKey.resource: "\(name)"])
            }
        }
    }

    /// Tells ``activity`` and the refreshes waiting on the resource, at once
    /// and in order.
    private func publish(_ report: SyncActivity) {
        activity.send(report)
        let waiting = watchers.withLock { $0[report.resource].map { Array($0.values) } ?? [] }
        for watcher in waiting { watcher(report) }
    }

    // MARK: - Running

    /// Runs every resource's polls and dependencies until cancelled, then
    /// cancels the syncs in flight and returns once they have ended: their
    /// transactions rolled back, each recorded as cancelled.
    package func run() async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.followConnectivity() }
            for resource in config.resources {
                group.addTask { await self.poll(resource) }
                if dependencyChanged[resource.name] != nil {
                    group.addTask { await self.followDependencies(of: resource) }
                }
            }
            if let heartbeat {
                group.addTask { await self.beat(heartbeat) }
            }
            await group.waitForAll()
        }
        stopping.store(true, ordering: .sequentiallyConsistent)
        await inFlight.cancelAll()
        // Ends the event streams of status clients, so the server can stop.
        changes.finish()
        activity.finish()
    }

    private func followConnectivity() async {
        for await online in connectivity.online {
            for resource in config.resources {
                update(resource.name, .connectivity(online: online))
            }
        }
    }

    /// Polls `resource` since its last success, held while offline.
    private func poll(_ resource: ResourceConfig) async {
        let name = resource.name
        let wait = firstRunAfter[name] ?? .zero
        // The first run of stale data is a startup sync.
        let startup = Mutex(wait == .zero)
        let runs = Streams.poll(
            every: resource.settings.interval, jitter: resource.settings.pollJitter, clock: clock,
            firstRunAfter: wait, triggers: syncEnded[name]!, random: random,
            stopsAfter: { $0 is PollStopped }
        ) { [self] reason in
            let result: SyncResult?
            switch reason {
            case .scheduled:
                let trigger: SyncTrigger = startup.withLock { first in
                    defer { first = false }
                    return first ? .startup : .poll
                }
                // At startup a resource whose URL reads a record that does not
                // exist yet waits for it: the dependency's first sync triggers it.
                if trigger == .startup, !resource.dependencies.isEmpty,
                    (try? await makeSync(resource, id: 0).dependencyValues()) == nil
                {
                    throw PollSkipped()
                }
                // A poll that comes due while offline waits for the network
                // before it starts: the sync, its attempt and its record.
                let synced = deferred { await self.sync(resource, trigger: trigger) }
                result = try await synced.pausable(by: connectivity.online).first { _ in true }
            case .triggered:
                // A sync someone else asked for ended: it is this run.
                result = latest.withLock { $0[name] }
            }
            switch result?.outcome {
            case .success, .notModified: return ()
            case .failed, .gaveUp: throw PollStopped()
            default: throw PollSkipped()
            }
        }
        do {
            for try await run in runs {
                let next = run.nextRunIn.map { now().addingTimeInterval($0.timeInterval) }
                update(name, .scheduled(next))
            }
        } catch {
            // Cancelled: the agent is stopping.
        }
    }

    /// A failure for good: polls stop until a sync someone asks for succeeds.
    private struct PollStopped: Error {}
    /// A run that did not end the usual way (cancelled, offline): the schedule stands.
    private struct PollSkipped: Error {}

    /// Syncs `resource` again whenever the values its URL reads change,
    /// switching to the latest.
    private func followDependencies(of resource: ResourceConfig) async {
        guard let changed = dependencyChanged[resource.name]?.signals else { return }
        let reader = makeSync(resource, id: 0)
        let syncs =
            changed
            .map { _ in try? await reader.dependencyValues() }
            .compacted()
            .removeDuplicates()
            .switchMap { [self] _ in
                deferred {
                    // A sync in flight read the old values: switch to the latest.
                    self.inFlight.cancel(resource.name)
                    return await self.sync(resource, trigger: .dependency)
                }
            }
        do {
            for try await _ in syncs {}
        } catch {
            // Cancelled: the agent is stopping.
        }
    }

    /// Proves the engine alive to the watchdog: its state and its database answer.
    private func beat(_ heartbeat: Heartbeat) async {
        while (try? await clock.sleep(for: heartbeat.interval)) != nil {
            _ = statuses()
            guard (try? await store.latestRunID(of: "")) != nil else { continue }
            heartbeat.beat()
        }
    }

    // MARK: - Syncing

    /// Syncs `resource`, or joins its sync in flight.
    package func sync(_ resource: ResourceConfig, trigger: SyncTrigger) async -> SyncResult {
        guard !stopping.load(ordering: .sequentiallyConsistent) else { return Self.cancelled(resource.name) }
        let outcome = await inFlight.run(resource.name) { await self.perform(resource, trigger: trigger) }
        guard case .success(var result) = outcome.result else {
            var cancelled = Self.cancelled(resource.name)
            cancelled.joined = outcome.joined
            return cancelled
        }
        if outcome.joined {
            result.joined = true
            metrics.joined(resource.name)
            logger.debug(
                "joined the sync in flight", metadata: [LogKey.resource: "\(resource.name)", "trigger": "\(trigger)"])
        }
        return result
    }

    /// A refresh someone asked for: syncs `name` now or joins its sync in
    /// flight, and returns the result (`nil` for an unknown resource). While
    /// the machine is offline it probes first, and answers `offline` at once
    /// if the probe fails.
    ///
    /// `onActivity` is told what the sync reports (pages, retries,
    /// slowness, its end) as it happens, before the result is returned.
    package func refresh(_ name: String, onActivity: (@Sendable (SyncActivity) -> Void)? = nil) async -> SyncResult? {
        guard let resource = config.resource(named: name) else { return nil }
        if let onActivity {
            let id = watcherCounter.add(1, ordering: .relaxed).newValue
            watchers.withLock { $0[name, default: [:]][id] = onActivity }
            defer { watchers.withLock { _ = $0[name]?.removeValue(forKey: id) } }
            return await refresh(resource)
        }
        return await refresh(resource)
    }

    private func refresh(_ resource: ResourceConfig) async -> SyncResult {
        let name = resource.name
        if !connectivity.online.value, !(await connectivity.probeNow()) {
            return SyncResult(
                resource: name, outcome: .offline,
                error: StoredError(
                    kind: "offline",
                    message: "\(name): the machine is offline (\(connectivity.probeTarget) does not answer)"))
        }
        var result = await sync(resource, trigger: .refresh)
        // A sync superseded by a newer one (its dependency changed) is no
        // answer: the newer one is.
        var rejoins = 0
        while result.outcome == .cancelled, rejoins < 3, !stopping.load(ordering: .sequentiallyConsistent),
            !Task.isCancelled
        {
            result = await sync(resource, trigger: .refresh)
            rejoins += 1
        }
        return result
    }

    /// Refreshes every resource, each after the resources its URL reads;
    /// returns the results in configuration order.
    package func refreshAll() async -> [SyncResult] {
        await LocalRefresh.inWaves(config.resources) { await self.refresh($0.name) }.compactMap { $0 }
    }

    private static func cancelled(_ name: String) -> SyncResult {
        SyncResult(resource: name, outcome: .cancelled, error: ResourceSync.cancelled(name))
    }

    private func makeSync(_ resource: ResourceConfig, id: Int) -> ResourceSync {
        let name = resource.name
        return ResourceSync(
            resource: resource, store: store,
            transport: MeteredTransport(base: transport, resource: name, metrics: metrics),
            redactor: config.redactor, logger: logger,
            onProgress: { [weak self] progress in
                if let notice = progress.retry {
                    self?.update(name, .retrying(sync: id, notice))
                } else {
                    self?.update(name, .progressed(sync: id, progress))
                }
            },
            clock: clock, connectivity: connectivity.gate)
    }

    /// One sync: runs it (under the lock file), tells the machine, and tells
    /// the poll and the dependent resources.
    private func perform(_ resource: ResourceConfig, trigger: SyncTrigger) async -> SyncResult {
        let name = resource.name
        let id = syncCounter.add(1, ordering: .relaxed).newValue
        update(name, .started(sync: id, at: now()))
        metrics.syncStarted(name)
        let started = clock.now
        let sync = makeSync(resource, id: id)
        let lock = lock
        let result: SyncResult
        do {
            result = try await withSlowSignal(
                after: resource.settings.slowAfter, clock: clock,
                onSlow: { [weak self] in self?.update(name, .slow(sync: id)) }
            ) {
                if let lock { return await sync.run(trigger: trigger, lock: lock) }
                return await sync.run(trigger: trigger)
            }
        } catch {
            result = Self.cancelled(name)
        }
        update(name, .finished(sync: id, result, at: now()))
        metrics.syncEnded(result, seconds: started.duration(to: clock.now).timeInterval)
        if result.outcome == .success {
            let changes = result.changes
            let diff = "\(changes.added) new, \(changes.changed) changed, \(changes.removed) removed"
            logger.info(
                "synced \(result.pages) pages, \(result.items) items (\(diff)) in \(result.durationMilliseconds) ms",
                metadata: [LogKey.resource: "\(name)", "trigger": "\(trigger)"])
        }
        // A cancelled sync is nobody's answer: a newer one replaces it, or the agent stops.
        guard result.outcome != .cancelled else { return result }
        publish(.finished(result))
        latest.withLock { $0[name] = result }
        syncEnded[name]?.send()
        let changes = result.changes
        if result.outcome == .success, changes.added + changes.changed + changes.removed > 0 {
            for dependent in config.resources where dependent.dependencies.contains(name) {
                dependencyChanged[dependent.name]?.send.yield()
            }
        }
        return result
    }
}

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
