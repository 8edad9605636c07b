import Logging
import Streams
import Synchronization

/// What the status API, its event stream, systemd and waiting refreshes see
/// of the running agent: each resource's ``ResourceMachine`` and the
/// deliveries its transitions cause (docs/architecture.md#the-engine).
///
/// Deliveries (a status change to ``changes``, a sync's report to
/// ``activity`` and to the refreshes watching the resource, the slow
/// warning to the log) happen in the order of the events that caused them,
/// and never while a lock is held: an event's deliveries are queued under the
/// lock, and whoever finds no delivery under way delivers the queue after
/// leaving it. So a watcher may call back into the engine (read a status,
/// cause an event) without deadlock: what it causes is queued and delivered
/// right after.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
package final class StatePublication: Sendable {
    /// Told what a running sync reports.
    package typealias Watcher = @Sendable (SyncActivity) -> Void

    /// Told that statuses changed (`true`), or that they never will again
    /// (`false`, the agent is stopping).
    package typealias ChangeObserver = @Sendable (_ changed: Bool) -> Void

    /// Every change of a resource's status, in order, numbered.
    package let changes = PassthroughSubject<StatusChange, Never>()
    /// What running syncs report: pages, retries, slowness, ends.
    package let activity = PassthroughSubject<SyncActivity, Never>()

    private enum Delivery {
        case status(StatusChange)
        case activity(SyncActivity)
        case warnSlow(resource: String)
    }

    private struct State {
        /// The resources, in configuration order.
        var names: [String]
        var machines: [String: ResourceMachine]
        var online = true
        /// How many times a status changed.
        var version = 0
        /// The version of each resource's last status change: what
        /// ``changes(since:)`` tells from.
        var revisions: [String: Int] = [:]
        var queue: [Delivery] = []
        /// Deliveries queued and delivered since the start.
        var queued = 0
        var delivered = 0
        /// Whether a caller is delivering the queue.
        var delivering = false
        var watchers: [String: [Int: Watcher]] = [:]
        var nextWatcher = 0
        /// Told after each batch of status changes, until ``finish()``.
        var observers: [ChangeObserver] = []
        var finished = false
        /// Callers of ``flush()`` waiting for the deliveries queued before they came.
        var flushes: [(through: Int, continuation: CheckedContinuation<Void, Never>)] = []

        mutating func enqueue(_ delivery: Delivery) {
            queue.append(delivery)
            queued += 1
            if case .status(let change) = delivery { revisions[change.status.name] = change.version }
        }

        /// Whether the caller is to deliver the queue (nobody else is).
        mutating func claimDelivery() -> Bool {
            guard !delivering, !queue.isEmpty else { return false }
            delivering = true
            return true
        }
    }

    private let state: Mutex<State>
    private let logger: Logger

    /// Publishes the states of `machines`, in this order.
    package init(machines: [ResourceMachine], logger: Logger) {
        state = Mutex(
            State(
                names: machines.map(\.name),
                machines: Dictionary(machines.map { ($0.name, $0) }) { first, _ in first }))
        self.logger = logger
    }

    /// Every resource's status, in configuration order.
    package func statuses() -> [ResourceStatus] {
        state.withLock { state in state.names.compactMap { state.machines[$0]?.status(online: state.online) } }
    }

    /// The status of `name`, or `nil` for an unknown resource.
    package func status(of name: String) -> ResourceStatus? {
        state.withLock { state in state.machines[name]?.status(online: state.online) }
    }

    /// How many times a status has changed: equal counts, equal statuses.
    package var version: Int { state.withLock { $0.version } }

    /// Every resource's status and the version they show: every change
    /// numbered that version or lower is in them, every later one is not.
    package func snapshot() -> (version: Int, statuses: [ResourceStatus]) {
        state.withLock { state in
            (state.version, state.names.compactMap { state.machines[$0]?.status(online: state.online) })
        }
    }

    /// What changed in the statuses since a version (``changes(since:)``).
    package struct Changes: Sendable {
        /// The version the statuses show now.
        package var version: Int
        /// Every resource's name, in configuration order.
        package var names: [String]
        /// The status of each resource whose status changed after the version
        /// asked for (of every resource, when none was asked), in configuration order.
        package var changed: [ResourceStatus]

        package init(version: Int, names: [String], changed: [ResourceStatus]) {
            self.version = version
            self.names = names
            self.changed = changed
        }
    }

    /// The statuses that changed after `version` (all of them for `nil`),
    /// with the version they show: what a reader that keeps what it saw at
    /// `version` needs to catch up, without a copy of every status (the body
    /// of `GET /v1/status`). A resource that a reload added since counts as changed.
    package func changes(since version: Int?) -> Changes {
        state.withLock { state in
            let changed = state.names.compactMap { name -> ResourceStatus? in
                // A status never changed since the start shows version 0.
                if let version, state.revisions[name, default: 0] <= version { return nil }
                return state.machines[name]?.status(online: state.online)
            }
            return Changes(version: state.version, names: state.names, changed: changed)
        }
    }

    /// Applies `event` to the machine of `name` and delivers what it causes.
    package func handle(_ name: String, _ event: ResourceMachine.Event) {
        let deliver = state.withLock { state -> Bool in
            guard var machine = state.machines[name] else { return false }
            let before = machine.status(online: state.online)
            let actions = machine.handle(event)
            state.machines[name] = machine
            var feed: ClosedRange<Int64>?
            if case .finished(_, let report, _, _) = event { feed = report.feed }
            for action in actions {
                switch action {
                case .publishStatus:
                    // While offline, what changed underneath may not show; changes to the records always do.
                    let after = machine.status(online: state.online)
                    guard after != before || feed != nil else { continue }
                    state.version += 1
                    state.enqueue(.status(StatusChange(version: state.version, status: after, feed: feed)))
                    feed = nil
                case .report(let report):
                    state.enqueue(.activity(report))
                case .warnSlow:
                    state.enqueue(.warnSlow(resource: name))
                }
            }
            if let feed {
                // The records changed though the status did not (a sync that a newer one replaced).
                state.version += 1
                state.enqueue(
                    .status(
                        StatusChange(version: state.version, status: machine.status(online: state.online), feed: feed)))
            }
            return state.claimDelivery()
        }
        if deliver { deliverQueue() }
    }

    /// The machine went offline or came back: every status shows it.
    package func setOnline(_ online: Bool) {
        let deliver = state.withLock { state -> Bool in
            guard state.online != online else { return false }
            state.online = online
            state.version += 1
            for name in state.names {
                guard let machine = state.machines[name] else { continue }
                state.enqueue(.status(StatusChange(version: state.version, status: machine.status(online: online))))
            }
            return state.claimDelivery()
        }
        if deliver { deliverQueue() }
    }

    /// The resources are now `names`, in this order (a reloaded
    /// configuration): those not among them are dropped, and each of
    /// `added` joins with its status told as a change. The others keep their
    /// machines.
    package func setResources(_ names: [String], adding added: [ResourceMachine]) {
        let deliver = state.withLock { state -> Bool in
            let kept = Set(names)
            state.machines = state.machines.filter { kept.contains($0.key) }
            state.revisions = state.revisions.filter { kept.contains($0.key) }
            state.names = names
            // Even with nothing to tell, the statuses as a whole changed.
            state.version += 1
            for machine in added where kept.contains(machine.name) {
                state.machines[machine.name] = machine
                state.version += 1
                state.enqueue(
                    .status(StatusChange(version: state.version, status: machine.status(online: state.online))))
            }
            return state.claimDelivery()
        }
        if deliver { deliverQueue() }
    }

    /// Tells `watcher` what the syncs of `name` report, until ``unwatch(_:_:)``.
    package func watch(_ name: String, _ watcher: @escaping Watcher) -> Int {
        state.withLock { state in
            state.nextWatcher += 1
            state.watchers[name, default: [:]][state.nextWatcher] = watcher
            return state.nextWatcher
        }
    }

    /// Stops telling watcher `id` of `name`.
    package func unwatch(_ name: String, _ id: Int) {
        state.withLock { _ = $0.watchers[name]?.removeValue(forKey: id) }
    }

    /// Returns once everything queued before the call has been delivered.
    package func flush() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let done = state.withLock { state -> Bool in
                guard state.delivered < state.queued else { return true }
                state.flushes.append((state.queued, continuation))
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// Tells `observer` after each batch of status changes is delivered, in
    /// the delivering task, without the hop to a task of its own that a
    /// consumer of ``changes`` takes at every change: for a consumer that
    /// only needs to know that something changed (systemd's status line).
    package func observe(_ observer: @escaping ChangeObserver) {
        let finished = state.withLock { state -> Bool in
            if !state.finished { state.observers.append(observer) }
            return state.finished
        }
        if finished { observer(false) }
    }

    /// Ends ``changes`` and ``activity`` and tells the observers (the agent is stopping).
    package func finish() {
        let observers = state.withLock { state -> [ChangeObserver] in
            state.finished = true
            defer { state.observers = [] }
            return state.observers
        }
        changes.finish()
        activity.finish()
        for observer in observers { observer(false) }
    }

    /// Delivers the queue, batch after batch, outside the lock, until it is empty.
    private func deliverQueue() {
        var delivered = 0
        while true {
            let next = state.withLock { state -> ([Delivery], [String: [Int: Watcher]], [ChangeObserver])? in
                state.delivered += delivered
                guard !state.queue.isEmpty else {
                    state.delivering = false
                    return nil
                }
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, state.watchers, state.observers)
            }
            resumeFlushes()
            guard let (batch, watchers, observers) = next else { return }
            var changed = false
            for delivery in batch {
                switch delivery {
                case .status(let change):
                    changed = true
                    changes.send(change)
                case .activity(let report):
                    activity.send(report)
                    for watcher in (watchers[report.resource] ?? [:]).values { watcher(report) }
                case .warnSlow(let name):
                    logger.warning("\(ResourceMachine.slowMessage)", metadata: [LogKey.resource: "\(name)"])
                }
            }
            if changed { for observer in observers { observer(true) } }
            delivered = batch.count
        }
    }

    private func resumeFlushes() {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            let ready = state.flushes.filter { $0.through <= state.delivered }.map(\.continuation)
            state.flushes.removeAll { $0.through <= state.delivered }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}
