import Foundation
import GRDB
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The agent's SQLite database: the records, each resource's state and the
/// history of syncs (docs/schema.md#the-sqlite-database), the default ``SyncStore``.
///
/// It opens the file as a GRDB `DatabasePool` in WAL mode, so readers (other
/// processes included) never block the agent and the agent never blocks them.
/// Writes wait up to ``busyTimeout`` for another process's write to finish.
///
/// Thread-safety: `Sendable`; every method may be called from any task. Writes
/// are serialized by the pool's single writer connection.
public final class SQLiteStore: SyncStore {
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
    /// Implements ``SyncStore/location``.
    public var location: String { path }
    let pool: DatabasePool
    /// The device and inode of the file opened at ``path``.
    private let identity: FileIdentity?
    /// The wall-clock time, for the times the store stamps (a run's end, a change's).
    let now: @Sendable () -> Date
    /// Numbers the staging tables of the writer connection.
    let stagingTables = Atomic<UInt64>(0)
    /// The declarations of the typed tables, by resource, as last read from the
    /// catalog `typed_tables` (which each write reads): decoded once per text.
    let typedTables = Mutex<[String: TypedTable]>([:])

    /// Whether ``quickCheck(within:)`` found the file damaged.
    private let foundDamaged = Mutex(false)

    /// How long a write waits for another process's write before failing.
    public static let busyTimeout: TimeInterval = 5

    /// Opens (or creates) the database at `path` and brings its schema up to date;
    /// `now` tells the time the store stamps.
    public init(
        path: String, mode: OpenMode = .create, now: @escaping @Sendable () -> Date = SystemSources.now
    ) throws(StoreError) {
        self.path = path
        self.now = now
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
            pool = try Self.openPool(path: path, configuration: configuration, migrate: mode != .readOnly)
        } catch let error as DatabaseError where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) {
            throw StoreError(.io, "database is locked by another process: \(path)", isTransient: true)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT {
            throw StoreError(.corrupt, "The database \(path) is corrupt: \(Self.describe(error))")
        } catch let error as DatabaseError where Self.passesAtOpening(error) {
            throw StoreError(.io, "Cannot open the database \(path): \(Self.describe(error))", isTransient: true)
        } catch {
            throw StoreError(.open, "Cannot open the database \(path): \(Self.describe(error))")
        }
        identity = FileIdentity(at: path)
    }

    /// How long opening waits, in all, for another process that holds the write lock.
    static let openPatience: TimeInterval = 60

    /// Opens the pool and migrates it if asked. Opening may write (SQLite
    /// makes the WAL file ready), so while another process holds the write
    /// lock longer than the busy timeout it is tried again, for at most
    /// ``openPatience``: a long writer delays the opening, never fails it.
    private static func openPool(
        path: String, configuration: Configuration, migrate: Bool
    ) throws -> DatabasePool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(openPatience))
        while true {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration)
                // A database already up to date is not written to: another process may hold its write lock.
                let current = try pool.read { try migrator.hasCompletedMigrations($0) }
                if migrate, !current { try migrator.migrate(pool) }
                return pool
            } catch let error as DatabaseError
                where [.SQLITE_BUSY, .SQLITE_LOCKED].contains(error.resultCode) && clock.now < deadline
            {
                // The busy timeout waited already, unless SQLite chose not to: a pause all the same.
                usleep(100_000)
            }
        }
    }

    /// Implements ``SyncStore/isInPlace``.
    public var isInPlace: Bool {
        identity == nil || FileIdentity(at: path) == identity
    }

    /// What ``quickCheck(within:)`` found.
    public enum Health: Sendable, Equatable {
        /// No damage found.
        case sound
        /// Damaged: SQLite's first finding.
        case corrupt(String)
        /// The check did not finish (in time, for a large file, or for this
        /// reason): nothing is known.
        case unchecked(String)
    }

    /// Gives back the memory that SQLite's caches and freed allocations hold:
    /// the writer's page and statement caches are
    /// emptied and the readers closed once idle, then the C heap's free
    /// memory is returned to the system. No thread blocks waiting for it: the
    /// writer does it between two writes. The caches fill again with what
    /// later syncs use.
    public func releaseMemory() async {
        pool.releaseMemoryEventually()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // After the writer's own release, queued just before.
            pool.asyncWriteWithoutTransaction { _ in
                _ = SQLiteStore.mallocTrim?(0)
                done.resume()
            }
        }
    }

    /// glibc's `malloc_trim`, which the C library's Swift module does not declare.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()

    /// Runs SQLite's `PRAGMA quick_check`, interrupted after `limit` so that a
    /// large file does not hold up the start.
    public func quickCheck(within limit: Duration) -> Health {
        let pool = pool
        let timer = DispatchWorkItem { pool.interrupt() }
        let components = limit.components
        let seconds = Double(components.seconds) + Double(components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: timer)
        defer { timer.cancel() }
        do {
            let findings = try pool.read { try String.fetchAll($0, sql: "PRAGMA quick_check(5)") }
            guard findings == ["ok"] else {
                foundDamaged.withLock { $0 = true }
                return .corrupt(findings.joined(separator: "; "))
            }
            return .sound
        } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
            return .unchecked("it did not finish within \(limit)")
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            foundDamaged.withLock { $0 = true }
            return .corrupt(Self.describe(error))
        } catch {
            // Busy, out of descriptors or memory: says nothing of the file.
            return .unchecked(Self.describe(error))
        }
    }

    /// Whether the database at `path` is still found damaged by `checks`
    /// more checks, `pause` apart, each on a connection of its own and
    /// interrupted after ``staysCorruptLimit``. SQLite tells a read that failed
    /// with an I/O error as damage at times (`database disk image is
    /// malformed`), which a passing fault does not repeat: a check that finds
    /// no damage, or meets another error, answers false. A check that does
    /// not finish in time does not tell, and leaves the damage as found.
    public static func staysCorrupt(
        at path: String, checks: Int = 5, pause: Duration = .milliseconds(200)
    ) async -> Bool {
        for _ in 0..<checks {
            try? await Task.sleep(for: pause)
            guard findsDamage(at: path) else { return false }
        }
        return true
    }

    /// One check of ``staysCorrupt(at:checks:pause:)``: whether it finds damage or does not finish.
    private static func findsDamage(at path: String) -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(busyTimeout)
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            let timer = DispatchWorkItem { queue.interrupt() }
            DispatchQueue.global().asyncAfter(deadline: .now() + staysCorruptLimit, execute: timer)
            defer { timer.cancel() }
            return try queue.read { try String.fetchAll($0, sql: "PRAGMA quick_check(5)") } != ["ok"]
        } catch let error as DatabaseError
            where [.SQLITE_CORRUPT, .SQLITE_NOTADB, .SQLITE_INTERRUPT].contains(error.resultCode)
        {
            return true
        } catch {
            return false
        }
    }

    /// How long each check of ``staysCorrupt(at:checks:pause:)`` may take, in seconds.
    static let staysCorruptLimit: Double = 3

    /// Closes the database: nothing more can be read or written through this store.
    /// The readers close first, so that the writer is the last connection
    /// closed: it checkpoints the WAL and removes it (a reader closed last
    /// cannot, and would leave the `-wal` and `-shm` files behind). A file
    /// ``quickCheck(within:)`` found damaged is not checkpointed into.
    public func close() {
        closeConnections()
    }

    /// Implements ``SyncStore/close()``.
    public func close() async {
        closeConnections()
    }

    private func closeConnections() {
        // A file found damaged is left as it is: the writer, closed last, would checkpoint into it.
        if !foundDamaged.withLock({ $0 }) { pool.releaseMemory() }
        try? pool.close()
    }

    /// Moves the database at `path`, with its WAL and shared-memory files, to
    /// `PATH.corrupt-TIMESTAMP` (and its `-wal`, `-shm`); returns that path.
    public static func moveAside(_ path: String, at date: Date = SystemSources.now()) throws(StoreError) -> String {
        let stamp = Timestamp.string(from: date).replacingOccurrences(of: ":", with: "")
        let aside = "\(path).corrupt-\(stamp)"
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
            guard rename(path + suffix, aside + suffix) == 0 else {
                let reason = String(cString: strerror(errno))
                throw StoreError(.open, "Cannot move the corrupt database \(path) aside to \(aside): \(reason)")
            }
        }
        return aside
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
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB && !hasSQLiteHeader(path) {
            throw StoreError(
                .open,
                "\(path) is not an SQLite database: the agent leaves it as it is; choose another \"database\" path.")
        } catch let error as DatabaseError where [.SQLITE_CORRUPT, .SQLITE_NOTADB].contains(error.resultCode) {
            throw StoreError(.corrupt, "The database \(path) is corrupt: \(describe(error))")
        } catch let error as DatabaseError where passesAtOpening(error) {
            throw StoreError(.io, "Cannot open the database \(path): \(describe(error))", isTransient: true)
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

    /// Whether the file at `path` starts as every SQLite database does: one
    /// that does and cannot be read is damaged, one that does not is no database.
    static func hasSQLiteHeader(_ path: String) -> Bool {
        guard let file = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? file.close() }
        return (try? file.read(upToCount: 16)) == Data("SQLite format 3\0".utf8)
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
        // SQLite tells a read that failed with an I/O error so at times; real
        // damage is checked when the agent starts (docs/configuration.md#a-corrupt-database).
        case .SQLITE_CORRUPT: return "\(path) read as damaged, perhaps by an I/O error (\(Self.describe(error)))"
        default: return nil
        }
    }

    /// Whether an error met while opening or migrating the database is a
    /// passing condition of the machine (an I/O error, a full disk, no memory
    /// left): the opening may succeed later. Unlike a write's, a file that
    /// cannot be opened is not one: at start it is most often a permission.
    static func passesAtOpening(_ error: DatabaseError) -> Bool {
        [.SQLITE_IOERR, .SQLITE_FULL, .SQLITE_NOMEM].contains(error.resultCode)
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
        // Checked last in the transaction, just before it commits: nothing is
        // written into a file no reader can see any more.
        let checked: @Sendable (Database) throws -> T = { [self] db in
            let result = try work(db)
            if !isInPlace {
                throw StoreError(
                    .io, "the database file \(path) was deleted or replaced while the agent had it open",
                    isTransient: true)
            }
            return result
        }
        return try await mapErrors("Writing to") {
            if cancellable { return try await pool.write(checked) }
            return try await Task { try await pool.write(checked) }.value
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

    /// Runs `work` in a read transaction in the calling task, without the two
    /// hops to a reader connection's queue and back that ``read(_:)`` takes:
    /// for the short reads of every sync (a few rows found by key). In WAL
    /// mode a read never waits for a writer; it waits only while every reader
    /// connection is busy.
    func readInCaller<T: Sendable>(_ work: @escaping @Sendable (Database) throws -> T) async throws(StoreError) -> T {
        let pool = pool
        return try await mapErrors("Reading") { try Self.read(pool, work) }
    }

    /// A synchronous read: run on the calling thread when a reader is free.
    private static func read<T>(_ pool: DatabasePool, _ work: (Database) throws -> T) throws -> T {
        try pool.read(work)
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
