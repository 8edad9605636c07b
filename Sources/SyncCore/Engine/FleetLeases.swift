import Store

/// This agent's part of a fleet of agents sharing one store (docs/fleet.md),
/// as the engine uses it: the resources whose leases it holds are the ones it
/// polls. The PostgreSQL store's ``PostgresLeases`` is the one fleet there is;
/// the engine knows it only through this.
package protocol FleetLeases: Sendable {
    /// This agent's id among the fleet's.
    var agent: String { get }
    /// How long a lease lasts unless renewed.
    var leaseTime: Duration { get }
    /// How often a round renews, gives back and takes leases.
    var renewEvery: Duration { get }
    /// Where the leases are kept, as messages name it (`PostgreSQL at HOST:PORT`).
    var server: String { get }
    /// The resources whose leases this agent holds.
    var owned: Set<String> { get }
    /// The fencing token of `resource`'s lease, if this agent holds it.
    func token(for resource: String) -> Int64?
    /// Renews, gives back and takes leases; `busy` are the resources this agent is syncing.
    func round(configured: [String], busy: Set<String>) async throws(StoreError) -> LeaseRound
    /// Forgets every lease without a word to the store (it could not be
    /// reached within the lease time); returns the resources.
    func forgetAll() -> [String]
    /// Gives every lease back.
    func releaseAll() async
    /// The agent that holds each resource's lease.
    func owners() async throws(StoreError) -> [String: String]
    /// Calls `handle` with each resource whose refresh another agent asks for, until cancelled.
    func followRefreshRequests(_ handle: @escaping @Sendable (String) -> Void) async
    /// A refresh of `name`: synced by `syncHere` when this agent holds its
    /// lease, else asked of its holder and answered with the holder's run.
    func refresh(_ name: String, stopping: @Sendable () -> Bool, syncHere: () async -> SyncResult) async -> SyncResult
}
