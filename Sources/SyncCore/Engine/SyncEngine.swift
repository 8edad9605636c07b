import Foundation
import Logging
import Store
import Streams
import Synchronization

/// The running agent's syncs (docs/architecture.md#the-engine): it wires
/// three parts, each with one job, and runs one sync at their request.
///
/// - ``SyncScheduler``: when each resource is due (polls since the last
///   success, held while offline; dependent resources on change).
/// - ``InFlightSyncs``: at most one sync per resource; everyone who asks
///   while it runs (a poll, refreshes, a dependency) joins it.
/// - ``StatePublication``: each resource's ``ResourceMachine`` and what
///   status, the event stream, systemd and waiting refreshes see of it.
///
/// Page requests retry with `retryIf` and wait while offline (see
/// ``ResourceFetch``); `withSlowSignal` marks a sync slow after `slowAfter`;
/// ``metrics`` counts syncs and requests.
///
/// Thread-safety: `Sendable`; its parts are.
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

    /// The configuration in force (a reload replaces it).
    package var config: AgentConfig { currentConfig.withLock { $0 } }
    let currentConfig: Mutex<AgentConfig>
    package let store: any SyncStore
    /// When the engine was created.
    package let startedAt: Date
    /// The counters of `GET /metrics`.
    package let metrics: AgentMetrics
    package let connectivity: ConnectivityMonitor<C>
    /// What status, the event stream and systemd see.
    package let publication: StatePublication
    let scheduler: SyncScheduler<C>
    let syncs = InFlightSyncs()
    /// The resources whose URL reads a resource that has new data, in order.
    let dependencyChanges = AsyncStream<String>.makeStream()
    /// The request budgets, one per scope, shared by the resources.
    private var budgets: RequestBudgets { currentBudgets.withLock { $0 } }
    let currentBudgets: Mutex<RequestBudgets>
    /// The latest reload: each waits for the one before.
    let lastReload = Mutex<Task<ReloadSummary, Never>?>(nil)
    /// Serializes the checks of the secrets' files with the replacements of
    /// the configuration; holds the files as they were when reading them
    /// again last failed (told once).
    let secretsCheck = Mutex<SecretFiles?>(nil)

    private let transport: any PageTransport
    let clock: C
    /// The wall-clock time, for the statuses' timestamps.
    private let now: @Sendable () -> Date
    /// Draws the jitter of polls and retries, in `0..<1`.
    private let random: @Sendable () -> Double
    let logger: Logger
    private let lock: RefreshLock?
    private let heartbeat: Heartbeat?
    private let syncCounter = Atomic<Int>(0)
    /// The resources whose storage is failing, logged once per episode.
    private let storageEpisodes = StorageEpisodes()
    /// The OAuth2 access tokens, shared by the resources.
    private let tokens: OAuth2Tokens
    /// The deadlines of the syncs' slow signals, of their requests' timeouts
    /// and of the schedule: one sleeping task for them all
    /// (docs/architecture.md#what-a-resource-costs).
    let timers: Timers
    /// This agent's leases when its store is a fleet's (docs/fleet.md): it
    /// polls only the resources whose leases it holds.
    let leases: (any FleetLeases)?

    /// Creates an engine over an open store.
    ///
    /// - Parameters:
    ///   - rows: The resources' rows as stored, for their last success.
    ///   - lock: The lock file that keeps `refresh` processes and the agent
    ///     from syncing one resource at the same time.
    ///   - random: Draws the jitter of polls and retries, in `0..<1`.
    ///   - heartbeat: The systemd watchdog's proof of life, if it watches.
    ///   - now: The wall-clock time, for the statuses' timestamps.
    ///   - leases: This agent's leases, when it is part of a fleet: no
    ///     resource is polled until its lease is taken.
    package init(
        config: AgentConfig, store: any SyncStore, rows: [ResourceRow], transport: any PageTransport,
        connectivity: ConnectivityMonitor<C>, clock: C, logger: Logger, lock: RefreshLock? = nil,
        random: @escaping @Sendable () -> Double = SystemSources.random, heartbeat: Heartbeat? = nil,
        now: @escaping @Sendable () -> Date = SystemSources.now, leases: (any FleetLeases)? = nil
    ) {
        self.leases = leases
        currentConfig = Mutex(config)
        self.store = store
        self.transport = transport
        self.connectivity = connectivity
        self.clock = clock
        // What the APIs say of their rate limits holds for the agent's other processes too.
        currentBudgets = Mutex(
            RequestBudgets(
                resources: config.resources, clock: clock,
                shared: SharedRateLimits(store: store, now: now, logger: logger)))
        self.logger = logger
        self.lock = lock
        self.heartbeat = heartbeat
        self.now = now
        self.random = random
        timers = Timers(clock: clock)
        let origin = clock.now
        tokens = OAuth2Tokens(
            transport: transport, store: store, logger: logger, clock: clock,
            elapsed: { origin.duration(to: clock.now) }, now: now)
        metrics = AgentMetrics(resources: config.resources.map(\.name))
        let start = now()
        startedAt = start
        let scheduler = SyncScheduler(
            config: config, rows: rows, clock: clock, timers: timers, random: random, now: now,
            scheduling: leases == nil ? nil : [])
        self.scheduler = scheduler
        let rowsByName = Dictionary(rows.map { ($0.name, $0) }) { first, _ in first }
        publication = StatePublication(
            machines: config.resources.map { resource in
                ResourceMachine(
                    name: resource.name, row: rowsByName[resource.name],
                    nextSyncAt: scheduler.firstSyncAt(resource.name, start: start))
            }, logger: logger)
    }

    // MARK: - Status

    /// Every change of a resource's status, in order, numbered.
    package var changes: PassthroughSubject<StatusChange, Never> { publication.changes }
    /// What running syncs report: pages, retries, slowness, ends.
    package var activity: PassthroughSubject<SyncActivity, Never> { publication.activity }

    /// Tells `observer` that statuses changed, or that they never will again;
    /// see ``StatePublication/observe(_:)``.
    package func observeChanges(_ observer: @escaping StatePublication.ChangeObserver) {
        publication.observe(observer)
    }

    /// Every resource's status, in configuration order.
    package func statuses() -> [ResourceStatus] { publication.statuses() }

    /// The status of `name`, or `nil` for an unknown resource.
    package func status(of name: String) -> ResourceStatus? { publication.status(of: name) }

    /// How many times a status has changed: equal counts, equal statuses.
    package var statusVersion: Int { publication.version }

    /// The wall-clock time now, as the engine reads it (its statuses' times).
    package func wallClock() -> Date { now() }

    // MARK: - Running

    /// Runs every resource's polls and dependencies until cancelled, then
    /// cancels the syncs in flight and returns once they have ended: their
    /// transactions rolled back, each recorded as cancelled.
    package func run() async {
        await keepTypedTables(of: config)
        await cutOffStoppedRuns()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.followConnectivity() }
            group.addTask { await self.runPolls() }
            group.addTask { await self.pruneChanges() }
            group.addTask { await self.releaseMemoryAfterSyncs() }
            if let heartbeat {
                group.addTask { await self.beat(heartbeat) }
            }
            if let leases {
                group.addTask { await self.followLeases(leases) }
                group.addTask { await leases.followRefreshRequests { self.answerRefreshRequest($0) } }
            }
            await group.waitForAll()
        }
        await syncs.stop()
        // The leases go back once the syncs in flight have recorded their end.
        await leases?.releaseAll()
        // A refresh token rotated by a token request in flight is kept before the agent stops,
        // and the rate limits the last answers told.
        await tokens.finish()
        await budgets.finish()
        // What the last syncs changed is told before the streams end, which
        // lets the status server stop.
        await publication.flush()
        publication.finish()
    }

    /// Keeps the typed tables `config` declares and shows them in each resource's status.
    func keepTypedTables(of config: AgentConfig) async {
        guard let statuses = await store.keepTypedTables(of: config.resources, logger: logger) else { return }
        for resource in config.resources {
            publication.handle(resource.name, .columns(statuses[resource.name] ?? nil))
        }
    }

    /// Marks the runs that a process left running when it stopped (SIGKILL, a
    /// crash, a power cut) as cut off, before the first sync
    /// (docs/schema.md#running-finished-and-cut-off-rows): each resource's
    /// under its lock, so that the row of a `refresh` syncing it meanwhile
    /// stays running. In a fleet the rows are the fleet's: a resource's are
    /// marked by its next sync, which only the holder of its lease runs.
    private func cutOffStoppedRuns() async {
        guard leases == nil else { return }
        let running: [SyncRunRow]
        do {
            running = try await store.runningRuns()
        } catch {
            logger.warning("cannot read the syncs left running: \(error.message)")
            return
        }
        for resource in Set(running.map(\.resource)).sorted() {
            var held: RefreshLock.Held?
            if let lock {
                do {
                    // Another process syncs it now: its row is running indeed.
                    guard let taken = try lock.tryAcquire(resource) else { continue }
                    held = taken
                } catch {
                    logger.warning("\(error.message)", metadata: [LogKey.resource: "\(resource)"])
                    continue
                }
            }
            defer { held?.release() }
            do {
                if try await store.cutOffRuns(of: resource) > 0 {
                    logger.notice(
                        "a sync was cut off when its process stopped; the next sync goes on from what it committed",
                        metadata: [LogKey.resource: "\(resource)"])
                }
            } catch {
                logger.warning(
                    "cannot mark the sync left running as cut off: \(error.message)",
                    metadata: [LogKey.resource: "\(resource)"])
            }
        }
    }

    private func followConnectivity() async {
        for await online in connectivity.online {
            publication.setOnline(online)
            // The network coming back starts the polls it held.
            scheduler.wake()
        }
    }

    /// Proves the engine alive to the watchdog: its state and its database answer.
    /// How often the change feed is pruned.
    static var pruneInterval: Duration { .seconds(600) }

    /// Prunes the change feed at start, then every ``pruneInterval``.
    private func pruneChanges() async {
        repeat {
            await store.pruneChanges(as: config.changeRetention, now: now(), logger: logger)
        } while (try? await clock.sleep(for: Self.pruneInterval)) != nil
    }

    /// How often memory is given back when syncs ran.
    static var releaseInterval: Duration { .seconds(60) }

    /// Gives back what syncs left in SQLite's caches and the heap, every
    /// ``releaseInterval`` in which a sync ran: a burst of first syncs
    /// leaves the idle agent no bigger than its resources need
    /// (docs/architecture.md#what-a-resource-costs).
    private func releaseMemoryAfterSyncs() async {
        var released = syncCounter.load(ordering: .relaxed)
        while (try? await clock.sleep(for: Self.releaseInterval)) != nil {
            let count = syncCounter.load(ordering: .relaxed)
            guard count != released else { continue }
            released = count
            await store.releaseMemory()
        }
    }

    private func beat(_ heartbeat: Heartbeat) async {
        while (try? await clock.sleep(for: heartbeat.interval)) != nil {
            _ = statuses()
            guard (try? await store.latestRunID(of: "")) != nil else { continue }
            heartbeat.beat()
        }
    }

    // MARK: - Syncing

    /// Syncs `resource`, or joins its sync in flight.
    package func sync(_ resource: ResourceConfig, trigger: SyncTrigger) async -> SyncReport {
        await sync(resource, trigger: trigger, ticket: nil).report
    }

    /// Syncs `resource` for its poll's `ticket` (if any), or joins its sync in
    /// flight; tells whether it joined.
    func sync(
        _ resource: ResourceConfig, trigger: SyncTrigger, ticket: SyncScheduler<C>.Ticket?
    ) async -> (report: SyncReport, joined: Bool) {
        let (report, joinedRun) = await syncs.run(resource.name) {
            await self.perform(resource, trigger: trigger, ticket: ticket)
        }
        if joinedRun {
            metrics.joined(resource.name)
            logger.debug(
                "joined the sync in flight", metadata: [LogKey.resource: "\(resource.name)", "trigger": "\(trigger)"])
        }
        return (report, joinedRun)
    }

    /// A refresh someone asked for: syncs `name` now or joins its sync in
    /// flight, and returns the result (`nil` for an unknown resource). While
    /// the machine is offline it probes first, and answers `offline` at once
    /// if the probe fails.
    ///
    /// `onActivity` is told what the sync reports (pages, retries,
    /// slowness, its end) as it happens, before the result is returned.
    package func refresh(_ name: String, onActivity: (@Sendable (SyncActivity) -> Void)? = nil) async -> SyncResult? {
        guard let resource = self.resource(named: name) else { return nil }
        guard let onActivity else { return await refresh(resource) }
        let watcher = publication.watch(name, onActivity)
        let result = await refresh(resource)
        // What the sync reported is told before its result.
        await publication.flush()
        publication.unwatch(name, watcher)
        return result
    }

    func refresh(_ resource: ResourceConfig) async -> SyncResult {
        let name = resource.name
        if let leases, leases.token(for: name) == nil {
            return await leases.refresh(name, stopping: { [syncs] in syncs.isStopping }) { await refresh(resource) }
        }
        if !connectivity.online.value, !(await connectivity.probeNow()) {
            return SyncResult(
                resource: name, outcome: .offline,
                error: StoredError(
                    kind: .offline,
                    message: "\(name): the machine is offline (\(connectivity.probeTarget) does not answer)"))
        }
        var result = await sync(resource, trigger: .refresh).result
        // A sync superseded by a newer one (its dependency changed) is no
        // answer: the newer one is.
        // A reload that changed or removed the resource cancelled it: the
        // refresh goes on with the resource as configured now, if it still is.
        var rejoins = 0
        while result.outcome == .cancelled, rejoins < 3, !syncs.isStopping, !Task.isCancelled,
            let current = self.resource(named: name)
        {
            // In a fleet, a sync cancelled because the lease moved on is answered by the new holder.
            if let leases, leases.token(for: name) == nil {
                return await leases.refresh(name, stopping: { [syncs] in syncs.isStopping }) { await refresh(current) }
            }
            result = await sync(current, trigger: .refresh).result
            rejoins += 1
        }
        return result
    }

    /// The resource `name` as its poll syncs it (with the secrets it was
    /// scheduled with, which ``perform(_:trigger:ticket:)`` fills anew), so that the
    /// poll takes the refresh's result; `nil` for an unknown one.
    func resource(named name: String) -> ResourceConfig? {
        scheduler.resource(named: name) ?? config.resource(named: name)
    }

    /// Refreshes every resource, each after the resources its URL reads;
    /// returns the results in configuration order.
    package func refreshAll() async -> [SyncResult] {
        await LocalRefresh.inWaves(config.resources, concurrency: config.syncLimits.total) {
            await self.refresh($0.name)
        }.compactMap { $0 }
    }

    private func makeSync(_ resource: ResourceConfig, id: Int) -> ResourceSync {
        let name = resource.name
        var logger = logger
        logger[metadataKey: LogKey.syncID] = "\(id)"
        let context = SyncContext(
            store: store, transport: MeteredTransport(base: transport, resource: name, metrics: metrics),
            redactor: config.redactor, logger: logger, clock: clock, timers: timers, now: now, random: random,
            connectivity: connectivity.gate, budgets: budgets, tokens: tokens, storageEpisodes: storageEpisodes,
            onBudgetWait: { [metrics] name, wait in metrics.rateLimitWait(name, budget: true, seconds: wait.seconds) })
        return ResourceSync(resource: resource, context: context) { [weak self] progress in
            if let notice = progress.retry {
                if !notice.waitsForBudget { self?.metrics.retried(name) }
                // The budget's waits are counted as they begin, however short.
                if notice.rateLimitedUntil != nil, !notice.waitsForBudget {
                    self?.metrics.rateLimitWait(name, budget: false, seconds: notice.delay.seconds)
                }
                self?.publication.handle(name, .retrying(sync: id, notice))
            } else {
                self?.publication.handle(name, .progressed(sync: id, progress))
            }
        }
    }

    /// One sync: runs it (under the lock file), then its end, in one pass:
    /// the schedule's transition (the next poll, a poll's slot, the dependent
    /// resources to follow), then the machine's, told the next poll with the
    /// end. `ticket` is the poll's that started it, if a poll did.
    private func perform(
        _ resource: ResourceConfig, trigger: SyncTrigger, ticket: SyncScheduler<C>.Ticket?
    ) async -> SyncReport {
        let name = resource.name
        // A reload removed or replaced the resource after its poll (or its
        // dependency's change) asked for this sync: it is nobody's any more.
        if trigger != .refresh, scheduler.resource(named: name) != resource {
            return InFlightSyncs.cancelled(name)
        }
        let id = syncCounter.add(1, ordering: .relaxed).newValue
        publication.handle(name, .started(sync: id, at: now()))
        metrics.syncStarted(name)
        let started = clock.now
        let sync = makeSync(configWithCurrentSecrets().resource(named: name) ?? resource, id: id)
        let lock = lock
        let report = await withSlowSignal(
            after: resource.settings.slowAfter, timers: timers,
            onSlow: { [weak self] in self?.publication.handle(name, .slow(sync: id)) }
        ) {
            if let lock { return await sync.run(trigger: trigger, lock: lock) }
            return await sync.run(trigger: trigger)
        }
        let result = report.result
        // A cancelled sync is nobody's run: a newer one replaces it, or the agent stops.
        let (next, follow) =
            result.outcome == .cancelled ? (nil, []) : scheduler.ended(report, of: resource, ticket: ticket)
        publication.handle(name, .finished(sync: id, report, at: now(), next: next))
        for follower in follow { dependencyChanges.continuation.yield(follower) }
        metrics.syncEnded(result, seconds: started.duration(to: clock.now).seconds)
        if result.outcome == .success {
            let changes = result.changes
            let diff = "\(changes.added) new, \(changes.changed) changed, \(changes.removed) removed"
            logger.ending(result).info(
                "synced \(result.counts.pages) pages, \(result.counts.items) items (\(diff)) in \(result.durationMilliseconds) ms",
                metadata: [LogKey.resource: "\(name)", LogKey.syncID: "\(id)", "trigger": "\(trigger)"])
        }
        return report
    }
}
