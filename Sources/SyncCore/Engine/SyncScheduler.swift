import DequeModule
import Foundation
import HeapModule
import Store
import Streams
import Synchronization

/// When each resource syncs (docs/architecture.md#the-engine), for every
/// resource from one timer:
///
/// - Each resource is polled by the rules of Streams' `PollSchedule` (those of
///   `poll`): an `interval` (plus `pollJitter`) after its last successful
///   sync. A sync that fails for good (unrecoverable, or retries used up)
///   stops the polls until a sync that someone asked for succeeds.
/// - One task sleeps until the earliest poll is due; the due polls wait
///   while the machine is offline (as `pausable` holds them) and start while
///   fewer than ``SyncLimits`` syncs run, in all and to their host.
/// - A sync that someone else started (a refresh, a dependency) ends as the
///   resource's run: a success restarts the interval.
/// - A resource whose URL reads another's record syncs again when the values
///   it reads change, switching to the latest: a sync in flight with the old
///   values is cancelled.
///
/// A scheduled resource costs an entry and a place in a heap, not a task.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
package final class SyncScheduler<C: Clock<Duration>>: Sendable {
    /// What the scheduler asks of the engine.
    package struct Engine: Sendable {
        /// Syncs a resource, or joins its sync in flight.
        var sync: @Sendable (ResourceConfig, SyncTrigger) async -> SyncReport
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
    private let state: Mutex<State>
    /// Wakes the timer: a poll came due sooner, a sync ended, the network came back.
    private let alarm = Alarm()
    /// The deadline of the timer's next wake, with the engine's other deadlines.
    private let timers: Timers
    /// The resources whose URL reads a resource that has new data, in order.
    private let dependencyChanges = AsyncStream<String>.makeStream()

    /// A poll in the queue, valid while its entry waits with the same turn.
    private struct Ticket: Sendable {
        var name: String
        var number: Int
        var turn: Int
        /// The host whose slot it takes.
        var host: String
    }

    /// A time a resource's poll is due, valid while its entry waits for that time.
    /// Timers due at the same time come in the order they were set.
    private struct Timer: Comparable, Sendable {
        var due: C.Instant
        var order: Int
        var name: String
        var number: Int

        static func < (lhs: Timer, rhs: Timer) -> Bool { (lhs.due, lhs.order) < (rhs.due, rhs.order) }
        static func == (lhs: Timer, rhs: Timer) -> Bool { (lhs.due, lhs.order) == (rhs.due, rhs.order) }
    }

    /// One scheduled resource.
    private struct Entry: Sendable {
        enum Phase: Equatable {
            /// Waiting for its time (or, stopped, for a refresh).
            case waiting
            /// Due, queued for the network or a free slot, with its ticket's turn.
            case queued(turn: Int)
            /// Its poll's sync runs.
            case running
        }

        /// Tells it from an entry of the same name that replaced it.
        var number: Int
        var resource: ResourceConfig
        /// The host whose limit its polls count against.
        var host: String
        /// How long after it is scheduled it first syncs.
        var firstRunAfter: Duration
        var schedule: PollSchedule<C.Instant>
        /// Its first poll is a startup sync (its data is stale).
        var startup: Bool
        var phase = Phase.waiting
        /// The time of its timer in the heap, if it has one: one timer per
        /// entry, set again at its new time when it fires early.
        var armed: C.Instant?
        /// The values its URL read when it last followed a change of them.
        var dependencyValues: [URLTemplate.Dependency: String]?
    }

    private struct State: Sendable {
        var entries: [String: Entry] = [:]
        /// The resources whose URLs read each resource, by its name.
        var followers: [String: Set<String>] = [:]
        /// When each entry is due: one timer per entry (a replaced or
        /// unscheduled entry's timer is skipped when it comes).
        var timers = Heap<Timer>()
        /// The resources whose dependency changed, not yet followed: a change
        /// waits once, however many come meanwhile.
        var followsPending: Set<String> = []
        /// The due polls, by host, each in the order it came due.
        var queued: [String: Deque<Ticket>] = [:]
        /// The hosts with due polls, taken in turn.
        var queuedHosts = Deque<String>()
        var limits: SyncLimits
        var running = 0
        var runningByHost: [String: Int] = [:]
        var nextNumber = 0
        var nextTurn = 0
        var nextOrder = 0
        /// When the timer wakes by itself (`nil`: only when rung).
        var wakesAt: C.Instant?
        /// Whether something changed that the timer must see before `wakesAt`:
        /// a sooner timer, or a slot freed while polls are queued.
        var mustWake = false

        /// Removes the entry `name` and what follows from it.
        mutating func remove(_ name: String) {
            guard let entry = entries.removeValue(forKey: name) else { return }
            for dependency in Set(entry.resource.dependencies) {
                followers[dependency]?.remove(name)
                if followers[dependency]?.isEmpty == true { followers[dependency] = nil }
            }
        }

        /// Sets a timer for the next poll of `name`, if it has one, unless
        /// its timer comes as soon (that one sets the next when it fires).
        mutating func arm(_ name: String) {
            guard var entry = entries[name], let due = entry.schedule.due else { return }
            if let armed = entry.armed, armed <= due { return }
            entry.armed = due
            entries[name] = entry
            nextOrder += 1
            timers.insert(Timer(due: due, order: nextOrder, name: name, number: entry.number))
            if wakesAt.map({ due < $0 }) ?? true { mustWake = true }
        }

        /// A run of `name` ended as `run` at `end`: it waits for its next
        /// poll, armed; returns when that is (`nil`: not until a refresh).
        mutating func ran(_ name: String, _ run: RunEnd, at end: C.Instant, unit: Double) -> C.Instant? {
            guard var entry = entries[name] else { return nil }
            entry.phase = .waiting
            entry.schedule.apply(run, at: end, unit: unit)
            entries[name] = entry
            arm(name)
            return entry.schedule.due
        }

        /// A poll to `host` ended: its slot is free.
        mutating func release(host: String) {
            running -= 1
            runningByHost[host, default: 1] -= 1
            if runningByHost[host] == 0 { runningByHost[host] = nil }
            if !queuedHosts.isEmpty { mustWake = true }
        }

        /// Whether the timer must wake now; resets the flag.
        mutating func takeWake() -> Bool {
            defer { mustWake = false }
            return mustWake
        }

        /// Queues the polls due by `now`; when online, takes from the queue the
        /// polls that fit in the limits (a slot taken for each, hosts in turn).
        /// Returns them and when the next timer is due.
        mutating func take(now: C.Instant, online: Bool) -> ([Ticket], C.Instant?) {
            while let timer = timers.min, timer.due <= now {
                timers.removeMin()
                guard var entry = entries[timer.name], entry.number == timer.number, entry.armed == timer.due
                else { continue }
                entry.armed = nil
                entries[timer.name] = entry
                guard entry.phase == .waiting, let due = entry.schedule.due else { continue }
                guard due <= timer.due else {
                    // Its poll moved later meanwhile (a refresh ran): one timer at the new time.
                    arm(timer.name)
                    continue
                }
                nextTurn += 1
                entry.phase = .queued(turn: nextTurn)
                entries[timer.name] = entry
                if queued[entry.host] == nil { queuedHosts.append(entry.host) }
                queued[entry.host, default: []].append(
                    Ticket(name: timer.name, number: entry.number, turn: nextTurn, host: entry.host))
            }
            var start: [Ticket] = []
            mustWake = false
            wakesAt = timers.min?.due
            guard online else { return (start, wakesAt) }
            var hosts = queuedHosts.count
            while running < limits.total, hosts > 0, let host = queuedHosts.popFirst() {
                hosts -= 1
                // Taken out of the table while it is changed, so that it is not copied.
                var tickets = queued.removeValue(forKey: host) ?? []
                while running < limits.total, runningByHost[host, default: 0] < limits.perHost,
                    let ticket = tickets.popFirst()
                {
                    // Answered by another sync, unscheduled or replaced meanwhile.
                    guard var entry = entries[ticket.name], entry.number == ticket.number,
                        entry.phase == .queued(turn: ticket.turn)
                    else { continue }
                    entry.phase = .running
                    entries[ticket.name] = entry
                    running += 1
                    runningByHost[host, default: 0] += 1
                    start.append(ticket)
                }
                if !tickets.isEmpty {
                    queued[host] = tickets
                    queuedHosts.append(host)
                }
            }
            return (start, wakesAt)
        }
    }

    /// A schedule for `config`, the resources last stored as `rows`; of them
    /// only those in `scheduling`, when it is given.
    package init(
        config: AgentConfig, rows: [ResourceRow], online: CurrentValueSubject<Bool, Never>, clock: C,
        timers: Timers? = nil, random: @escaping @Sendable () -> Double, now: @escaping @Sendable () -> Date,
        scheduling: Set<String>? = nil
    ) {
        self.online = online
        self.clock = clock
        self.timers = timers ?? Timers(clock: clock)
        self.random = random
        self.now = now
        state = Mutex(State(limits: config.syncLimits))
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
        state.withLock { state in
            state.remove(resource.name)
            state.nextNumber += 1
            let entry = Entry(
                number: state.nextNumber, resource: resource, host: resource.host, firstRunAfter: wait,
                schedule: PollSchedule(
                    interval: resource.settings.interval, jitter: resource.settings.pollJitter, firstRun: first),
                startup: wait == .zero)
            state.entries[resource.name] = entry
            for dependency in Set(resource.dependencies) {
                state.followers[dependency, default: []].insert(resource.name)
            }
            state.arm(resource.name)
        }
        return start.addingTimeInterval(wait.timeInterval)
    }

    /// The resource `name` as its poll syncs it, or `nil` if it is not scheduled.
    package func resource(named name: String) -> ResourceConfig? {
        state.withLock { $0.entries[name]?.resource }
    }

    /// Stops scheduling `name`; a sync of it in flight is nobody's run.
    package func unschedule(_ name: String) {
        state.withLock { $0.remove(name) }
    }

    /// From now on, polls start while fewer than `limits` syncs run.
    package func setLimits(_ limits: SyncLimits) {
        state.withLock { $0.limits = limits }
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
        start.addingTimeInterval((state.withLock { $0.entries[name]?.firstRunAfter } ?? .zero).timeInterval)
    }

    /// A sync of `resource` ended (not cancelled). Unless its own poll runs
    /// it, it is the poll's run: returns the time of the next poll then
    /// (`.some(nil)`: none until a refresh). The resources whose URLs read
    /// it follow a change. A sync of a configuration that a reload replaced
    /// is nobody's run.
    package func ended(_ report: SyncReport, of resource: ResourceConfig) -> Date?? {
        let name = report.resource
        let end = clock.now
        let changes = report.result.changes
        let changed = report.outcome == .success && changes.added + changes.changed + changes.removed > 0
        let (next, followers): (C.Instant??, [String]) = state.withLock { state in
            guard let entry = state.entries[name], entry.resource == resource else { return (nil, []) }
            // A change waits once to be followed, however many come meanwhile.
            let followers =
                changed ? (state.followers[name] ?? []).filter { state.followsPending.insert($0).inserted } : []
            guard entry.phase != .running else { return (nil, followers) }
            // A queued poll is answered by this sync.
            return (.some(state.ran(name, RunEnd(report), at: end, unit: random())), followers)
        }
        for follower in followers { dependencyChanges.continuation.yield(follower) }
        guard let next else { return nil }
        ringIfNeeded()
        return .some(next.map { wallClock(of: $0, from: end) })
    }

    /// Runs every resource's polls and dependencies until cancelled, and
    /// those of each resource scheduled meanwhile until it is unscheduled.
    package func run(_ engine: Engine) async {
        await withDiscardingTaskGroup { group in
            group.addTask { await self.followDependencies(engine) }
            group.addTask {
                // The network coming back starts the polls it held.
                for await _ in self.online { self.alarm.ring() }
            }
            while !Task.isCancelled {
                let isOnline = online.value
                let (start, next) = state.withLock { $0.take(now: clock.now, online: isOnline) }
                for ticket in start {
                    group.addTask { await self.poll(ticket, engine) }
                }
                await alarm.wait(until: next.map { clock.now.duration(to: $0) }, timers: timers)
            }
            group.cancelAll()
        }
    }

    /// Wakes the timer if what changed cannot wait until it wakes by itself:
    /// most polls end with their next time later than the timer's.
    private func ringIfNeeded() {
        if state.withLock({ $0.takeWake() }) { alarm.ring() }
    }

    /// Runs the poll of `ticket`, a slot taken for it.
    private func poll(_ ticket: Ticket, _ engine: Engine) async {
        let started = state.withLock { state -> (ResourceConfig, Bool)? in
            guard var entry = state.entries[ticket.name], entry.number == ticket.number else { return nil }
            let startup = entry.startup
            entry.startup = false
            state.entries[ticket.name] = entry
            return (entry.resource, startup)
        }
        var end = RunEnd.skipped
        if let (resource, startup) = started {
            // At startup a resource whose URL reads a record that does not
            // exist yet waits for it: the dependency's first sync triggers it.
            if startup, !resource.dependencies.isEmpty, await engine.dependencyValues(resource) == nil {
                end = .skipped
            } else {
                end = RunEnd(await engine.sync(resource, startup ? .startup : .poll))
            }
        }
        let at = clock.now
        let unit = random()
        let next = state.withLock { state -> C.Instant?? in
            state.release(host: ticket.host)
            guard state.entries[ticket.name]?.number == ticket.number else { return nil }
            return .some(state.ran(ticket.name, end, at: at, unit: unit))
        }
        ringIfNeeded()
        // Cancelled: the agent is stopping, and the schedule with it.
        if let next, !Task.isCancelled {
            engine.scheduled(ticket.name, next.map { wallClock(of: $0, from: at) })
        }
    }

    /// Syncs each resource again when the values its URL reads change,
    /// switching to the latest (one change at a time, in order).
    private func followDependencies(_ engine: Engine) async {
        await withDiscardingTaskGroup { syncs in
            for await name in dependencyChanges.stream {
                let current = state.withLock { state in
                    state.followsPending.remove(name)
                    return state.entries[name].map { ($0.resource, $0.number) }
                }
                guard let (resource, number) = current,
                    let values = await engine.dependencyValues(resource)
                else { continue }
                let changed = state.withLock { state in
                    guard var entry = state.entries[name], entry.number == number, entry.dependencyValues != values
                    else { return false }
                    entry.dependencyValues = values
                    state.entries[name] = entry
                    return true
                }
                guard changed else { continue }
                // A sync in flight read the old values: switch to the latest.
                engine.cancel(name)
                syncs.addTask { _ = await engine.sync(resource, .dependency) }
            }
        }
    }

    /// The wall-clock time of `instant`, knowing that `reference` is now.
    private func wallClock(of instant: C.Instant, from reference: C.Instant) -> Date {
        now().addingTimeInterval(reference.duration(to: instant).timeInterval)
    }
}

/// How a poll's run ended, for its schedule.
private enum RunEnd {
    case succeeded
    /// A failure for good: polls stop until a sync someone asks for succeeds.
    case stopped
    /// A run that did not end the usual way (cancelled, offline, storage): the schedule stands.
    case skipped
    /// Rate limited past `rateLimit.maxWait`: the next poll comes at the reset.
    case deferred(Duration)

    init(_ report: SyncReport) {
        switch report.outcome {
        case .success, .notModified: self = .succeeded
        case .gaveUp where report.result.error?.kind == .storage: self = .skipped
        case .failed, .gaveUp: self = .stopped
        case .rateLimited: self = report.retryAfter.map { .deferred($0) } ?? .skipped
        default: self = .skipped
        }
    }
}

extension PollSchedule {
    /// Moves the schedule after a run that ended at `end`; `unit` (in `0..<1`) draws the jitter.
    fileprivate mutating func apply(_ run: RunEnd, at end: Instant, unit: Double) {
        switch run {
        case .succeeded: succeeded(at: end, unit: unit)
        case .stopped: failed(at: end, stop: true)
        case .skipped: failed(at: end, stop: false)
        case .deferred(let wait): deferred(to: end.advanced(by: max(.zero, wait)))
        }
    }
}

/// Wakes one waiting task; a ring while none waits is kept for the next wait.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`, the waiter resumed outside it.
private final class Alarm: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when rung, when `delay` has passed on the clock of `timers`, or when cancelled.
    func wait(until delay: Duration?, timers: Timers) async {
        guard let delay else { return await wait() }
        let token = timers.schedule(after: delay) { [weak self] in self?.ring() }
        await wait()
        // A deadline that rang after another ring woke this wait wakes the
        // next one early: the timer finds nothing due and waits again.
        timers.cancel(token)
    }

    private func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.rung || Task.isCancelled {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
