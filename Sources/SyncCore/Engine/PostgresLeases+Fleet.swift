import Logging
import Store

extension PostgresLeases: FleetLeases {}

extension AgentConfig {
    /// Opens the store the configuration names, as an agent or a `refresh`
    /// that syncs does: a PostgreSQL store makes this process an agent of its
    /// fleet (docs/fleet.md), whose leases are returned with it.
    package func openStoreJoiningFleet(
        logger: Logger = Logger(label: "sync-agent")
    ) async throws(StoreError) -> (store: any SyncStore, fleet: (any FleetLeases)?) {
        switch store {
        case .sqlite:
            return (try SQLiteStore(path: database), nil)
        case .postgres(let location):
            let store = try await PostgresStore(location, migrating: true, logger: logger)
            return (store, store.joinFleet(leaseTime: leaseTime))
        }
    }
}

extension PostgresLeases {
    /// How long a refresh of a resource another agent holds waits for that agent's sync.
    static let holderPatience: Duration = .seconds(600)

    /// A refresh of `name`, whose lease another agent of the fleet may hold
    /// (docs/fleet.md#refreshes): synced by `syncHere` when this agent holds
    /// the lease (now, or once it takes it), else asked of the holder
    /// (``refreshByHolder(of:patience:)``) and answered with its run, as joined.
    /// `stopping` tells whether a refresh no agent answered is cancelled
    /// rather than failed.
    package func refresh(
        _ name: String, stopping: @Sendable () -> Bool, syncHere: () async -> SyncResult
    ) async -> SyncResult {
        if token(for: name) != nil { return await syncHere() }
        switch await refreshByHolder(of: name, patience: Self.holderPatience) {
        case .ran(let run): return SyncResult(run: run, joined: true)
        case .heldHere: return await syncHere()
        case .none:
            return SyncResult(
                resource: name, outcome: stopping() || Task.isCancelled ? .cancelled : .failed,
                error: StoredError(
                    kind: .transient,
                    message: "\(name): no agent of the fleet synced it within \(Self.holderPatience)"))
        }
    }
}
