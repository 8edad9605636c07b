import Foundation
import Testing

@testable import Store

/// Kinds stored as the raw values of their enums (docs/schema.md#stored-values):
/// each store's CHECK constraints allow exactly those values, and a value this
/// agent does not know is an error that names it, never another value.
@Suite(.timeLimit(minutes: 2, timesUnderSanitizer: 10)) struct StoredValuesTests {
    /// The values each CHECK of the form `column IN (…)` allows, by `table.column`.
    static func checks(_ fixture: StoreFixture) throws -> [String: Set<String>] {
        var checks: [String: Set<String>] = [:]
        func add(_ table: String, _ column: String, _ list: Substring) {
            let values = list.matches(of: /'([^']*)'/).map { String($0.output.1) }
            checks["\(table).\(column)", default: []].formUnion(values)
        }
        switch fixture.kind {
        case .sqlite:
            // Every table, so that a new table's CHECK cannot go unseen.
            let tables = try fixture.query("SELECT name FROM sqlite_master WHERE type = 'table'")
            for table in tables.split(separator: "\n").map(String.init) {
                let sql = try fixture.query("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = '\(table)'")
                for match in sql.matches(of: /(\w+)\s+IN\s*\(([^)]*)\)/) {
                    add(table, String(match.output.1), match.output.2)
                }
            }
        case .postgres:
            let rows = try fixture.query(
                """
                SELECT conrelid::regclass::text, pg_get_constraintdef(oid) FROM pg_constraint
                WHERE contype = 'c' AND connamespace = current_schema()::regnamespace
                """)
            for line in rows.split(separator: "\n") {
                let fields = line.split(separator: "\t", maxSplits: 1)
                guard fields.count == 2, let table = fields[0].split(separator: ".").last else { continue }
                for match in fields[1].matches(of: /\((\w+) = ANY \(ARRAY\[([^\]]*)\]\)\)/) {
                    add(String(table), String(match.output.1), match.output.2)
                }
            }
        }
        return checks
    }

    @Test(arguments: StoreKind.allCases) func checksAllowExactlyTheValuesOfTheEnums(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let checks = try Self.checks(fixture)
        #expect(
            checks.keys.sorted() == [
                "changes.op", "rate_limit_holds.kind", "resources.state", "sync_runs.outcome", "sync_runs.trigger",
            ])
        #expect(checks["rate_limit_holds.kind"] == Set(RateLimitHold.Kind.allCases.map(\.rawValue)))
        #expect(checks["resources.state"] == Set(ResourceState.allCases.map(\.rawValue)))
        #expect(checks["sync_runs.trigger"] == Set(SyncTrigger.allCases.map(\.rawValue)))
        #expect(checks["sync_runs.outcome"] == Set(SyncOutcome.allCases.map(\.rawValue)))
        #expect(checks["changes.op"] == Set(ChangeOperation.allCases.map(\.rawValue)))
        #expect(checks["resources.state"]?.contains("waiting") == true)
    }

    /// Writes `value` into `column` of the rows `condition` selects, as a newer
    /// agent whose migration widened the CHECK would.
    static func write(_ fixture: StoreFixture, _ table: String, _ assignment: String, where condition: String) throws {
        let update = "UPDATE \(table) SET \(assignment) WHERE \(condition)"
        switch fixture.kind {
        case .sqlite: _ = try fixture.query("PRAGMA ignore_check_constraints = ON; \(update)")
        case .postgres:
            _ = try fixture.query(
                """
                DO $$ DECLARE name text; BEGIN
                    FOR name IN SELECT conname FROM pg_constraint
                        WHERE conrelid = '\(table)'::regclass AND contype = 'c' AND conname LIKE '%_check'
                    LOOP EXECUTE format('ALTER TABLE \(table) DROP CONSTRAINT %I', name); END LOOP;
                END $$;
                \(update)
                """)
        }
    }

    static func unknownValue<T>(_ read: () async throws(StoreError) -> T) async -> String? {
        do {
            _ = try await read()
            return nil
        } catch {
            return error.kind == .unknownValue ? error.message : "\(error.kind): \(error.message)"
        }
    }

    @Test(arguments: StoreKind.allCases) func anUnknownValueIsAnErrorThatNamesIt(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", #"{"id":1}"#), ("2", #"{"id":2}"#)])
        let store = fixture.store
        let run = try #require(try await store.runs(limit: 1).first)
        let seq = try #require(try await store.changes(after: 0, limit: 10).changes.last?.seq)
        let upgrade = "which this agent does not know: a newer agent wrote it; upgrade this one"

        try Self.write(fixture, "resources", "state = 'paused'", where: "name = 'users'")
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.resources() }
                == #"resources.state of "users" is "paused", "# + upgrade)
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.resource(named: "users") }
                == #"resources.state of "users" is "paused", "# + upgrade)
        try Self.write(
            fixture, "resources", "state = 'idle', last_error = 'x', last_error_kind = 'quota'", where: "true")
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.resources() }
                == #"resources.last_error_kind of "users" is "quota", "# + upgrade)
        try Self.write(fixture, "resources", "last_error = NULL, last_error_kind = NULL", where: "true")
        #expect(try await store.resources().map(\.state) == [.idle])

        try Self.write(fixture, "sync_runs", "outcome = 'skipped'", where: "id = \(run.id)")
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.runs(limit: 5) }
                == #"sync_runs.outcome of id \#(run.id) is "skipped", "# + upgrade)
        try Self.write(fixture, "sync_runs", "outcome = 'success', trigger = 'webhook'", where: "id = \(run.id)")
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.runs(limit: 5) }
                == #"sync_runs.trigger of id \#(run.id) is "webhook", "# + upgrade)
        try Self.write(
            fixture, "sync_runs", "trigger = 'poll', error = 'x', error_kind = 'quota'", where: "id = \(run.id)")
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.runs(limit: 5) }
                == #"sync_runs.error_kind of id \#(run.id) is "quota", "# + upgrade)
        // A row written before kinds were has none: unrecoverable, as it always read.
        try Self.write(fixture, "sync_runs", "error_kind = NULL", where: "id = \(run.id)")
        #expect(try await store.runs(limit: 5).first?.error?.kind == .unrecoverable)

        try Self.write(fixture, "changes", "op = 'truncate'", where: "seq = \(seq)")
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.changes(after: 0, limit: 10) }
                == #"changes.op of seq \#(seq) is "truncate", "# + upgrade)
        #expect(
            await Self.unknownValue { () async throws(StoreError) in try await store.latestChanges(count: 5) }
                == #"changes.op of seq \#(seq) is "truncate", "# + upgrade)
        // The changes before it are read: a reader stops at the one it cannot read.
        #expect(try await store.changes(after: 0, limit: 1).changes.map(\.op) == [.insert])
    }
}
