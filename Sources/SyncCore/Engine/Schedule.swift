import DequeModule
import HeapModule
import Store
import Streams

/// When each resource syncs, as a value (docs/architecture.md#the-engine):
/// the engine's ``SyncScheduler`` holds one and feeds it what happens (a
/// resource scheduled, the timer's wake, a run's end, a poll's return), and
/// each transition returns what follows (the polls to start, the next due
/// time, the resources to follow). It holds no clock and does no I/O.
///
/// - Each resource is polled by the rules of Streams' `PollSchedule` (those of
///   `poll`): an `interval` (plus `pollJitter`) after its last successful
///   sync. A sync that fails for good (unrecoverable, or retries used up)
///   stops the polls until a sync that someone asked for succeeds.
/// - Due polls queue by host; while offline the queue holds (as `pausable`
///   would), and polls start while fewer than ``SyncLimits`` syncs run, in all
///   and to their host, hosts taken in turn.
/// - A run's end, whoever started it (its poll, a refresh, a dependency), is
///   the resource's run: a success restarts the interval. A queued poll is
///   answered by it.
/// - A resource whose URL reads another's record follows a change of it, once
///   however many come meanwhile.
///
/// A scheduled resource costs an entry and a place in a heap, not a task.
struct Schedule<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    /// A due poll that took a slot, valid while its entry has the same number.
    struct Ticket: Sendable {
        var name: String
        var number: Int
        /// The host whose slot it takes.
        var host: String
        /// The resource as its poll syncs it.
        var resource: ResourceConfig
        /// Whether it is the resource's first poll, with its data stale.
        var startup: Bool
        /// Tells it from every other ticket: its slot is freed once.
        var turn: Int
    }

    /// What a run's end changes.
    struct Ended: Equatable {
        /// The resource's next poll (`.some(nil)`: none until a refresh);
        /// `nil` when the run was nobody's (its resource replaced or unscheduled).
        var next: Instant??
        /// The resources whose URLs read this one, to follow its change.
        var follow: [String] = []
    }

    /// A time a resource's poll is due, valid while its entry waits for that time.
    /// Timers due at the same time come in the order they were set.
    private struct Timer: Comparable, Sendable {
        var due: Instant
        var order: Int
        var name: String
        var number: Int

        static func < (lhs: Timer, rhs: Timer) -> Bool { (lhs.due, lhs.order) < (rhs.due, rhs.order) }
        static func == (lhs: Timer, rhs: Timer) -> Bool { (lhs.due, lhs.order) == (rhs.due, rhs.order) }
    }

    /// A due poll in the queue, valid while its entry waits with the same turn.
    private struct Queued: Sendable {
        var name: String
        var number: Int
        var turn: Int
    }

    /// One scheduled resource.
    private struct Entry: Sendable {
        enum Phase: Equatable {
            /// Waiting for its time (or, stopped, for a refresh).
            case waiting
            /// Due, queued for the network or a free slot, with its turn.
            case queued(turn: Int)
            /// Its poll runs, holding a slot.
            case running
        }

        /// Tells it from an entry of the same name that replaced it.
        var number: Int
        var resource: ResourceConfig
        /// The host whose limit its polls count against.
        var host: String
        /// How long after it is scheduled it first syncs.
        var firstRunAfter: Duration
        var schedule: PollSchedule<Instant>
        /// Its first poll is a startup sync (its data is stale).
        var startup: Bool
        var phase = Phase.waiting
        /// Whether a run ended while its poll ran (one it joined, or the one
        /// that replaced its own): the poll's return moves the schedule no more.
        var ranDuringPoll = false
        /// The time of its timer in the heap, if it has one: one timer per
        /// entry, set again at its new time when it fires early.
        var armed: Instant?
        /// The values its URL read when it last followed a change of them.
        var dependencyValues: [URLTemplate.Dependency: String]?
    }

    private var entries: [String: Entry] = [:]
    /// The resources whose URLs read each resource, by its name.
    private var followers: [String: Set<String>] = [:]
    /// When each entry is due: one timer per entry (a replaced or unscheduled
    /// entry's timer is skipped when it comes).
    private var timers = Heap<Timer>()
    /// The resources whose dependency changed, not yet followed: a change
    /// waits once, however many come meanwhile.
    private var followsPending: Set<String> = []
    /// The due polls, by host, each in the order it came due.
    private var queued: [String: Deque<Queued>] = [:]
    /// The hosts with due polls, taken in turn.
    private var queuedHosts = Deque<String>()
    private var limits: SyncLimits
    private var running = 0
    private var runningByHost: [String: Int] = [:]
    /// The turns of the tickets holding a slot.
    private var holding: Set<Int> = []
    private var nextNumber = 0
    private var nextTurn = 0
    private var nextOrder = 0
    /// When the timer wakes by itself (`nil`: only when woken).
    private var wakesAt: Instant?
    /// Whether something changed that the timer must see before `wakesAt`:
    /// a sooner timer, or a slot freed while polls are queued.
    private var mustWake = false

    /// An empty schedule whose polls start within `limits`.
    init(limits: SyncLimits) {
        self.limits = limits
    }

    // MARK: - Resources

    /// Schedules `resource` (again, if it was: its poll starts over), its
    /// first poll due at `first`, `wait` from now.
    mutating func schedule(_ resource: ResourceConfig, first: Instant, after wait: Duration) {
        remove(resource.name)
        nextNumber += 1
        entries[resource.name] = Entry(
            number: nextNumber, resource: resource, host: resource.host, firstRunAfter: wait,
            schedule: PollSchedule(
                interval: resource.settings.interval, jitter: resource.settings.pollJitter, firstRun: first),
            startup: wait == .zero)
        for dependency in Set(resource.dependencies) {
            followers[dependency, default: []].insert(resource.name)
        }
        arm(resource.name)
    }

    /// Removes the entry `name` and what follows from it: a run of it that
    /// ends is nobody's.
    mutating func remove(_ name: String) {
        guard let entry = entries.removeValue(forKey: name) else { return }
        for dependency in Set(entry.resource.dependencies) {
            followers[dependency]?.remove(name)
            if followers[dependency]?.isEmpty == true { followers[dependency] = nil }
        }
    }

    /// From now on, polls start within `limits`.
    mutating func setLimits(_ limits: SyncLimits) {
        self.limits = limits
    }

    /// The resource `name` as its poll syncs it, or `nil` if it is not scheduled.
    func resource(named name: String) -> ResourceConfig? {
        entries[name]?.resource
    }

    /// How long after it was scheduled `name` first syncs.
    func firstRunAfter(_ name: String) -> Duration? {
        entries[name]?.firstRunAfter
    }

    // MARK: - The timer

    /// Queues the polls due by `now`; when online, takes from the queue the
    /// polls that fit in the limits (a slot taken for each, hosts in turn).
    /// Returns them and when the next timer is due.
    mutating func take(now: Instant, online: Bool) -> (start: [Ticket], next: Instant?) {
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
            queued[entry.host, default: []].append(Queued(name: timer.name, number: entry.number, turn: nextTurn))
        }
        var start: [Ticket] = []
        mustWake = false
        wakesAt = timers.min?.due
        guard online else { return (start, wakesAt) }
        var hosts = queuedHosts.count
        while running < limits.total, hosts > 0, let host = queuedHosts.popFirst() {
            hosts -= 1
            // Taken out of the table while it is changed, so that it is not copied.
            var waiting = queued.removeValue(forKey: host) ?? []
            while running < limits.total, runningByHost[host, default: 0] < limits.perHost,
                let next = waiting.popFirst()
            {
                // Answered by another sync, unscheduled or replaced meanwhile.
                guard var entry = entries[next.name], entry.number == next.number,
                    entry.phase == .queued(turn: next.turn)
                else { continue }
                entry.phase = .running
                start.append(
                    Ticket(
                        name: next.name, number: entry.number, host: host, resource: entry.resource,
                        startup: entry.startup, turn: next.turn))
                entry.startup = false
                entries[next.name] = entry
                running += 1
                runningByHost[host, default: 0] += 1
                holding.insert(next.turn)
            }
            if !waiting.isEmpty {
                queued[host] = waiting
                queuedHosts.append(host)
            }
        }
        return (start, wakesAt)
    }

    /// Whether the timer must wake before `wakesAt` to see what changed; resets it.
    mutating func takeWake() -> Bool {
        defer { mustWake = false }
        return mustWake
    }

    // MARK: - Runs

    /// A run of `resource` ended at `end`, whoever started it (not cancelled);
    /// `ticket` is its poll's, when its poll started it. The run moves the
    /// poll's schedule (`unit`, in `0..<1`, draws the jitter) and answers a
    /// queued poll; a poll's slot is free again. A run of a resource that a
    /// reload replaced or removed changes nothing. A run that `changed` the
    /// records is followed by the resources whose URLs read them.
    mutating func ended(
        _ resource: ResourceConfig, _ run: RunEnd, changed: Bool, ticket: Ticket?, at end: Instant, unit: Double
    ) -> Ended {
        let name = resource.name
        if let ticket { release(ticket) }
        guard var entry = entries[name], entry.resource == resource else { return Ended(next: nil) }
        // A change waits once to be followed, however many come meanwhile.
        let follow = changed ? (followers[name] ?? []).filter { followsPending.insert($0).inserted } : []
        entry.schedule.apply(run, at: end, unit: unit)
        // A poll of its own that joined this run frees its slot as it returns.
        if entry.phase != .running || ticket?.number == entry.number {
            entry.phase = .waiting
        } else {
            entry.ranDuringPoll = true
        }
        entries[name] = entry
        arm(name)
        return Ended(next: .some(entry.schedule.due), follow: follow.sorted())
    }

    /// The poll of `ticket` returned without a run of its own to end: it
    /// joined another's (already ended), was skipped, or was cancelled. Its
    /// slot is free again; a poll that did not run, and during which no run
    /// ended, moves its schedule as a skipped run. Returns its next poll,
    /// when that moved.
    mutating func returned(_ ticket: Ticket, ran: Bool, at end: Instant, unit: Double) -> Instant?? {
        release(ticket)
        guard var entry = entries[ticket.name], entry.number == ticket.number, entry.phase == .running else {
            return nil
        }
        entry.phase = .waiting
        let moves = !ran && !entry.ranDuringPoll
        entry.ranDuringPoll = false
        if moves { entry.schedule.apply(.skipped, at: end, unit: unit) }
        entries[ticket.name] = entry
        arm(ticket.name)
        return moves ? .some(entry.schedule.due) : nil
    }

    // MARK: - Dependencies

    /// Takes the change of `name`'s dependency to follow: the resource and
    /// its number, or `nil` when it is no longer scheduled.
    mutating func follow(_ name: String) -> (ResourceConfig, number: Int)? {
        followsPending.remove(name)
        return entries[name].map { ($0.resource, $0.number) }
    }

    /// Keeps `values` as those the entry `number` of `name` read; whether
    /// they changed (then its sync switches to them).
    mutating func read(_ values: [URLTemplate.Dependency: String], for name: String, number: Int) -> Bool {
        guard var entry = entries[name], entry.number == number, entry.dependencyValues != values else {
            return false
        }
        entry.dependencyValues = values
        entries[name] = entry
        return true
    }

    // MARK: - Private

    /// Sets a timer for the next poll of `name`, if it has one, unless its
    /// timer comes as soon (that one sets the next when it fires).
    private mutating func arm(_ name: String) {
        guard var entry = entries[name], entry.phase == .waiting, let due = entry.schedule.due else { return }
        if let armed = entry.armed, armed <= due { return }
        entry.armed = due
        entries[name] = entry
        nextOrder += 1
        timers.insert(Timer(due: due, order: nextOrder, name: name, number: entry.number))
        if wakesAt.map({ due < $0 }) ?? true { mustWake = true }
    }

    /// The poll of `ticket` ended: its slot is free (once, however often told).
    private mutating func release(_ ticket: Ticket) {
        guard holding.remove(ticket.turn) != nil else { return }
        running -= 1
        runningByHost[ticket.host, default: 1] -= 1
        if runningByHost[ticket.host] == 0 { runningByHost[ticket.host] = nil }
        if !queuedHosts.isEmpty { mustWake = true }
    }
}

/// How a run ended, for the resource's `PollSchedule`.
enum RunEnd: Equatable {
    case succeeded
    /// A failure for good: polls stop until a sync someone asks for succeeds.
    case stopped
    /// A run that did not end the usual way (offline, storage, a poll
    /// skipped or cancelled): the schedule stands.
    case skipped
    /// Rate limited past `rateLimit.maxWait`: the next poll comes at the reset.
    case deferred(Duration)

    init(_ report: SyncReport) {
        switch report.outcome {
        case .success, .notModified: self = .succeeded
        case .gaveUp where report.result.error?.kind == .storage: self = .skipped
        case .failed, .gaveUp: self = .stopped
        case .rateLimited: self = report.retryAfter.map { .deferred($0) } ?? .skipped
        case .offline, .cancelled: self = .skipped
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
