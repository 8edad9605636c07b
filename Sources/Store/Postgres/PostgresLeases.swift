import Foundation
import Logging
import PostgresNIO
import Synchronization

/// This agent's part of a fleet (docs/fleet.md#several-agents-a-fleet): agents pointed
/// at one schema sync each resource from exactly one of them, the holder of
/// its lease.
///
/// A lease is a row of `leases`: its owner, a fencing token that grows each
/// time the lease changes hands, and when it expires. Every ``round(configured:busy:)``
/// (a few times per lease time) the agent says it is alive (`agents`),
/// renews the leases it holds, gives up those beyond its fair share (the
/// resources divided by the live agents, rounded up) and takes free or
/// expired ones up to it, skipping rows another agent is taking
/// (`FOR UPDATE SKIP LOCKED`). An agent that dies stops renewing: its leases
/// expire and the others take them.
///
/// Giving a lease up takes two rounds (docs/fleet.md#handovers): the first
/// stops the resource here (it is no longer ``owned``, and its sync in flight
/// is cancelled by the caller) but keeps renewing the lease; a later round
/// releases it once the caller no longer says it is `busy`, so that no other
/// agent can take it while a request of this one is in flight.
///
/// Every commit of a resource's state (``SyncStore/record(_:snapshot:continuing:cursor:)``,
/// ``PostgresStore/applyPage(_:)``) checks in its own transaction that this
/// agent still holds the lease with the token it was given, locking the row
/// so that no other agent can take it until the commit ends: an agent frozen
/// past its lease (a long pause, SIGSTOP) that wakes up cannot commit over
/// the new owner.
///
/// Thread-safety: `Sendable`; its methods may be called from any task.
public final class PostgresLeases: Sendable {
    /// This agent's id in the fleet: `HOST:PID:RANDOM`, unique per process.
    public let agent: String
    /// How long a lease lasts without renewal.
    public let leaseTime: Duration
    /// How often a round renews the leases: a third of the lease time.
    public var renewEvery: Duration { leaseTime / 3 }
    /// The server that keeps the leases: `PostgreSQL at HOST:PORT`.
    public var server: String { store.server }

    unowned let store: PostgresStore
    /// The leases held as of the last round, and those of them being given up.
    private struct Held {
        /// Resource → fencing token: every lease this agent holds in the store.
        var tokens: [String: Int64] = [:]
        /// The ones given up, renewed until their syncs have ended, then released.
        var givingUp: Set<String> = []
        /// Counts the rounds begun and ``forgetAll()``: only the latest round's
        /// result is kept (a round that timed out may end after a newer one).
        var epoch = 0
    }

    private let held = Mutex(Held())
    /// The clock its waits are kept on: a refresh's wait for the holder, the pause before listening again.
    private let clock: any Clock<Duration>

    init(store: PostgresStore, agent: String, leaseTime: Duration, clock: any Clock<Duration>) {
        self.store = store
        self.agent = agent
        self.leaseTime = leaseTime
        self.clock = clock
    }

    /// The lease time when the configuration names none.
    public static let defaultLeaseTime: Duration = .seconds(30)

    /// An id for this process: the host's name, the process id and a random part.
    public static func makeAgentID() -> String {
        let host = ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "agent"
        return "\(host):\(getpid()):\(String(UInt16(SystemSources.random() * 65536), radix: 16))"
    }

    /// The fencing token of `resource`'s lease, if this agent holds it and
    /// is not giving it up: only then does it start syncs of it.
    public func token(for resource: String) -> Int64? {
        held.withLock { $0.givingUp.contains(resource) ? nil : $0.tokens[resource] }
    }

    /// The resources whose leases this agent holds, but those it is giving up.
    public var owned: Set<String> {
        held.withLock { Set($0.tokens.keys).subtracting($0.givingUp) }
    }

    /// What a round changed.
    public typealias Round = LeaseRound

    /// Renews, gives up, releases and takes leases, in one transaction: see the
    /// type's description. `configured` are this agent's resources; `busy` those
    /// with a sync in flight (cancelled ones included, until they end): they are
    /// given up last, and a lease given up is released only once it is not busy.
    public func round(configured: [String], busy: Set<String> = []) async throws(StoreError) -> Round {
        let (agent, logger) = (agent, store.logger)
        let lease = PostgresStore.interval(leaseTime)
        let (before, epoch) = held.withLock { held in
            held.epoch += 1
            return (held, held.epoch)
        }
        let (now, givingUp, agents) = try await store.transaction {
            connection -> ([String: Int64], Set<String>, Int) in
            try await connection.query(
                """
                INSERT INTO agents (id, heartbeat_at, started_at) VALUES (\(agent), now(), now())
                ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
                """, logger: logger)
            // Agents gone for a day are forgotten.
            try await connection.query(
                "DELETE FROM agents WHERE heartbeat_at < now() - interval '1 day'", logger: logger)
            try await connection.query(
                """
                INSERT INTO leases (resource) SELECT unnest(\(configured)::text[]) ON CONFLICT (resource) DO NOTHING
                """, logger: logger)
            // Resources no longer configured here go back.
            try await connection.query(
                """
                UPDATE leases SET owner = NULL, expires_at = '-infinity'
                WHERE owner = \(agent) AND NOT (resource = ANY(\(configured)::text[]))
                """, logger: logger)
            var owned: [String: Int64] = [:]
            for row in try await connection.rows(
                """
                UPDATE leases SET expires_at = now() + \(lease)::interval
                WHERE owner = \(agent) AND resource = ANY(\(configured)::text[])
                RETURNING resource, token
                """, logger)
            {
                owned[try row.get("resource") ?? ""] = try row.get("token") ?? 0
            }
            // Leases given up whose syncs have ended go back now; the others stay renewed.
            let releasing = before.givingUp.filter { owned[$0] != nil && !busy.contains($0) }.sorted()
            if !releasing.isEmpty {
                try await connection.query(
                    """
                    UPDATE leases SET owner = NULL, expires_at = '-infinity'
                    WHERE owner = \(agent) AND resource = ANY(\(releasing)::text[])
                    """, logger: logger)
                for name in releasing { owned[name] = nil }
            }
            var givingUp = before.givingUp.filter { owned[$0] != nil }
            let keeping = owned.count - givingUp.count
            let agents =
                try await connection.value(
                    Int.self, "SELECT count(*) FROM agents WHERE heartbeat_at > now() - \(lease)::interval", logger)
                ?? 1
            let fair = (configured.count + max(agents, 1) - 1) / max(agents, 1)
            if keeping > fair {
                // Given up: idle ones first, and of those the last by name. Released by a
                // later round, once the caller has stopped them (docs/fleet.md#handovers).
                let giving = owned.keys.filter { !givingUp.contains($0) }
                    .sorted { (busy.contains($0) ? 1 : 0, $1) < (busy.contains($1) ? 1 : 0, $0) }
                    .prefix(keeping - fair)
                givingUp.formUnion(giving)
            } else if keeping < fair {
                for row in try await connection.rows(
                    """
                    UPDATE leases SET owner = \(agent), token = token + 1, expires_at = now() + \(lease)::interval
                    WHERE resource IN (
                        SELECT resource FROM leases
                        WHERE resource = ANY(\(configured)::text[]) AND (owner IS NULL OR expires_at < now())
                        ORDER BY random() LIMIT \(fair - keeping)
                        FOR UPDATE SKIP LOCKED)
                    RETURNING resource, token
                    """, logger)
                {
                    owned[try row.get("resource") ?? ""] = try row.get("token") ?? 0
                }
            }
            return (owned, givingUp, agents)
        }
        // A newer round, or `forgetAll()`, came meanwhile: this one's result is stale.
        let latest = held.withLock { held in
            guard held.epoch == epoch else { return false }
            held.tokens = now
            held.givingUp = givingUp
            return true
        }
        guard latest else { throw StoreError(.cancelled, "fleet: a newer round of leases replaced this one") }
        // Lost: what this agent was syncing and no longer may (given up now, or gone).
        let syncing = Set(before.tokens.keys).subtracting(before.givingUp)
        return Round(
            gained: now.keys.filter { before.tokens[$0] != now[$0] && !givingUp.contains($0) }.sorted(),
            lost: syncing.filter { before.tokens[$0] != now[$0] || givingUp.contains($0) }.sorted(), agents: agents)
    }

    /// Forgets every lease without a round: what an agent does when it could
    /// not renew them within the lease time (another agent may hold them now).
    public func forgetAll() -> [String] {
        held.withLock { held in
            defer {
                held.tokens = [:]
                held.givingUp = []
                held.epoch += 1
            }
            return held.tokens.keys.sorted()
        }
    }

    /// Gives back every lease, for the others to take at once: what an agent
    /// does as it stops.
    public func releaseAll() async {
        let (agent, logger) = (agent, store.logger)
        held.withLock { held in
            held.tokens = [:]
            held.givingUp = []
            held.epoch += 1
        }
        try? await store.transaction(cancellable: false) { connection in
            try await connection.query(
                "UPDATE leases SET owner = NULL, expires_at = '-infinity' WHERE owner = \(agent)", logger: logger)
            try await connection.query("DELETE FROM agents WHERE id = \(agent)", logger: logger)
        }
    }

    // MARK: Refreshes asked of the holder

    /// The channel on which the agents of this schema ask a lease's holder for a refresh.
    private var refreshChannel: String { "\(store.place.schema)_refresh" }

    /// Asks the agent that holds `resource`'s lease to refresh it (`NOTIFY`):
    /// the refresh that ``followRefreshRequests(_:)`` of that agent hears.
    public func askRefresh(of resource: String) async throws(StoreError) {
        let (channel, logger) = (refreshChannel, store.logger)
        try await store.transaction { connection in
            try await connection.query("SELECT pg_notify(\(channel), \(resource))", logger: logger)
        }
    }

    /// What a refresh asked of the holder of a lease came to.
    public enum HolderAnswer: Sendable {
        /// The run the holder recorded after the ask.
        case ran(SyncRunRow)
        /// This agent holds the lease now: it syncs the resource itself.
        case heldHere
        /// No run came within the patience, or the task was cancelled.
        case none
    }

    /// Asks the agent that holds `resource`'s lease to refresh it, again every
    /// round (a holder that died meanwhile is replaced), and waits for the
    /// first run of the resource that ends after the first ask: the holder's
    /// sync, or the one in flight it joined.
    public func refreshByHolder(of resource: String, patience: Duration) async -> HolderAnswer {
        let before = (try? await store.latestRunID(of: resource)) ?? 0
        let elapsed = clock.stopwatch()
        var asked: Duration?
        while elapsed() < patience, !Task.isCancelled {
            if token(for: resource) != nil { return .heldHere }
            // A run that ended: not the row an incremental sync keeps while it runs
            // (no outcome yet), nor a cancelled one.
            if let run = try? await store.runs(of: resource, limit: 1).first, run.id > before,
                let outcome = run.outcome, outcome != .cancelled
            {
                return .ran(run)
            }
            if asked.map({ elapsed() - $0 >= renewEvery }) ?? true {
                asked = elapsed()
                if (try? await askRefresh(of: resource)) == nil { asked = nil }
            }
            try? await clock.sleep(for: Self.holderPoll)
        }
        return .none
    }

    /// How often a refresh waiting for the holder of a lease looks for its run.
    static let holderPoll: Duration = .milliseconds(200)

    /// Calls `handle` with each resource whose refresh another agent asks for
    /// (`LISTEN`), until the task is cancelled; a connection lost is opened
    /// again a second later (a request made meanwhile is asked again by its
    /// agent).
    public func followRefreshRequests(_ handle: @escaping @Sendable (String) -> Void) async {
        let channel = refreshChannel
        while !Task.isCancelled {
            do {
                try await store.client.withConnection { connection in
                    try await connection.listen(on: channel) { notifications in
                        for try await notification in notifications { handle(notification.payload) }
                    }
                }
            } catch {
                store.logger.debug("fleet: listening for refreshes failed: \(error)")
            }
            try? await clock.sleep(for: .seconds(1))
        }
    }

    /// Who holds each resource's lease now, by resource (a lease that expired is nobody's).
    public func owners() async throws(StoreError) -> [String: String] {
        let logger = store.logger
        return try await store.read { connection in
            var owners: [String: String] = [:]
            for row in try await connection.rows(
                "SELECT resource, owner FROM leases WHERE owner IS NOT NULL AND expires_at > now()", logger)
            {
                owners[try row.get("resource") ?? ""] = try row.get("owner")
            }
            return owners
        }
    }

    /// Checks, in the transaction of a commit to `resource`, that this agent
    /// still holds its lease with the token it was given, and locks the lease
    /// until the commit ends: `FOR KEY SHARE` keeps another agent from taking
    /// it (a taker locks `FOR UPDATE`) without holding up this agent's own
    /// renewals.
    func fence(_ resource: String, _ connection: PostgresConnection) async throws {
        // A lease being given up still fences the end of the sync it cancelled.
        guard let token = held.withLock({ $0.tokens[resource] }) else {
            throw StoreError(.notOwner, "\(resource) is synced by another agent of the fleet: this one holds no lease")
        }
        let holds =
            try await connection.value(
                Bool.self,
                """
                SELECT true FROM leases WHERE resource = \(resource) AND owner = \(agent) AND token = \(token)
                FOR KEY SHARE
                """, store.logger) ?? false
        guard holds else {
            held.withLock { if $0.tokens[resource] == token { $0.tokens[resource] = nil } }
            throw StoreError(
                .notOwner,
                "\(resource): the lease moved to another agent of the fleet (token \(token) is stale); nothing was "
                    + "committed")
        }
    }
}

/// What a round of a fleet's leases changed (``PostgresLeases/round(configured:busy:)``).
public struct LeaseRound: Sendable, Equatable {
    /// The leases taken in this round.
    public var gained: [String] = []
    /// The leases held before that this agent no longer holds (given back,
    /// or taken by another agent after they expired).
    public var lost: [String] = []
    /// How many agents are alive, this one included.
    public var agents = 1
}
