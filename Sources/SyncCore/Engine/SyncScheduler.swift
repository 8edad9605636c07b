import Foundation
import Store
import Streams
import Synchronization

/// Holds the engine's ``Schedule`` (docs/architecture.md#the-engine): the
/// value behind a `Mutex`, the one timer that wakes when the earliest poll is
/// due, and the conversions between the clock the schedule runs on and the
/// wall-clock times statuses show. It calls nothing of the engine's: the
/// engine asks it for the due polls and tells it how runs ended.
///
/// Thread-safety: `Sendable`; its schedule is behind a `Mutex`, and the
/// timer is woken outside it.
package final class SyncScheduler<C: Clock<Duration>>: Sendable {
    typealias Ticket = Schedule<C.Instant>.Ticket

    private let clock: C
    private let random: @Sendable () -> Double
    private let now: @Sendable () -> Date
    private let state: Mutex<Schedule<C.Instant>>
    /// Wakes the timer: a poll came due sooner, a slot came free, the network came back.
    private let alarm = Alarm()
    /// The deadline of the timer's next wake, with the engine's other deadlines.
    private let timers: Timers

    /// A schedule for `config`, the resources last stored as `rows`; of them
    /// only those in `scheduling`, when it is given.
    package init(
        config: AgentConfig, rows: [ResourceRow], clock: C, timers: Timers? = nil,
        random: @escaping @Sendable () -> Double, now: @escaping @Sendable () -> Date,
        scheduling: Set<String>? = nil
    ) {
        self.clock = clock
        self.timers = timers ?? Timers(clock: clock)
        self.random = random
        self.now = now
        state = Mutex(Schedule(limits: config.syncLimits))
        let start = now()
        let rowsByName = Dictionary(rows.map { ($0.name, $0) }) { first, _ in first }
        for resource in config.resources where scheduling?.contains(resource.name) ?? true {
            schedule(resource, lastSuccessAt: rowsByName[resource.name]?.lastSuccessAt, now: start)
        }
    }

    /// Schedules `resource` (again, if it was: its poll starts over), its
    /// first sync an interval after `lastSuccessAt` at the latest; see
    /// ``firstRunAfter(_:lastSuccessAt:now:)``. Returns when it first syncs.
    @discardableResult
    package func schedule(_ resource: ResourceConfig, lastSuccessAt: Date?) -> Date {
        defer { alarm.ring() }
        return schedule(resource, lastSuccessAt: lastSuccessAt, now: now())
    }

    @discardableResult
    private func schedule(_ resource: ResourceConfig, lastSuccessAt: Date?, now start: Date) -> Date {
        let wait = Self.firstRunAfter(resource, lastSuccessAt: lastSuccessAt, now: start)
        let first = clock.now.advanced(by: wait)
        state.withLock { $0.schedule(resource, first: first, after: wait) }
        return start.addingTimeInterval(wait.seconds)
    }

    /// The resource `name` as its poll syncs it, or `nil` if it is not scheduled.
    package func resource(named name: String) -> ResourceConfig? {
        state.withLock { $0.resource(named: name) }
    }

    /// Stops scheduling `name`; a sync of it in flight is nobody's run.
    package func unschedule(_ name: String) {
        state.withLock { $0.remove(name) }
    }

    /// From now on, polls start while fewer than `limits` syncs run.
    package func setLimits(_ limits: SyncLimits) {
        state.withLock { $0.setLimits(limits) }
        alarm.ring()
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
        start.addingTimeInterval((state.withLock { $0.firstRunAfter(name) } ?? .zero).seconds)
    }

    // MARK: - The timer

    /// Waits until polls are due and fit in the limits (while `online()` is
    /// true), and returns them, each holding its slot; returns none when the
    /// task is cancelled.
    func duePolls(online: () -> Bool) async -> [Ticket] {
        while !Task.isCancelled {
            let isOnline = online()
            let (start, next) = state.withLock { $0.take(now: clock.now, online: isOnline) }
            if !start.isEmpty { return start }
            await alarm.wait(until: next.map { clock.now.duration(to: $0) }, timers: timers)
        }
        return []
    }

    /// Wakes the timer: what it waits for may have changed (the network came back).
    func wake() {
        alarm.ring()
    }

    // MARK: - Runs

    /// A run of `resource` ended, whoever started it (not cancelled): the
    /// ``Schedule/ended(_:_:changed:ticket:at:unit:)`` transition. Returns
    /// the resource's next poll as a wall-clock time (`.some(nil)`: none until
    /// a refresh; `nil`: the run was nobody's) and the resources to follow.
    func ended(_ report: SyncReport, of resource: ResourceConfig, ticket: Ticket?) -> (next: Date??, follow: [String]) {
        let end = clock.now
        let changes = report.result.changes
        let changed = report.outcome == .success && changes.added + changes.changed + changes.removed > 0
        let unit = random()
        let ended = state.withLock { state in
            state.ended(resource, RunEnd(report), changed: changed, ticket: ticket, at: end, unit: unit)
        }
        ringIfNeeded()
        return (ended.next.map { $0.map { wallClock(of: $0, from: end) } }, ended.follow)
    }

    /// The poll of `ticket` returned without a run of its own to end
    /// (``Schedule/returned(_:ran:at:unit:)``): returns its next poll as a
    /// wall-clock time, when that moved.
    func returned(_ ticket: Ticket, ran: Bool) -> Date?? {
        let end = clock.now
        let unit = random()
        let next = state.withLock { $0.returned(ticket, ran: ran, at: end, unit: unit) }
        ringIfNeeded()
        return next.map { $0.map { wallClock(of: $0, from: end) } }
    }

    // MARK: - Dependencies

    /// Takes the change of `name`'s dependency to follow; see ``Schedule/follow(_:)``.
    func follow(_ name: String) -> (ResourceConfig, number: Int)? {
        state.withLock { $0.follow(name) }
    }

    /// Keeps the values `name`'s URL read; whether they changed.
    func read(_ values: [URLTemplate.Dependency: String], for name: String, number: Int) -> Bool {
        state.withLock { $0.read(values, for: name, number: number) }
    }

    // MARK: - Private

    /// Wakes the timer if what changed cannot wait until it wakes by itself:
    /// most polls end with their next time later than the timer's.
    private func ringIfNeeded() {
        if state.withLock({ $0.takeWake() }) { alarm.ring() }
    }

    /// The wall-clock time of `instant`, knowing that `reference` is now.
    private func wallClock(of instant: C.Instant, from reference: C.Instant) -> Date {
        now().addingTimeInterval(reference.duration(to: instant).seconds)
    }
}
