import Foundation
import GRDB

@testable import Store

/// A store in a fresh temporary folder, removed when the fixture is released.
final class StoreFixture: Sendable {
    let folder: String
    let store: SQLiteStore

    init() throws {
        folder = NSTemporaryDirectory() + "store-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = try SQLiteStore(path: folder + "/test.db")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Syncs `records` into `resource` as a successful sync finishing at `date`.
    @discardableResult
    func sync(
        _ resource: String, _ records: [(String, String)], at date: Date = Date(), validators: Validators = Validators()
    ) async throws -> SnapshotChanges {
        let snapshot = try await store.beginSnapshot(of: resource)
        try await snapshot.stage(records.map { StagedRecord(key: $0.0, data: $0.1) })
        return try await store.record(
            FinishedSync(
                resource: resource, trigger: .refresh, startedAt: date, finishedAt: date, outcome: .success,
                state: .idle, pages: 1, items: records.count, validators: validators),
            snapshot: snapshot
        ).changes
    }

    /// The rows of `records` for `resource`: key → (data, updated_at).
    func rows(_ resource: String) throws -> [String: (String, String)] {
        let output = try sqlite(
            "SELECT key, data, updated_at FROM records WHERE resource = '\(resource)' ORDER BY key")
        var rows: [String: (String, String)] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            rows[fields[0]] = (fields[1], fields[2])
        }
        return rows
    }

    /// How many temporary (staging) tables the writer connection holds.
    func temporaryTableCount() async throws -> Int {
        try await store.pool.write { db in
            try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_temp_master WHERE type = 'table'") ?? 0
        }
    }

    /// Runs SQL with the `sqlite3` shell, as a reader in another process would.
    func sqlite(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-separator", "\t", store.path, sql]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
