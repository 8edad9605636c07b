import Foundation
import Logging
import Store
import Streams

/// `sync-agent refresh` without a running agent: syncs the named resources in
/// this process, coordinating with other such processes through
/// ``RefreshLock`` so that concurrent refreshes of a resource make one upstream
/// request.
///
/// Resources sync concurrently (at most ``concurrency`` at once); a resource
/// waits for the resources its URL reads, when they are refreshed too.
package struct LocalRefresh: Sendable {
    let config: AgentConfig
    let store: any SyncStore
    /// The fleet this process is an agent of, when agents share the store.
    let fleet: (any FleetLeases)?
    let lock: RefreshLock
    /// What the refreshed resources' syncs share: their budgets, OAuth2 tokens and timers.
    let context: SyncContext
    var logger: Logger { context.logger }
    private var tokens: OAuth2Tokens { context.tokens }
    let onActivity: @Sendable (SyncActivity) -> Void

    /// The most resources synced at once.
    static let concurrency = 8

    /// Creates a refresh over an open store; `onActivity` is told after
    /// each page, before each retry, and when a sync takes longer than its
    /// `slowAfter`. Its waits (retries, rate limits, timeouts, the slow
    /// report, the lock of a resource another process syncs) are kept on
    /// `time`'s clock, and the times it stores read `time`'s wall clock.
    package init(
        config: AgentConfig, store: any SyncStore, fleet: (any FleetLeases)? = nil, transport: any PageTransport,
        logger: Logger, time: TimeSources = TimeSources(),
        onActivity: @escaping @Sendable (SyncActivity) -> Void = { _ in }
    ) {
        self.config = config
        self.store = store
        self.fleet = fleet
        self.lock = RefreshLock(database: config.database)
        let clock = time.clock
        context = SyncContext(
            store: store, transport: transport, redactor: config.redactor, logger: logger, clock: clock,
            timers: clock.timers(), now: time.now, random: time.random,
            budgets: RequestBudgets(
                resources: config.resources, clock: clock,
                shared: SharedRateLimits(store: store, now: time.now, logger: logger)),
            tokens: OAuth2Tokens(
                transport: transport, store: store, logger: logger, clock: clock, elapsed: clock.stopwatch(),
                now: time.now))
        self.onActivity = onActivity
    }

    /// Refreshes `names` (every resource when empty), returning one result per
    /// resource in configuration order.
    package func refresh(_ names: [String] = []) async -> [SyncResult] {
        let selected = names.isEmpty ? config.resources : config.resources.filter { names.contains($0.name) }
        // Where no agent runs, the refresh keeps the typed tables its records change.
        _ = await store.keepTypedTables(of: config.resources, logger: logger)
        let results =
            if let fleet {
                await refreshInFleet(selected, fleet)
            } else {
                await Self.inWaves(selected, concurrency: Self.concurrency) { await refresh($0) }
            }
        // A refresh token rotated by a token request a timeout left behind is kept before the
        // process ends, and the rate limits its answers told, for the next process.
        await tokens.finish()
        await context.budgets.finish()
        // Where no agent runs, refreshes keep the change feed within its retention.
        await store.pruneChanges(as: config.changeRetention, now: context.now(), logger: logger)
        return results
    }

    /// With a PostgreSQL store the resources are the fleet's (docs/fleet.md):
    /// this process takes the leases no agent holds and syncs those itself,
    /// fenced as any agent; a resource an agent holds is that agent's to sync,
    /// and its run is the answer. The leases go back at the end.
    private func refreshInFleet(_ selected: [ResourceConfig], _ leases: any FleetLeases) async -> [SyncResult] {
        _ = try? await leases.round(configured: selected.map(\.name), busy: [])
        let results = await Self.inWaves(selected, concurrency: Self.concurrency) { resource in
            await leases.refresh(resource.name, stopping: { false }) { await refresh(resource) }
        }
        await leases.releaseAll()
        return results
    }

    /// Refreshes one resource, or joins the sync another process is running.
    package func refresh(_ resource: ResourceConfig) async -> SyncResult {
        let onActivity = onActivity
        let sync = ResourceSync(resource: resource, context: context) { progress in
            onActivity(progress.retry.map { .retry(resource: resource.name, $0) } ?? .progress(progress))
        }
        let lock = lock
        let name = resource.name
        // A cancelled sync records and answers its own cancellation.
        return await withSlowSignal(
            after: resource.settings.slowAfter, timers: context.timers,
            onSlow: { onActivity(.slow(resource: name)) }
        ) { await sync.run(trigger: .refresh, lock: lock).result }
    }

    /// Runs `body` for every resource, wave after wave (see ``waves(_:)``),
    /// at most `concurrency` at once, and returns the answers in the order of
    /// `resources`. When `body` fails, the wave ends and its first failure
    /// is thrown: no later wave starts.
    package static func inWaves<Answer: Sendable, Failure: Error>(
        _ resources: [ResourceConfig], concurrency: Int = .max,
        _ body: @escaping @Sendable (ResourceConfig) async throws(Failure) -> Answer
    ) async throws(Failure) -> [Answer] {
        var answers: [String: Answer] = [:]
        for wave in waves(resources) {
            let outcomes = await withTaskGroup(of: (String, Result<Answer, Failure>).self) { group in
                var pending = wave[...]
                func start(_ resource: ResourceConfig) {
                    group.addTask {
                        do throws(Failure) {
                            return (resource.name, .success(try await body(resource)))
                        } catch {
                            return (resource.name, .failure(error))
                        }
                    }
                }
                for _ in 0..<min(concurrency, wave.count) { start(pending.removeFirst()) }
                var outcomes: [(String, Result<Answer, Failure>)] = []
                for await outcome in group {
                    outcomes.append(outcome)
                    if let resource = pending.popFirst() { start(resource) }
                }
                return outcomes
            }
            for (name, outcome) in outcomes { answers[name] = try outcome.get() }
        }
        return resources.compactMap { answers[$0.name] }
    }

    /// The resources in waves: each wave's dependencies (among `resources`) are
    /// in earlier waves. The configuration has no cycles (validation refuses them).
    static func waves(_ resources: [ResourceConfig]) -> [[ResourceConfig]] {
        var remaining = resources
        var done = Set<String>()
        let names = Set(resources.map(\.name))
        var waves: [[ResourceConfig]] = []
        while !remaining.isEmpty {
            let ready = remaining.filter { resource in
                resource.dependencies.allSatisfy { !names.contains($0) || done.contains($0) }
            }
            guard !ready.isEmpty else { return waves + [remaining] }
            waves.append(ready)
            done.formUnion(ready.map(\.name))
            remaining.removeAll { done.contains($0.name) }
        }
        return waves
    }
}
