import Foundation
import Logging
import NIOCore
import NIOSSL
import PostgresNIO
import Synchronization

/// The agent's copy in a PostgreSQL schema (docs/fleet.md#the-store): the same
/// tables as ``SQLiteStore`` with the same meaning, `data` as `jsonb` and
/// times as `timestamptz`, so that many agents share one copy and readers on
/// other machines query it.
///
/// The store opens a small pool of connections whose `search_path` is the
/// schema, and creates or migrates the schema's tables as it opens (numbered
/// migrations, under an advisory lock: agents starting at once migrate once).
/// A snapshot's pages are staged in the unlogged table `staging` and applied
/// in one transaction. The change feed's seqs are given in commit order: a
/// transaction that writes changes takes them from the one row of
/// `feed_state`, whose lock it holds until it commits, so a reader following
/// `seq` never sees a later seq before an earlier one.
///
/// While the server is out of reach, every call fails within ``patience``
/// with a transient ``StoreError`` (the sync is retried, never `failed`), and
/// the pool reconnects by itself when it is back.
///
/// Thread-safety: `Sendable`; every method may be called from any task.
public final class PostgresStore: SyncStore {
    /// Where the store is.
    public let place: PostgresLocation
    /// ``place`` without its password.
    public var location: String { place.description }
    /// The server, as messages name it: `PostgreSQL at HOST:PORT`.
    public var server: String { "PostgreSQL at \(place.host ?? place.socketFolder ?? ""):\(place.port)" }
    /// Always `true`: a schema has no file to be replaced.
    public var isInPlace: Bool { true }

    let client: PostgresClient
    private let running: Task<Void, Never>
    private let membership = Mutex<PostgresLeases?>(nil)
    /// Whether the store was opened to write (`migrating`), not as a reader's.
    private let writes: Bool
    /// The typed tables declared, by resource, with their declarations' text
    /// (``declareTables(_:)``): writes use the one the catalog names.
    let typedTables = Mutex<[String: (text: String, table: TypedTable)]>([:])
    let logger: Logger
    /// The wall-clock time, for the times the store stamps (a run's end, a change's).
    let now: @Sendable () -> Date

    /// How long a call waits for the server (a connection from the pool, then its
    /// statements) before it fails as transient.
    public static let patience: Duration = .seconds(15)
    /// How long the apply of a snapshot may take: it may wait for another
    /// agent's apply (the change feed's lock) and write a million records.
    public static let applyPatience: Duration = .seconds(600)
    /// How many connections the pool opens at most.
    public static let maximumConnections = 8
    /// The snapshots that writers of this process have open (``beginSnapshot(of:lastWins:)``
    /// removes the others of a resource).
    let openSnapshots = Mutex<Set<Int64>>([])
    /// How long an agent has not said it is alive before any agent removes the
    /// snapshots it left staged (docs/fleet.md#staged-pages); a snapshot of no
    /// agent (a store outside a fleet) is removed once it is that old.
    static let abandonedAgentAge: Duration = .seconds(600)

    /// Connects to `place`, creates the schema and its tables or brings them up
    /// to date, and removes what snapshots abandoned long ago left staged;
    /// unless `migrating` is `false`: a reader's store changes nothing, and
    /// finds no copy (``StoreError/Kind/missing``) in a schema not made yet.
    ///
    /// - Throws: ``StoreError/Kind/open`` when the server refuses (a wrong
    ///   password, a missing database, a schema of another program's), a
    ///   transient ``StoreError/Kind/io`` when it cannot be reached.
    public init(
        _ place: PostgresLocation, migrating: Bool = true, logger: Logger = Logger(label: "sync-agent.postgres"),
        now: @escaping @Sendable () -> Date = SystemSources.now
    ) async throws(StoreError) {
        self.place = place
        self.writes = migrating
        self.now = now
        self.logger = logger
        let configuration: PostgresClient.Configuration
        do {
            configuration = try Self.configuration(place)
        } catch {
            throw StoreError(.open, "Cannot use the TLS settings of \(place): \(error)")
        }
        // The pool's own messages (reconnections) would repeat every failure the calls report.
        var quiet = logger
        quiet.logLevel = .critical
        let client = PostgresClient(configuration: configuration, backgroundLogger: quiet)
        self.client = client
        running = Task { await client.run() }
        do {
            if migrating {
                try await migrate()
                try await removeAbandonedSnapshots()
                _ = await truncateStagingIfEmpty()
            } else {
                try await checkSchema()
            }
        } catch {
            running.cancel()
            throw error
        }
    }

    deinit {
        running.cancel()
    }

    private static func configuration(_ place: PostgresLocation) throws -> PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let folder = place.socketFolder {
            configuration = .init(
                unixSocketPath: "\(folder)/.s.PGSQL.\(place.port)", username: place.user, password: place.password,
                database: place.database)
        } else {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let file = place.rootCertificate { tls.trustRoots = .file(file) }
            switch place.tls {
            case .disable, .prefer: tls.certificateVerification = .none
            // libpq's `require` checks the certificate only against a CA it is given.
            case .require: tls.certificateVerification = place.rootCertificate == nil ? .none : .noHostnameVerification
            case .verifyCA: tls.certificateVerification = .noHostnameVerification
            case .verifyFull: tls.certificateVerification = .fullVerification
            }
            let mode: PostgresClient.Configuration.TLS =
                switch place.tls {
                case .disable: .disable
                case .prefer: .prefer(tls)
                case .require, .verifyCA, .verifyFull: .require(tls)
                }
            configuration = .init(
                host: place.host ?? "localhost", port: place.port, username: place.user, password: place.password,
                database: place.database, tls: mode)
        }
        // A session idle in a transaction (an agent frozen in the middle of one)
        // would hold its rows' locks, leases among them: the server ends it. A
        // statement whose connection the agent closed (a cancelled call) would run
        // on to its end, holding its locks, the feed's among them, while the stop
        // waits for the syncs that need them: the server checks the connection
        // every quarter of a second while it runs one, and ends it once closed
        // (docs/fleet.md#stopping-with-syncs-in-flight).
        configuration.options.additionalStartupParameters = [
            ("search_path", place.schema), ("application_name", "sync-agent"),
            ("idle_in_transaction_session_timeout", "10s"), ("client_connection_check_interval", "250ms"),
        ]
        configuration.options.connectTimeout = .seconds(5)
        configuration.options.maximumConnections = maximumConnections
        configuration.options.connectionIdleTimeout = .seconds(60)
        return configuration
    }

    // MARK: The fleet

    /// Makes this store's writes those of agent `agent` of a fleet: from now on
    /// a commit to a resource checks that the agent holds its lease. The
    /// leases' waits are kept on `clock`.
    public func joinFleet(
        agent: String = PostgresLeases.makeAgentID(), leaseTime: Duration = PostgresLeases.defaultLeaseTime,
        clock: any Clock<Duration> = ContinuousClock()
    ) -> PostgresLeases {
        let leases = PostgresLeases(store: self, agent: agent, leaseTime: leaseTime, clock: clock)
        membership.withLock { $0 = leases }
        return leases
    }

    /// The fleet's leases, if this store's agent is part of one.
    public var leases: PostgresLeases? { membership.withLock { $0 } }

    /// Checks in the commit's transaction that this agent may write `resource`
    /// (``PostgresLeases``); a store outside a fleet may write any.
    func fence(_ resource: String, _ connection: PostgresConnection) async throws {
        try await leases?.fence(resource, connection)
    }

    // MARK: Running statements

    /// Runs `work` in a transaction on a connection of the pool; it commits when
    /// `work` returns and rolls back when it throws.
    ///
    /// A cancellable transaction whose task is cancelled rolls back
    /// (``StoreError/Kind/cancelled``): its connection is closed, which ends a
    /// statement in flight, and the server rolls back. One that is not
    /// cancellable runs to its end even when the calling task is cancelled
    /// (how a cancelled sync still records that it was). A transaction that
    /// has not ended within `patience` is ended the same way, and fails as
    /// transient; but one whose commit came through meanwhile returns.
    @discardableResult
    func transaction<T: Sendable>(
        cancellable: Bool = true, readOnly: Bool = false, patience: Duration = PostgresStore.patience,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        try await run(
            cancellable: cancellable, patience: patience,
            begin: readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", work)
    }

    /// Runs `work`, one statement, outside a transaction (the statement is its
    /// own): a read that needs no snapshot across statements, in one round trip
    /// instead of three. Ended as ``transaction(cancellable:readOnly:patience:_:)`` is.
    func read<T: Sendable>(
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError)
        -> T
    {
        try await run(cancellable: true, patience: Self.patience, begin: nil, work)
    }

    /// The connection that the current task (or the task it is a child of)
    /// holds inside a call of the store, with the store it belongs to and
    /// whether a transaction is open on it (``run(cancellable:patience:begin:_:)``).
    struct HeldConnection: Sendable {
        var store: ObjectIdentifier
        var connection: PostgresConnection
        var inTransaction: Bool
    }

    @TaskLocal static var held: HeldConnection?

    /// Runs `work` on a connection of the pool, in a transaction opened by
    /// `begin` (committed when `work` returns) or none.
    ///
    /// A call made while the task already holds a connection of this store
    /// (from inside the work of another) never asks the pool for a second
    /// one: it runs on the connection held, inside its transaction if one is
    /// open. Holders waiting for a second connection could otherwise take the
    /// whole pool and wait on each other for ever (docs/fleet.md#connections).
    private func run<T: Sendable>(
        cancellable: Bool, patience: Duration, begin: PostgresQuery?,
        _ work: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws(StoreError) -> T {
        let logger = logger
        let store = ObjectIdentifier(self)
        @Sendable func perform(_ connection: PostgresConnection, begin: PostgresQuery?) async throws -> T {
            guard let begin else {
                return try await Self.$held.withValue(.init(store: store, connection: connection, inTransaction: false))
                {
                    try await work(connection)
                }
            }
            try await connection.query(begin, logger: logger)
            do {
                let result = try await Self.$held.withValue(
                    .init(store: store, connection: connection, inTransaction: true)
                ) {
                    try await work(connection)
                }
                try Task.checkCancellation()
                try await connection.query("COMMIT", logger: logger)
                return result
            } catch {
                // A connection that broke is closed by the pool; one that did not is reused clean.
                // One closed (a cancellation, the server gone) rolled back already, and would
                // never answer a statement sent now (cancellingByClosing(_:_:)).
                if !connection.isClosed {
                    _ = try? await connection.query("ROLLBACK", logger: logger)
                }
                throw error
            }
        }
        if let held = Self.held, held.store == store {
            // The holder's statement or transaction ends it, and its cancellation closes the connection.
            return try await mapErrors { try await perform(held.connection, begin: held.inTransaction ? nil : begin) }
        }
        let client = client
        let lent: @Sendable () async throws -> T = {
            try await client.withConnection { connection in
                // A connection that closed while idle (the server ended it) can be lent before
                // the pool hears of it, and a statement sent on it would never be answered: it
                // goes back once the pool has dropped it, and the call asks for another.
                guard !connection.isClosed else {
                    try? await connection.closeFuture.get()
                    throw LentClosed()
                }
                // A cancellation closes the connection, and the server rolls the transaction back.
                return try await Self.cancellingByClosing(connection) { try await perform(connection, begin: begin) }
            }
        }
        let body: @Sendable () async throws -> T = {
            for _ in 1..<Self.maximumConnections {
                do { return try await lent() } catch is LentClosed {}
            }
            return try await lent()
        }
        return try await mapErrors {
            if cancellable { return try await Self.withPatience(patience, body) }
            return try await Task { try await Self.withPatience(patience, body) }.value
        }
    }

    /// Runs `body`, or ends it (cancelled) and fails when it takes longer than
    /// `patience`: a server out of reach makes the pool wait for a connection,
    /// and a statement wait for its answer, with no end of their own. A body
    /// that comes through as it is ended still returns its value.
    static func withPatience<T: Sendable>(
        _ patience: Duration, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: patience)
                return nil
            }
            defer { group.cancelAll() }
            if let value = try await group.next() ?? nil { return value }
            group.cancelAll()
            while let next = try? await group.next() {
                if let value = next { return value }
            }
            throw Unanswered(patience: patience)
        }
    }

    /// The server did not answer within `patience`.
    struct Unanswered: Error {
        var patience: Duration
    }

    /// The pool lent a connection that had closed, as many times as it holds connections.
    struct LentClosed: Error, CustomStringConvertible {
        var description: String { "the pool lent only connections that had closed" }
    }

    private func mapErrors<T: Sendable>(_ body: () async throws -> T) async throws(StoreError) -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch {
            // A cancelled task's connection was closed under its statement: that is the cancellation.
            if Task.isCancelled {
                throw StoreError(.cancelled, "The write to \(location) was cancelled and rolled back.")
            }
            throw describe(error)
        }
    }

    /// The ``StoreError`` for an error of the pool or the server: a condition
    /// that passes (the server out of reach, restarting, overloaded, a
    /// serialization conflict) is transient.
    func describe(_ error: any Error) -> StoreError {
        let server = self.server
        if error is CancellationError {
            return StoreError(.cancelled, "The write to \(location) was cancelled.")
        }
        if let error = error as? Unanswered {
            return StoreError(
                .io, "\(server) did not answer within \(error.patience.components.seconds) s", isTransient: true)
        }
        guard let error = error as? PSQLError else {
            return StoreError(.io, "\(server): \(error)", isTransient: true)
        }
        switch error.code {
        case .server:
            let state = error.serverInfo?[.sqlState] ?? ""
            let message = [error.serverInfo?[.message] ?? "\(error)", error.serverInfo?[.detail]]
                .compactMap { $0 }.joined(separator: ": ")
            // 08: connection; 57P0x: shutting down, cannot connect now; 53: out of resources;
            // 40001/40P01: a serialization conflict or a deadlock, which a retry resolves.
            // 25P03: the server ended a session left idle in a transaction (a frozen agent).
            let passing = ["08", "53", "57P0", "40001", "40P01", "25P03"].contains { state.hasPrefix($0) }
            if state == "57014" {
                return StoreError(.cancelled, "The write to \(location) was cancelled and rolled back.")
            }
            if state.hasPrefix("28") || state == "3D000" {
                // A wrong password or user, a missing database: a person must act.
                return StoreError(.open, "\(server) refused: \(message)")
            }
            return StoreError(.io, "\(server): \(message) (SQLSTATE \(state))", isTransient: passing)
        case .queryCancelled:
            return StoreError(.cancelled, "The write to \(location) was cancelled and rolled back.")
        default:
            let reason = error.underlying.map { "\($0)" } ?? "\(error.code)"
            return StoreError(.io, "\(server) is out of reach: \(reason)", isTransient: true)
        }
    }

    // MARK: Housekeeping

    /// Implements ``SyncStore/releaseMemory()``: the pool holds nothing worth giving back.
    public func releaseMemory() async {}

    /// Implements ``SyncStore/close()``: closes the pool's connections, once a
    /// writer's has truncated an empty `staging` (``truncateStagingIfEmpty(patience:cancellable:)``,
    /// even when the calling task is cancelled, as when the agent stops, but
    /// within a second: a server out of reach does not hold up a stop).
    public func close() async {
        if writes { _ = await truncateStagingIfEmpty(patience: .seconds(1), cancellable: false) }
        running.cancel()
        _ = await running.value
    }

    /// Fails with ``StoreError/Kind/missing`` when the schema has no tables of the agent's yet.
    private func checkSchema() async throws(StoreError) {
        let logger = logger
        let schema = place.schema
        let migrated = try await read { connection in
            try await connection.value(
                Bool.self,
                """
                SELECT EXISTS (SELECT 1 FROM information_schema.tables
                               WHERE table_schema = \(schema) AND table_name = 'migrations')
                """, logger) ?? false
        }
        guard migrated else {
            throw StoreError(.missing, "There is no copy in \(location) yet: nothing has been synced.")
        }
    }

    /// Removes, as the store opens, the snapshots of agents that have not said
    /// they are alive for ``abandonedAgentAge`` (or ever), and those of no
    /// agent that are that old, then every staged page whose snapshot is gone
    /// (docs/fleet.md#staged-pages); ``truncateStagingIfEmpty(patience:cancellable:)``
    /// follows.
    private func removeAbandonedSnapshots() async throws(StoreError) {
        let logger = logger
        let gone = Self.interval(Self.abandonedAgentAge)
        try await transaction { connection in
            try await connection.query(
                """
                DELETE FROM snapshots AS s
                WHERE NOT EXISTS (SELECT 1 FROM agents AS a
                                  WHERE a.id = s.agent AND a.heartbeat_at > now() - \(gone)::interval)
                  AND (s.agent IS NOT NULL OR s.began_at < now() - \(gone)::interval)
                """, logger: logger)
            // A page is staged only while its snapshot's row is there, and locks it until it
            // commits: a page whose snapshot is gone is no sync's (one staged by a version
            // before that lock, say).
            try await connection.query(
                """
                DELETE FROM staging AS g WHERE NOT EXISTS (SELECT 1 FROM snapshots AS s WHERE s.id = g.snapshot)
                """, logger: logger)
        }
    }
}

extension PostgresConnection {
    /// Runs `query` and returns its rows.
    func rows(_ query: PostgresQuery, _ logger: Logger) async throws -> [PostgresRandomAccessRow] {
        try await self.query(query, logger: logger).collect().map { $0.makeRandomAccess() }
    }

    /// Runs `query` and returns the first column of its first row, if any.
    func value<T: PostgresDecodable>(_ type: T.Type, _ query: PostgresQuery, _ logger: Logger) async throws -> T?
    where T._DecodableType == T {
        guard let row = try await self.query(query, logger: logger).collect().first else { return nil }
        return try row.makeRandomAccess()[0].decode(T?.self)
    }
}

extension PostgresRandomAccessRow {
    /// The value of `column`, `nil` when it is NULL.
    func get<T: PostgresDecodable>(_ column: String, as type: T.Type = T.self) throws -> T?
    where T._DecodableType == T {
        try self[column].decode(T?.self)
    }

    /// The time in `column` (selected as text by ``iso(_:)``).
    func date(_ column: String) throws -> Date? {
        try get(column, as: String.self).flatMap(Timestamp.date(from:))
    }
}

/// `column`, a `timestamptz`, as the text ``Timestamp`` makes: times read back
/// are exactly the ones written, to the millisecond, as with SQLite.
func iso(_ column: String, as name: String? = nil) -> String {
    "to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"') AS \(name ?? column)"
}
