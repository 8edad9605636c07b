import Foundation
import GRDB

/// The agent's SQLite database: the records, each resource's state and the
/// history of syncs (docs/schema.md#the-sqlite-database).
///
/// It opens the file as a GRDB `DatabasePool` in WAL mode, so readers (other
/// processes included) never block the agent and the agent never blocks them.
/// Writes wait up to ``busyTimeout`` for another process's write to finish.
///
/// Thread-safety: `Sendable`; every method may be called from any task. Writes
/// are serialized by the pool's single writer connection.
public final class SyncStore: Sendable {
    /// How to open the database file.
    public enum OpenMode: Sendable {
        /// Create the file (and the schema) when missing.
        case create
        /// Open an existing file only; fail with ``StoreError/Kind/missing`` otherwise.
        case existing
        /// Open an existing file for reading only, without migrating it (`status`, `history`).
        case readOnly
    }

    /// The path of the database file.
    public let path: String
    let pool: DatabasePool

    /// How long a write waits for another process's write before failing.
    public static let busyTimeout: TimeInterval = 5
    /// How many sync runs are kept per resource; older ones are pruned.
    public static let runsKeptPerResource = 1000

    /// Opens (or creates) the database at `path` and brings its schema up to date.
    public init(path: String, mode: OpenMode = .create) throws(StoreError) {
        self.path = path
        if mode != .create {
            var info = stat()
            if stat(path, &info) != 0 {
                // A file out of reach is not a file that is missing.
                guard errno == ENOENT else {
                    let reason = String(cString: strerror(errno))
                    throw StoreError(
                        .open,
                        "Cannot open the database \(path): \(reason) (run as a user that may read the agent's files)")
                }
                throw StoreError(.missing, "There is no database at \(path) yet: nothing has been synced.")
            }
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            throw StoreError(.open, "Cannot open the database \(path): the folder \(folder) does not exist.")
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(Self.busyTimeout)
        configuration.label = "sync-agent"
        configuration.readonly = mode == .readOnly
        // Creating the file, the switch to WAL and the migrations wait for any
        // other process doing the same.
        let lock = mode == .readOnly ? nil : try OpeningLock.acquire(beside: path)
        defer { lock?.release() }
        try Self.refuseForeignFile(at: path)
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
            // A database already up to date is not written to: another process may hold its write lock.
            let current = try pool.read { try Self.migrator.hasCompletedMigrations($0) }
            if mode != .readOnly, !current { try Self.migrator.migrate(pool) }
        } catch {
            throw StoreError(.open, "Cannot open the database \(path): \(Self.describe(error))")
        }
    }

    /// Refuses a file at `path` that is not a database of the agent's: one that
    /// is not SQLite, or whose tables are another program's (no migrations of
    /// ours). It is read only, never changed (not even switched to WAL).
    static func refuseForeignFile(at path: String) throws(StoreError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_size > 0 else { return }
        let tables: [String]
        do {
            var configuration = Configuration()
            configuration.readonly = true
            configuration.busyMode = .timeout(busyTimeout)
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            tables = try queue.read { db in
                try String.fetchAll(
                    db,
                    sql:
                        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
                )
            }
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError(
                .open,
                "\(path) is not an SQLite database: the agent leaves it as it is; choose another \"database\" path.")
        } catch {
            throw StoreError(.open, "Cannot open the database \(path): \(describe(error))")
        }
        guard tables.isEmpty || tables.contains("grdb_migrations") else {
            let shown = tables.prefix(3).joined(separator: ", ") + (tables.count > 3 ? ", …" : "")
            throw StoreError(
                .open,
                "\(path) is another program's database (tables \(shown)), not the agent's: the agent leaves it "
                    + "as it is; choose another \"database\" path.")
        }
    }

    /// The plain sentence for a database error that is a passing condition of
    /// the machine (docs/configuration.md#failures-and-retries), or `nil`.
    func passingCondition(_ error: DatabaseError) -> String? {
        let folder = (path as NSString).deletingLastPathComponent
        switch error.resultCode {
        case .SQLITE_BUSY, .SQLITE_LOCKED: return "database is locked by another process: \(path)"
        case .SQLITE_FULL: return "disk full: \(folder)"
        case .SQLITE_IOERR: return "I/O error on \(path) (\(Self.describe(error)))"
        case .SQLITE_NOMEM: return "out of memory writing \(path)"
        case .SQLITE_CANTOPEN: return "cannot open a file beside \(path) (out of file descriptors?)"
        default: return nil
        }
    }

    /// A short description of a database error for messages.
    static func describe(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "\(error.resultCode)"
        }
        return "\(error)"
    }

    /// Runs `work` in a write transaction, mapping errors to ``StoreError``.
    ///
    /// A cancellable write that is cancelled does not start, or is interrupted
    /// and rolled back (``StoreError/Kind/cancelled``). A write that is not
    /// cancellable runs to its end even when the calling task is cancelled: it
    /// is how a cancelled sync still records that it was cancelled, and drops
    /// its staging table.
    func write<T: Sendable>(
        cancellable: Bool = true, _ work: @escaping @Sendable (Database) throws -> T
    ) async throws(StoreError) -> T {
        let pool = pool
        return try await mapErrors("Writing to") {
            if cancellable { return try await pool.write(work) }
            return try await Task { try await pool.write(work) }.value
        }
    }

    /// Runs `work`, which writes only temporary tables, in a deferred transaction:
    /// unlike ``write(cancellable:_:)`` it takes no lock on the database file, so
    /// another process writing to it is not held up.
    func writeTemporary(
        cancellable: Bool = true, _ work: @escaping @Sendable (Database) throws -> Void
    ) async throws(StoreError) {
        let pool = pool
        let transaction: @Sendable (Database) throws -> Void = { db in
            try db.inTransaction(.deferred) {
                try work(db)
                return .commit
            }
        }
        try await mapErrors("Writing to") {
            if cancellable { return try await pool.writeWithoutTransaction(transaction) }
            return try await Task { try await pool.writeWithoutTransaction(transaction) }.value
        }
    }

    /// Runs `work` in a read transaction (a consistent snapshot), mapping errors to ``StoreError``.
    func read<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        let pool = pool
        return try await mapErrors("Reading") { try await pool.read(work) }
    }

    private func mapErrors<T: Sendable>(
        _ verb: String, _ body: () async throws -> T
    ) async throws(StoreError) -> T {
        do {
            return try await body()
        } catch let error as StoreError {
            throw error
        } catch is CancellationError {
            throw StoreError(.cancelled, "The write to \(path) was cancelled.")
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            throw StoreError(.cancelled, "The write to \(path) was cancelled and rolled back.")
        } catch let error as DatabaseError where passingCondition(error) != nil {
            throw StoreError(.io, passingCondition(error) ?? "", isTransient: true)
        } catch {
            throw StoreError(.io, "\(verb) the database \(path) failed: \(Self.describe(error))")
        }
    }
}
