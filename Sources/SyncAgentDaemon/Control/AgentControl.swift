import Foundation
import Store
import Streams
import SyncCore

/// What the status API needs of the running agent: ``SyncEngine`` in the
/// agent, a stand-in in the routes' unit tests.
protocol AgentControl: Sendable {
    /// When the agent started.
    var startedAt: Date { get }
    /// The wall-clock time now, as the agent reads it.
    func wallClock() -> Date
    /// Whether the machine is online.
    var isOnline: Bool { get }
    /// Every resource's status, in configuration order.
    func statuses() -> [ResourceStatus]
    /// The status of `name`, or `nil` for an unknown resource.
    func status(of name: String) -> ResourceStatus?
    /// The typed table that `name` declares in the configuration in force
    /// (`nil` for a resource that declares no `columns`, or an unknown one).
    func typedTable(of name: String) -> TypedTable?
    /// A count that changes whenever a status changes (so answers can be reused until it does).
    var statusVersion: Int { get }
    /// Every resource's status and the version of the changes they show.
    func statusSnapshot() -> (version: Int, statuses: [ResourceStatus])
    /// The statuses that changed after `version` (every one for `nil`), with
    /// the version they show and every resource's name.
    func statusChanges(since version: Int?) -> StatePublication.Changes
    /// Syncs `name` now or joins its sync in flight (`nil` for an unknown
    /// resource); `onActivity`, if set, is told what the sync reports as it
    /// happens, all of it before the result is returned.
    func refresh(_ name: String, onActivity: (@Sendable (SyncActivity) -> Void)?) async -> SyncResult?
    /// Refreshes every resource.
    func refreshAll() async -> [SyncResult]
    /// Every change of a resource's status, numbered; it ends when the agent stops.
    var changes: PassthroughSubject<StatusChange, Never> { get }
    /// The Prometheus text of `GET /metrics`.
    func metricsPage() -> String
    /// Up to `limit` changes of the feed after `seq`, of `resource` or of all.
    func changeFeed(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage
    /// The last `limitEach` sync runs of each of `resources`, newest first, in one read.
    func recentRuns(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]]
    /// Why the database cannot be read now, or `nil` when it can.
    func storeProblem() async -> String?
}

extension AgentControl {
    /// The system's time, for a stand-in that keeps none of its own.
    func wallClock() -> Date { SystemSources.now() }

    /// Every status, as changed: for a stand-in that tells no changes apart.
    func statusChanges(since version: Int?) -> StatePublication.Changes {
        let (current, statuses) = statusSnapshot()
        return StatePublication.Changes(version: current, names: statuses.map(\.name), changed: statuses)
    }
}

extension AgentControl {
    /// Syncs `name` now or joins its sync in flight (`nil` for an unknown resource).
    func refresh(_ name: String) async -> SyncResult? {
        await refresh(name, onActivity: nil)
    }
}
