import Foundation
import Store

/// The state of one resource in the running agent, as a value: the engine
/// feeds it events and performs the actions they return; ``status`` is what
/// the status API, `sync-agent status` and the systemd status line show.
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
/// While the machine is offline every resource shows `offline`, whatever it
/// is doing underneath; it shows that again once the machine is back.
package struct ResourceMachine: Sendable, Hashable {
    /// What the resource is doing, connectivity aside.
    enum Phase: Sendable, Hashable {
        /// Waiting for its next poll.
        case idle
        /// A sync is running.
        case syncing
        /// A request of the running sync failed and waits to be tried again.
        case retrying
        /// Its last sync failed for good: no polls until a manual refresh.
        case failed
    }

    /// What happened to the resource.
    enum Event: Sendable {
        /// Its next poll is due at this time (`nil`: not polled until a refresh).
        case scheduled(Date?)
        /// Sync number `sync` started. A newer sync replaces an older one
        /// still ending (a dependent resource switching to the latest): events
        /// of any other sync than the latest are ignored.
        case started(sync: Int, at: Date)
        /// The sync made progress: a page came in.
        case progressed(sync: Int, SyncProgress)
        /// A request of the sync failed and will be tried again.
        case retrying(sync: Int, RetryNotice)
        /// The sync has taken longer than `slowAfter`.
        case slow(sync: Int)
        /// The sync ended (its result, and when it ended).
        case finished(sync: Int, SyncResult, at: Date)
        /// The machine went offline or came back.
        case connectivity(online: Bool)
    }

    /// What the engine does after an event.
    enum Action: Sendable, Hashable {
        /// Log, once per sync at warning level, that it is slow.
        case warnSlow
    }

    /// The message of a slow sync (SPEC §1).
    package static let slowMessage = "taking longer than expected"
    /// The message of every resource while the machine is offline.
    static let offlineMessage = "offline: waiting for the network to come back"

    private(set) var phase: Phase = .idle
    private(set) var online = true
    private(set) var slow = false
    /// The retry the running sync waits for, if any.
    private(set) var retry: RetryNotice?
    /// The phase before the running sync started, restored if it is cancelled.
    private var phaseBeforeSync: Phase = .idle
    /// The latest sync started.
    private var currentSync: Int?
    private var stored: ResourceStatus

    /// A resource as last stored (`row`), polled next at `nextSyncAt`.
    init(name: String, row: ResourceRow?, nextSyncAt: Date?) {
        stored = ResourceStatus(name: name, row: row)
        stored.nextSyncAt = nextSyncAt
        // A restart resumes polling of a failed resource (SPEC §1): it starts idle.
        stored.state = .idle
    }

    /// The Resource object the status API shows.
    package var status: ResourceStatus {
        var status = stored
        status.slow = slow
        if !online {
            status.state = .offline
            status.message = Self.offlineMessage
        } else {
            switch phase {
            case .idle: status.state = .idle
            case .syncing: status.state = .syncing
            case .retrying: status.state = .retrying
            case .failed: status.state = .failed
            }
            status.message = slow ? Self.slowMessage : retry?.sentence
        }
        return status
    }

    /// Applies `event` and returns what the engine must do.
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .scheduled(let date):
            stored.nextSyncAt = date
        case .started(let sync, let date):
            if !isSyncing { phaseBeforeSync = phase }
            currentSync = sync
            phase = .syncing
            slow = false
            retry = nil
            stored.attempt = 1
            stored.lastAttemptAt = date
        case .progressed(let sync, let progress):
            guard isCurrent(sync) else { return [] }
            if progress.retry == nil {
                phase = .syncing
                retry = nil
            }
            stored.attempt = progress.attempts
        case .retrying(let sync, let notice):
            guard isCurrent(sync) else { return [] }
            phase = .retrying
            retry = notice
            stored.attempt = notice.attempt
        case .slow(let sync):
            guard isCurrent(sync), !slow else { return [] }
            slow = true
            return [.warnSlow]
        case .finished(let sync, let result, let date):
            guard isCurrent(sync) else { return [] }
            currentSync = nil
            finish(result, at: date)
        case .connectivity(let online):
            self.online = online
        }
        return []
    }

    private var isSyncing: Bool { phase == .syncing || phase == .retrying }

    /// Whether sync number `sync` is the one running, so its events count.
    func isCurrent(_ sync: Int) -> Bool { isSyncing && currentSync == sync }

    private mutating func finish(_ result: SyncResult, at date: Date) {
        slow = false
        retry = nil
        stored.attempt = 0
        switch result.outcome {
        case .success, .notModified:
            phase = .idle
            stored.lastSuccessAt = date
            stored.lastError = nil
            if result.outcome == .success { stored.items = result.items }
        case .failed, .gaveUp:
            phase = .failed
            stored.lastError = result.error
            stored.nextSyncAt = nil
        case .offline:
            phase = .idle
            stored.lastError = result.error
        case .cancelled:
            phase = phaseBeforeSync
        }
    }
}
