import Foundation
import Store

/// The state of one resource in the running agent, as a value: the engine
/// feeds it events and performs every action a transition returns;
/// ``status(online:)`` is what the status API, `sync-agent status` and the
/// systemd status line show (docs/api.md#resource).
///
/// It holds no clock and does no I/O, so every transition is tested as is.
///
/// ```
///            started             finished(success)
///   idle ───────────▶ syncing ──────────────────▶ idle
///    ▲                 │  ▲ retrying ▲
///    │                 ▼  │ progress │   finished(failed, gaveUp)
///    │              retrying ────────┴──────────────────▶ failed
///    └─────────────── finished(success) of a refresh ◀──────┘
/// ```
///
/// A sync that is cancelled returns the resource to where it was before the
/// sync. While the machine is offline every resource shows `offline`, whatever
/// it is doing underneath; connectivity is the engine's (one fact for every
/// resource), passed to ``status(online:)``.
package struct ResourceMachine: Sendable, Hashable {
    /// What the resource is doing.
    package enum State: Sendable, Hashable {
        /// Waiting for its next poll.
        case idle
        /// Its last sync failed for good: no polls until a manual refresh.
        case failed
        /// A sync is running.
        case syncing(RunningSync)
    }

    /// Where a resource rests between syncs.
    package enum Rest: Sendable, Hashable {
        case idle, failed

        var state: State { self == .idle ? .idle : .failed }
    }

    /// The sync a resource is running.
    package struct RunningSync: Sendable, Hashable {
        /// Its number: events of any other sync are ignored (a newer sync
        /// replaces an older one still ending when a dependent resource
        /// switches to the latest).
        package var id: Int
        /// Where the resource goes back to if the sync is cancelled.
        package var resumes: Rest
        /// Its attempt: 1 plus the retries of its requests so far.
        package var attempt = 1
        /// Whether it has taken longer than `slowAfter`.
        package var slow = false
        /// The retry it waits for, if any: the resource shows `retrying`.
        package var retry: RetryNotice?
    }

    /// What happened to the resource.
    package enum Event: Sendable {
        /// Its next poll is due at this time (`nil`: not polled until a refresh).
        case scheduled(Date?)
        /// Sync number `sync` started.
        case started(sync: Int, at: Date)
        /// The sync made progress: a page came in.
        case progressed(sync: Int, SyncProgress)
        /// A request of the sync failed and will be tried again.
        case retrying(sync: Int, RetryNotice)
        /// The sync has taken longer than `slowAfter`.
        case slow(sync: Int)
        /// The sync ended (its report, and when it ended), and, when its end
        /// moved it, the next poll (`.some(nil)`: none until a refresh).
        case finished(sync: Int, SyncReport, at: Date, next: Date?? = nil)
        /// In a fleet, this agent holds its lease (`agent` is this agent's id).
        case owned(by: String)
        /// In a fleet, another agent (or none) holds its lease: it shows as
        /// stored (`row`), with no next sync here.
        case stored(ResourceRow?, owner: String?)
        /// Its typed tables are these (`nil`: it declares none).
        case columns(ColumnsStatus?)
    }

    /// What the engine does after an event.
    package enum Action: Sendable, Hashable {
        /// The status it shows changed: publish it.
        case publishStatus
        /// Tell the refreshes waiting on the resource, and the activity
        /// stream, what its sync reported.
        case report(SyncActivity)
        /// Log, once per sync at warning level, that it is slow.
        case warnSlow
    }

    /// The message of a slow sync (docs/api.md#resource).
    package static let slowMessage = SyncActivity.slowMessage
    /// The message of every resource while the machine is offline.
    package static let offlineMessage = "offline: waiting for the network to come back"

    package let name: String
    package private(set) var state: State
    /// When its last successful sync finished.
    private var lastSuccessAt: Date?
    /// When its last sync started.
    private var lastAttemptAt: Date?
    /// When it is due to sync next, if the agent knows.
    private var nextSyncAt: Date?
    /// The records in its snapshot.
    private var items: Int
    /// The error of its last failed sync, cleared by a success.
    private var lastError: StoredError?
    /// For an incremental resource, the value its next sync sends.
    private var since: SinceState?
    /// In a fleet, the agent that holds its lease.
    private var owner: String?
    /// Its typed tables, when it declares `columns`.
    private var columns: ColumnsStatus?

    /// A resource as last stored (`row`), polled next at `nextSyncAt`. A
    /// restart resumes polling of a failed resource (docs/api.md#resource):
    /// it starts idle.
    package init(name: String, row: ResourceRow?, nextSyncAt: Date?) {
        self.name = name
        state = .idle
        lastSuccessAt = row?.lastSuccessAt
        lastAttemptAt = row?.lastAttemptAt
        self.nextSyncAt = nextSyncAt
        items = row?.itemCount ?? 0
        lastError = row?.lastError
        since = row?.since
    }

    /// The Resource object the status API shows, with the machine `online` or not.
    package func status(online: Bool) -> ResourceStatus {
        var status = ResourceStatus(name: name, state: .idle)
        status.lastSuccessAt = lastSuccessAt
        status.lastAttemptAt = lastAttemptAt
        status.nextSyncAt = nextSyncAt
        status.items = items
        status.lastError = lastError
        status.since = since
        status.owner = owner
        status.columns = columns
        switch state {
        case .idle:
            status.state = .idle
        case .failed:
            status.state = .failed
        case .syncing(let sync):
            status.state =
                sync.retry == nil ? .syncing : sync.retry?.rateLimitedUntil == nil ? .retrying : .waiting
            status.slow = sync.slow
            status.attempt = sync.attempt
            // A rate-limit wait says so even in a slow sync: it is why it is slow.
            if let notice = sync.retry, notice.rateLimitedUntil != nil {
                status.message = notice.sentence
            } else {
                status.message = sync.slow ? Self.slowMessage : sync.retry?.sentence
            }
        }
        if !online {
            status.state = .offline
            status.message = Self.offlineMessage
        }
        return status
    }

    /// Applies `event` and returns every action it causes, in order.
    package mutating func handle(_ event: Event) -> [Action] {
        let before = status(online: true)
        var actions: [Action] = []
        switch event {
        case .scheduled(let date):
            nextSyncAt = date
        case .owned(let agent):
            owner = agent
        case .columns(let value):
            columns = value
        case .stored(let row, let agent):
            owner = agent
            // A sync of this agent's still ending says more than the row.
            if case .syncing = state { break }
            state = row?.state == .failed ? .failed : .idle
            lastSuccessAt = row?.lastSuccessAt
            lastAttemptAt = row?.lastAttemptAt
            items = row?.itemCount ?? 0
            lastError = row?.lastError
            since = row?.since
            nextSyncAt = nil
        case .started(let id, let date):
            let resumes: Rest
            switch state {
            case .idle: resumes = .idle
            case .failed: resumes = .failed
            case .syncing(let older): resumes = older.resumes
            }
            state = .syncing(RunningSync(id: id, resumes: resumes))
            lastAttemptAt = date
        case .progressed(let id, let progress):
            guard case .syncing(var sync) = state, sync.id == id else { return [] }
            sync.retry = nil
            sync.attempt = progress.attempts
            state = .syncing(sync)
            actions.append(.report(.progress(progress)))
        case .retrying(let id, let notice):
            guard case .syncing(var sync) = state, sync.id == id else { return [] }
            sync.retry = notice
            // A rate-limit wait uses no attempt: the count stands.
            if notice.rateLimitedUntil == nil { sync.attempt = notice.attempt }
            state = .syncing(sync)
            actions.append(.report(.retry(resource: name, notice)))
        case .slow(let id):
            guard case .syncing(var sync) = state, sync.id == id, !sync.slow else { return [] }
            sync.slow = true
            state = .syncing(sync)
            actions += [.report(.slow(resource: name)), .warnSlow]
        case .finished(let id, let result, let date, let next):
            if case .syncing(let sync) = state, sync.id == id {
                finish(sync, result, at: date)
            }
            if let next { nextSyncAt = next }
            // A cancelled sync is nobody's answer; any other is told, even
            // one a newer sync replaced.
            if result.outcome != .cancelled { actions.append(.report(.finished(result.result))) }
        }
        if status(online: true) != before { actions.insert(.publishStatus, at: 0) }
        return actions
    }

    private mutating func finish(_ sync: RunningSync, _ report: SyncReport, at date: Date) {
        let result = report.result
        switch result.outcome {
        case .success, .notModified:
            state = .idle
            lastSuccessAt = date
            lastError = nil
            if result.outcome == .success { items = report.records ?? result.counts.items }
            if let value = report.since { since = value }
            if let write = report.columns { columns?.misfit = write.firstMisfit }
        case .gaveUp where result.error?.kind == .storage:
            // A passing condition of the machine: polled again at its next interval.
            state = .idle
            lastError = result.error
        case .failed, .gaveUp:
            state = .failed
            lastError = result.error
            nextSyncAt = nil
        case .offline:
            state = .idle
            lastError = result.error
        case .rateLimited:
            // Never failed for a rate limit: polled again at its reset.
            state = .idle
            lastError = result.error
            if let wait = report.retryAfter { nextSyncAt = date.addingTimeInterval(wait.seconds) }
        case .cancelled:
            state = sync.resumes.state
        }
    }
}
