import Foundation

/// The LD_PRELOAD shim that makes the I/O of one SQLite database fail
/// (`scripts/faults.d/sqlite-faults.c`, docs/testing.md#faults-under-sqlite),
/// and the control file through which a test switches it on and off and reads
/// what it injected.
///
/// The shim is built by the test itself with the C compiler, once per test
/// process: no target of the package links it.
struct SQLiteFaults: Sendable {
    /// A kind of fault, in the order of the control file's counters.
    enum Kind: Int, CaseIterable, Sendable {
        case eioWrite, enospc, shortWrite, eioFsync, eioRead

        /// Its name in `SQLITE_FAULTS_KINDS` and `SQLITE_FAULTS_AT`.
        var name: String {
            ["eio-write", "enospc", "short-write", "eio-fsync", "eio-read"][rawValue]
        }
    }

    /// The database's files, in the order of the control file's counters.
    static let files = ["db", "wal", "shm", "journal"]

    /// What the shim counted so far.
    struct Counts: Sendable {
        var total: UInt64 = 0
        var byKind = [UInt64](repeating: 0, count: Kind.allCases.count)
        var calls: UInt64 = 0
        var byFile = [UInt64](repeating: 0, count: SQLiteFaults.files.count)

        static func + (a: Counts, b: Counts) -> Counts {
            Counts(
                total: a.total + b.total, byKind: zip(a.byKind, b.byKind).map(+), calls: a.calls + b.calls,
                byFile: zip(a.byFile, b.byFile).map(+))
        }
    }

    /// The built shim, or why it could not be built.
    static let library: Result<String, BuildFailed> = {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/faults.d/sqlite-faults.c").path
        let folder = NSTemporaryDirectory() + "sync-agent-faults-" + UUID().uuidString
        let output = folder + "/libsqlite-faults.so"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            return .failure(BuildFailed(message: "\(error)"))
        }
        // The system's C compiler, or the toolchain's clang.
        let compiler = ["/usr/bin/cc", "/usr/bin/clang"].first { FileManager.default.isExecutableFile(atPath: $0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: compiler ?? "/usr/bin/env")
        process.arguments =
            (compiler == nil ? ["clang"] : [])
            + ["-shared", "-fPIC", "-O2", "-Wall", "-o", output, source, "-ldl"]
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            return .failure(BuildFailed(message: "\(error)"))
        }
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(BuildFailed(message: String(decoding: said, as: UTF8.self)))
        }
        return .success(output)
    }()

    struct BuildFailed: Error, CustomStringConvertible {
        var message: String
        var description: String { "the fault shim could not be built: \(message)" }
    }

    /// The control file.
    let controlPath: String
    /// The database whose files fail.
    let database: String

    /// A control file in `folder` for the database at `database`, faults off.
    init(in folder: String, database: String) throws {
        controlPath = folder + "/faults-" + UUID().uuidString
        self.database = database
        try Data(count: 4096).write(to: URL(fileURLWithPath: controlPath))
    }

    /// The environment that preloads the shim into a process: random faults at
    /// `rate` of the `kinds`, from `seed`, and the chosen `points`
    /// (`FILE:OP:N:KIND`, such as `wal:write:3:eio-write`). What the test runner
    /// preloads is preloaded too (`scripts/sanitize thread` makes the `Mutex`
    /// visible to ThreadSanitizer that way).
    func environment(
        seed: UInt64, rate: Double = 0, kinds: [Kind] = Kind.allCases, points: [String] = []
    ) throws -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment["LD_PRELOAD"].map { [$0] } ?? []
        return [
            "LD_PRELOAD": ([try Self.library.get()] + inherited).joined(separator: ":"),
            "SQLITE_FAULTS_DB": database,
            "SQLITE_FAULTS_CONTROL": controlPath,
            "SQLITE_FAULTS_SEED": "\(seed)",
            "SQLITE_FAULTS_RATE": "\(rate)",
            "SQLITE_FAULTS_KINDS": kinds.map(\.name).joined(separator: ","),
            "SQLITE_FAULTS_AT": points.joined(separator: ","),
        ]
    }

    /// Switches faults on until the shim has injected `limit` in all (0: no
    /// limit), or off.
    func set(on: Bool, limit: UInt64 = 0) throws {
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: controlPath))
        defer { try? file.close() }
        var words = [UInt64(on ? 1 : 0).littleEndian, limit.littleEndian]
        try file.seek(toOffset: 0)
        try file.write(contentsOf: Data(bytes: &words, count: 16))
    }

    /// What the shim counted so far.
    func counts() throws -> Counts {
        let data = try Data(contentsOf: URL(fileURLWithPath: controlPath))
        let word = { (index: Int) -> UInt64 in
            data.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: index * 8, as: UInt64.self)) }
        }
        return Counts(
            total: word(2), byKind: Kind.allCases.map { word(3 + $0.rawValue) }, calls: word(8),
            byFile: Self.files.indices.map { word(9 + $0) })
    }
}
