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
    private let currentConfig: Mutex<AgentConfig>
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
    private let currentBudgets: Mutex<RequestBudgets>
    /// The latest reload: each waits for the one before.
    private let lastReload = Mutex<Task<ReloadSummary, Never>?>(nil)
    /// Serializes the checks of the secrets' files with the replacements of
    /// the configuration; holds the files as they were when reading them
    /// again last failed (told once).
    private let secretsCheck = Mutex<SecretFiles?>(nil)

    private let transport: any PageTransport
    private let clock: C
    /// The wall-clock time, for the statuses' timestamps.
    private let now: @Sendable () -> Date
    /// Draws the jitter of polls and retries, in `0..<1`.
    private let random: @Sendable () -> Double
    private let logger: Logger
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
    private let timers: Timers
    /// This agent's leases when its store is a fleet's (docs/fleet.md): it
    /// polls only the resources whose leases it holds.
    private let leases: (any FleetLeases)?

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
        currentBudgets = Mutex(RequestBudgets(resources: config.resources, clock: clock))
        self.logger = logger
        self.lock = lock
        self.heartbeat = heartbeat
        self.now = now
        self.random = random
        timers = Timers(clock: clock)
        let origin = clock.now
        tokens = OAuth2Tokens(
            transport: transport, store: store, logger: logger, clock: clock,
            elapsed: { origin.duration(to: clock.now) })
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

    // MARK: - Running

    /// Runs every resource's polls and dependencies until cancelled, then
    /// cancels the syncs in flight and returns once they have ended: their
    /// transactions rolled back, each recorded as cancelled.
    package func run() async {
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
        // A refresh token rotated by a token request in flight is kept before the agent stops.
        await tokens.finish()
        // What the last syncs changed is told before the streams end, which
        // lets the status server stop.
        await publication.flush()
        publication.finish()
    }

    /// Holds this agent's part of the fleet's resources (docs/fleet.md): every
    /// ``FleetLeases/renewEvery`` a round renews, gives back and takes
    /// leases; a resource whose lease is taken is scheduled from its last
    /// success (whichever agent synced it), one whose lease is lost stops,
    /// its sync in flight cancelled. Leases that could not be renewed within
    /// the lease time are let go. As the agent stops, ``run()`` gives every
    /// lease back once its syncs have ended.
    private func followLeases(_ leases: any FleetLeases) async {
        var renewed = clock.now
        repeat {
            do {
                let busy = Set(
                    publication.statuses().filter { [.syncing, .retrying, .waiting].contains($0.state) }.map(\.name))
                let round = try await leases.round(configured: config.resources.map(\.name), busy: busy)
                renewed = clock.now
                stopPolling(round.lost)
                // Read once: the schedule of what was taken, and what the others hold.
                let rows = try? await store.resources()
                let byName = Dictionary((rows ?? []).map { ($0.name, $0) }) { first, _ in first }
                for name in round.gained {
                    guard let resource = config.resource(named: name) else { continue }
                    let first = scheduler.schedule(resource, lastSuccessAt: byName[name]?.lastSuccessAt)
                    publication.handle(name, .scheduled(first))
                }
                if rows != nil { await showFleet(leases, rows: byName) }
                if !round.gained.isEmpty || !round.lost.isEmpty {
                    logger.info(
                        "fleet: \(leases.owned.count) of \(config.resources.count) resources here, \(round.agents) agents",
                        metadata: ["took": "\(round.gained.count)", "gave": "\(round.lost.count)"])
                }
            } catch {
                logger.warning("fleet: the leases were not renewed: \(error.message)")
                if renewed.duration(to: clock.now) >= leases.leaseTime {
                    stopPolling(leases.forgetAll())
                }
            }
        } while (try? await clock.sleep(for: leases.renewEvery)) != nil
    }

    /// Refreshes `name` for another agent of the fleet that asked, if this agent
    /// holds its lease: the asker reads the run's row when it is recorded.
    private func answerRefreshRequest(_ name: String) {
        guard leases?.token(for: name) != nil, let resource = resource(named: name) else { return }
        Task { _ = await self.refresh(resource) }
    }

    /// Shows every resource with the agent that holds it: this agent's with
    /// their live state, the others' as stored (`rows`, by name).
    private func showFleet(_ leases: any FleetLeases, rows byName: [String: ResourceRow]) async {
        guard let owners = try? await leases.owners() else { return }
        let mine = leases.owned
        for resource in config.resources {
            let name = resource.name
            if mine.contains(name) {
                publication.handle(name, .owned(by: leases.agent))
            } else {
                publication.handle(name, .stored(byName[name], owner: owners[name]))
            }
        }
    }

    /// Stops polling resources whose leases this agent no longer holds.
    private func stopPolling(_ names: [String]) {
        for name in names {
            scheduler.unschedule(name)
            syncs.cancel(name)
            publication.handle(name, .scheduled(nil))
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

    // MARK: - Reloading

    /// Runs on `new` from now on (docs/systemd.md#reloading): a resource
    /// added starts, one removed stops (its records stay), one changed is
    /// scheduled anew (from its last success if only its settings changed,
    /// at once if its request did), a sync of either in flight is cancelled;
    /// an unchanged one keeps its state and its sync in flight.
    /// `new` must need no restart (``AgentConfig/restartOnlyChanges(to:)``).
    package func reload(_ new: AgentConfig) async -> ReloadSummary {
        let reload = lastReload.withLock { last in
            let previous = last
            let next = Task {
                _ = await previous?.value
                return await self.apply(new)
            }
            last = next
            return next
        }
        return await reload.value
    }

    private func apply(_ new: AgentConfig) async -> ReloadSummary {
        // A secret read again is no change: compared with the same values.
        let old = configWithCurrentSecrets()
        var new = new
        new.redactor = new.redactor.following(old.redactor)
        let oldByName = Dictionary(old.resources.map { ($0.name, $0) }) { first, _ in first }
        let newNames = Set(new.resources.map(\.name))
        var summary = ReloadSummary()
        summary.removed = old.resources.map(\.name).filter { !newNames.contains($0) }
        for resource in new.resources {
            guard let before = oldByName[resource.name] else {
                summary.added.append(resource.name)
                continue
            }
            if before != resource { summary.changed.append(resource.name) }
        }
        for name in summary.removed + summary.changed {
            scheduler.unschedule(name)
            syncs.cancel(name)
        }
        currentBudgets.withLock { $0 = $0.reconfigured(for: new.resources) }
        scheduler.setLimits(new.syncLimits)
        secretsCheck.withLock { _ in currentConfig.withLock { $0 = new } }
        metrics.setResources(new.resources.map(\.name))
        let rows = Dictionary(((try? await store.resources()) ?? []).map { ($0.name, $0) }) { first, _ in first }
        var added: [ResourceMachine] = []
        for name in summary.added + summary.changed {
            guard let resource = new.resource(named: name) else { continue }
            // What a changed one asks for changed: its records answer the old request.
            var asked = oldByName[name]
            asked?.settings = resource.settings
            let askedAlike = asked == nil || asked == resource
            // The engine's own view first: on the clock its schedule runs on.
            let lastSuccess =
                askedAlike ? publication.status(of: name)?.lastSuccessAt ?? rows[name]?.lastSuccessAt : nil
            // In a fleet, the next round of leases schedules what this agent holds.
            let first =
                leases.map { $0.token(for: name) == nil } ?? false
                ? nil : scheduler.schedule(resource, lastSuccessAt: lastSuccess)
            if summary.added.contains(name) {
                added.append(ResourceMachine(name: name, row: rows[name], nextSyncAt: first))
            } else {
                publication.handle(name, .scheduled(first))
            }
        }
        publication.setResources(new.resources.map(\.name), adding: added)
        return summary
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

    private func refresh(_ resource: ResourceConfig) async -> SyncResult {
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
    /// scheduled with, which ``perform(_:trigger:)`` fills anew), so that the
    /// poll takes the refresh's result; `nil` for an unknown one.
    private func resource(named name: String) -> ResourceConfig? {
        scheduler.resource(named: name) ?? config.resource(named: name)
    }

    /// Refreshes every resource, each after the resources its URL reads;
    /// returns the results in configuration order.
    package func refreshAll() async -> [SyncResult] {
        await LocalRefresh.inWaves(config.resources, concurrency: config.syncLimits.total) {
            await self.refresh($0.name)
        }.compactMap { $0 }
    }

    func makeSync(_ resource: ResourceConfig, id: Int) -> ResourceSync {
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

    /// The configuration in force, its secrets read again first if a file
    /// they come from changed (docs/configuration.md#substitution-and-secrets):
    /// one `stat` per file, and no read when none changed. When they cannot be
    /// read again, a warning tells why, once per change of the files, and the
    /// values in force stay.
    package func configWithCurrentSecrets() -> AgentConfig {
        secretsCheck.withLock { failed in
            let config = self.config
            let files = config.source.secretFiles
            let now = files.restamped()
            let changed = now.paths(differingFrom: files)
            guard !changed.isEmpty, now != failed else { return config }
            do throws(ConfigError) {
                let fresh = try config.rereadingSecrets()
                currentConfig.withLock { $0 = fresh }
                failed = nil
                logger.notice("read the secrets again: \(changed.joined(separator: ", ")) changed")
                return fresh
            } catch {
                failed = now
                let problems = error.problems.map(\.description).joined(separator: "; ")
                logger.warning(
                    """
                    \(changed.joined(separator: ", ")) changed, but the secrets cannot be read again; \
                    the agent goes on with the values it has: \(config.redactor.redact(problems))
                    """)
                return config
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
        if result.outcome == .cancelled {
            publication.handle(name, .finished(sync: id, report, at: now()))
        } else {
            let (next, follow) = scheduler.ended(report, of: resource, ticket: ticket)
            publication.handle(name, .finished(sync: id, report, at: now(), next: next))
            for follower in follow { dependencyChanges.continuation.yield(follower) }
        }
        metrics.syncEnded(result, seconds: started.duration(to: clock.now).timeInterval)
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

extension Duration {
    /// The duration in seconds, as Foundation counts time.
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
