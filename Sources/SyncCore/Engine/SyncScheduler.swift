import AsyncAlgorithms
import Foundation
import Store
import Streams
import Synchronization

/// When each resource syncs (docs/architecture.md#the-engine), expressed with
/// the Streams operators:
///
/// - Each resource is polled with `poll`: an `interval` (plus `pollJitter`)
///   after its last successful sync; a poll due while the machine is offline
///   is held with `pausable` until it is back. A sync that fails for good
///   (unrecoverable, or retries used up) stops the polls until a sync that
///   someone asked for succeeds.
/// - A sync that someone else started (a refresh, a dependency) tells the
///   resource's poll through `poll`'s triggers; the poll takes that sync's
///   result as its own run: a success restarts the interval.
/// - A resource whose URL reads another's record syncs again when that record
///   changes, switching to the latest with `switchMap`: a sync in flight with
///   the old values is cancelled.
///
/// Thread-safety: `Sendable`; its state is behind `Mutex`es.
package final class SyncScheduler<C: Clock<Duration>>: Sendable {
    /// What the scheduler asks of the engine.
    package struct Engine: Sendable {
        /// Syncs a resource, or joins its sync in flight.
        var sync: @Sendable (ResourceConfig, SyncTrigger) async -> SyncResult
        /// Cancels the sync of a resource in flight (a newer one replaces it).
        var cancel: @Sendable (String) -> Void
        /// The values a resource's URL reads, or `nil` when they cannot be read yet.
        var dependencyValues: @Sendable (ResourceConfig) async -> [URLTemplate.Dependency: String]?
        /// A resource's next poll is due at this time (`nil`: not until a refresh).
        var scheduled: @Sendable (String, Date?) -> Void
    }

    private let clock: C
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date
    /// `true` while online: polls due while offline wait for it.
    private let online: CurrentValueSubject<Bool, Never>
    /// Per resource: the result of its latest sync that was not cancelled.
    private let latest = Mutex<[String: SyncResult]>([:])
    /// The resources scheduled, by name.
    private let entries = Mutex<[String: Entry]>([:])
    /// Entries to start while ``run(_:)`` runs, by name and number (an
    /// entry replaced before it started is not started).
    private let started: (stream: AsyncStream<(String, Int)>, continuation: AsyncStream<(String, Int)>.Continuation)
    /// The number of the next entry.
    private let nextEntry = Atomic<Int>(0)

    /// One scheduled resource.
    private struct Entry: Sendable {
        /// Tells it from an entry of the same name that replaced it.
        var number: Int
        var resource: ResourceConfig
        /// How long after it is scheduled it first syncs.
        var firstRunAfter: Duration
        /// A sync of it ended (the poll takes its result).
        var syncEnded = PassthroughSubject<Void, Never>()
        /// A resource its URL reads has new data. Kept (the latest only)
        /// until its follower reads it, so a change made before the follower
        /// starts is not lost.
        var dependencyChanged: (stream: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation)?
        /// Ends its poll and its follower when it is no longer scheduled.
        var stop = AsyncStream<Void>.makeStream()

        init(_ resource: ResourceConfig, number: Int, lastSuccessAt: Date?, now: Date) {
            self.number = number
            self.resource = resource
            firstRunAfter = SyncScheduler.firstRunAfter(resource, lastSuccessAt: lastSuccessAt, now: now)
            if !resource.dependencies.isEmpty {
                dependencyChanged = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
            }
        }
    }

    /// A schedule for `config`, the resources last stored as `rows`.
    package init(
        config: AgentConfig, rows: [ResourceRow], online: CurrentValueSubject<Bool, Never>, clock: C,
        random: @escaping @Sendable () -> Double, now: @escaping @Sendable () -> Date
    ) {
        self.online = online
        self.clock = clock
        self.random = random
        self.now = now
        started = AsyncStream.makeStream()
        let start = now()
        let rowsByName = Dictionary(rows.map { ($0.name, $0) }) { first, _ in first }
        for resource in config.resources {
            schedule(resource, lastSuccessAt: rowsByName[resource.name]?.lastSuccessAt, now: start)
        }
    }

    /// Schedules `resource` (again, if it was: its poll starts over), its
    /// first sync an interval after `lastSuccessAt` at the latest; see
    /// ``firstRunAfter(_:lastSuccessAt:now:)``. Returns when it first syncs.
    @discardableResult
    package func schedule(_ resource: ResourceConfig, lastSuccessAt: Date?) -> Date {
        schedule(resource, lastSuccessAt: lastSuccessAt, now: now())
    }

    @discardableResult
    private func schedule(_ resource: ResourceConfig, lastSuccessAt: Date?, now start: Date) -> Date {
        let number = nextEntry.add(1, ordering: .relaxed).newValue
        let entry = Entry(resource, number: number, lastSuccessAt: lastSuccessAt, now: start)
        let previous = entries.withLock { entries in
            defer { entries[resource.name] = entry }
            return entries[resource.name]
        }
        previous?.stop.continuation.finish()
        started.continuation.yield((resource.name, number))
        return start.addingTimeInterval(entry.firstRunAfter.timeInterval)
    }

    /// The resource `name` as its poll syncs it, or `nil` if it is not scheduled.
    package func resource(named name: String) -> ResourceConfig? {
        entries.withLock { $0[name]?.resource }
    }

    /// Stops scheduling `name`: its poll and its follower end.
    package func unschedule(_ name: String) {
        entries.withLock { $0.removeValue(forKey: name) }?.stop.continuation.finish()
    }

    /// How long after the start a resource first syncs (docs/cli.md#when-a-resource-syncs):
    /// at once when it never succeeded or its last success is older than its
    /// interval. A last success in the future (the clock was ahead, then put
    /// right) counts as now: never later than an interval from the start.
    package static func firstRunAfter(_ resource: ResourceConfig, lastSuccessAt: Date?, now: Date) -> Duration {
        guard let lastSuccessAt else { return .zero }
        let interval = resource.settings.interval
        let remaining = interval - .seconds(now.timeIntervalSince(lastSuccessAt))
        return min(interval, max(.zero, remaining))
    }

    /// When `name` first syncs, as a wall-clock time.
    package func firstSyncAt(_ name: String, start: Date) -> Date {
        start.addingTimeInterval((entries.withLock { $0[name]?.firstRunAfter } ?? .zero).timeInterval)
    }

    /// A sync of `resource` ended (not cancelled): its poll takes the result
    /// as its run, and the resources whose URLs read it follow a change.
    /// A sync of a configuration that a reload replaced is nobody's run.
    package func ended(_ result: SyncResult, of resource: ResourceConfig) {
        let name = result.resource
        let entries = entries.withLock { $0 }
        guard entries[name]?.resource == resource else { return }
        latest.withLock { $0[name] = result }
        entries[name]?.syncEnded.send()
        let changes = result.changes
        guard result.outcome == .success, changes.added + changes.changed + changes.removed > 0 else { return }
        for dependent in entries.values where dependent.resource.dependencies.contains(name) {
            dependent.dependencyChanged?.continuation.yield()
        }
    }

    /// Runs every resource's polls and dependencies until cancelled, and
    /// those of each resource scheduled meanwhile until it is unscheduled.
    package func run(_ engine: Engine) async {
        await withDiscardingTaskGroup { group in
            for await (name, number) in started.stream {
                guard let entry = entries.withLock({ $0[name] }), entry.number == number else { continue }
                group.addTask {
                    await withTaskGroup(of: Void.self) { resource in
                        resource.addTask { await self.poll(entry, engine) }
                        if let changed = entry.dependencyChanged?.stream {
                            resource.addTask { await self.followDependencies(of: entry.resource, changed, engine) }
                        }
                        // Unscheduled (or scheduled anew): both end.
                        resource.addTask { for await _ in entry.stop.stream {} }
                        await resource.next()
                        resource.cancelAll()
                    }
                }
            }
        }
    }

    /// Polls `resource` since its last success, held while offline.
    private func poll(_ entry: Entry, _ engine: Engine) async {
        let resource = entry.resource
        let name = resource.name
        let wait = entry.firstRunAfter
        // The first run of stale data is a startup sync.
        let startup = Mutex(wait == .zero)
        let runs = Streams.poll(
            every: resource.settings.interval, jitter: resource.settings.pollJitter, clock: clock,
            firstRunAfter: wait, triggers: entry.syncEnded, random: random,
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
                if trigger == .startup, !resource.dependencies.isEmpty, await engine.dependencyValues(resource) == nil {
                    throw PollSkipped()
                }
                // A poll that comes due while offline waits for the network
                // before it starts: the sync, its attempt and its record.
                let synced = deferred { await engine.sync(resource, trigger) }
                result = try await synced.pausable(by: online).first { _ in true }
            case .triggered:
                // A sync someone else asked for ended: it is this run.
                result = latest.withLock { $0[name] }
            }
            switch result?.outcome {
            case .success, .notModified: return ()
            case .gaveUp where result?.error?.kind == ResourceSync.storageKind: throw PollSkipped()
            case .failed, .gaveUp: throw PollStopped()
            case .rateLimited:
                guard let wait = result?.retryAfter else { throw PollSkipped() }
                throw PollDeferred(runAgainAfter: wait)
            default: throw PollSkipped()
            }
        }
        do {
            for try await run in runs {
                engine.scheduled(name, run.nextRunIn.map { now().addingTimeInterval($0.timeInterval) })
            }
        } catch {
            // Cancelled: the agent is stopping.
        }
    }

    /// A failure for good: polls stop until a sync someone asks for succeeds.
    private struct PollStopped: Error {}
    /// A run that did not end the usual way (cancelled, offline): the schedule stands.
    private struct PollSkipped: Error {}
    /// Rate limited past `rateLimit.maxWait`: the next poll comes at the reset.
    private struct PollDeferred: PollDeferral {
        var runAgainAfter: Duration
    }

    /// Syncs `resource` again whenever the values its URL reads change,
    /// switching to the latest.
    private func followDependencies(
        of resource: ResourceConfig, _ changed: AsyncStream<Void>, _ engine: Engine
    ) async {
        let syncs =
            changed
            .map { _ in await engine.dependencyValues(resource) }
            .compacted()
            .removeDuplicates()
            .switchMap { _ in
                deferred {
                    // A sync in flight read the old values: switch to the latest.
                    engine.cancel(resource.name)
                    return await engine.sync(resource, .dependency)
                }
            }
        do {
            for try await _ in syncs {}
        } catch {
            // Cancelled: the agent is stopping.
        }
    }
}
