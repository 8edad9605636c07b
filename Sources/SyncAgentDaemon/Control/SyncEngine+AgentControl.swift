import Store
import SyncCore

/// The running agent, as the status API sees it.
extension SyncEngine: AgentControl {
    func statusSnapshot() -> (version: Int, statuses: [ResourceStatus]) { publication.snapshot() }

    func statusChanges(since version: Int?) -> StatePublication.Changes { publication.changes(since: version) }

    var isOnline: Bool { connectivity.online.value }

    func typedTable(of name: String) -> TypedTable? { config.resource(named: name)?.table }

    /// `GET /metrics`: the counters, and the gauges of the current statuses.
    func metricsPage() -> String {
        metrics.render(statuses: statuses(), online: isOnline, startedAt: startedAt)
    }

    func changeFeed(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage {
        try await store.changes(of: resource, after: seq, limit: limit)
    }

    func recentRuns(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]] {
        try await store.runs(of: resources, limitEach: limitEach)
    }

    /// A read of the database: `nil` when it answers.
    func storeProblem() async -> String? {
        do throws(StoreError) {
            _ = try await store.lastChangeSeq()
            return nil
        } catch {
            return "the database cannot be read: \(error.message)"
        }
    }
}
