import Foundation
import Testing

@testable import Store

/// The typed tables of a PostgreSQL store (docs/schema.md#typed-tables): kept
/// with the records in each write, rebuilt from them when the declaration
/// changes, dropped when it goes; read here by `psql`, as readers would.
@Suite struct PostgresTypedTableTests {
    /// A column of `type` named `name`, reading the record's member `member`.
    static func column(
        _ name: String, _ member: String, _ type: ColumnType, nullable: Bool = true, indexed: Bool = false
    ) -> TypedColumn {
        let tokens = member.isEmpty ? [] : member.split(separator: "/").map(String.init)
        return TypedColumn(
            name: name, pointer: tokens.isEmpty ? "" : "/" + member, tokens: tokens, type: type, nullable: nullable,
            indexed: indexed)
    }

    /// Orders: every type, a column that is not nullable, an indexed one, and a list.
    static func orders(_ resource: String = "orders") -> TypedTable {
        TypedTable(
            resource: resource,
            columns: [
                column("status", "status", .text, indexed: true), column("total", "total", .real),
                column("quantity", "quantity", .integer), column("paid", "paid", .boolean),
                column("placed_at", "placed_at", .timestamp), column("meta", "meta", .json),
                column("email", "customer/email", .text, nullable: false),
            ],
            lists: [
                ChildTable(
                    name: "line_items", pointer: "/line_items", tokens: ["line_items"],
                    columns: [column("sku", "sku", .text), column("quantity", "quantity", .integer, indexed: true)])
            ])
    }

    static let fitting = """
        {"status": "paid", "total": 12.5, "quantity": 3, "paid": true, "placed_at": "2024-01-15T10:30:00Z",
         "meta": {"x": [1, 2]}, "customer": {"email": "a@example.com"},
         "line_items": [{"sku": "s1", "quantity": 2}, {"sku": "s2", "quantity": 1}]}
        """
    /// Seven misfits: status, total, quantity, paid, placed_at, the missing email, and line item 1's quantity.
    static let misfitting = """
        {"status": 5, "total": "12", "quantity": 1.5, "paid": 1, "placed_at": "yesterday", "meta": null,
         "line_items": [{"sku": "s3", "quantity": 1}, {"sku": "s4", "quantity": "many"}]}
        """
    /// Nothing but the email: NULLs, and no misfit.
    static let sparse = #"{"quantity": 3e2, "placed_at": 1700000000, "line_items": null, "customer": {"email": "c@x"}}"#

    /// Records a successful snapshot sync of `records`.
    @discardableResult
    func sync(_ store: any SyncStore, _ resource: String, _ records: [(String, String)]) async throws -> RecordedSync {
        let snapshot = try await store.beginSnapshot(of: resource)
        try await snapshot.stage(records.map { StagedRecord(key: $0.0, data: $0.1) })
        return try await store.record(
            FinishedSync(
                resource: resource, trigger: .refresh, startedAt: Date(), outcome: .success, state: .idle, pages: 1,
                items: records.count),
            snapshot: snapshot)
    }

    /// Applies one page of an incremental sync.
    func apply(_ store: any SyncStore, _ resource: String, _ changes: [IncrementalChange]) async throws -> AppliedPage {
        try await store.applyPage(
            IncrementalPage(
                resource: resource, scope: "", changes: changes, cursor: SyncCursor(request: "r"), run: nil,
                trigger: .poll, startedAt: Date()))
    }

    /// `psql`'s rows for `sql`, one a line, columns separated by `|`.
    func rows(_ fixture: StoreFixture, _ sql: String) throws -> [String] {
        try fixture.query(sql).split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: "|") }
    }

    static func misfit(_ table: String, _ column: String, _ key: String, _ pointer: String) -> ColumnMisfit {
        ColumnMisfit(table: table, column: column, key: key, pointer: pointer)
    }

    @Test func aSnapshotFillsTheTablesInNativeTypesWithNullsForMisfitsAndAbsentValues() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        let declared = try await store.declareTables([Self.orders()])
        #expect(declared.rebuilt == ["orders"] && declared.misfits.isEmpty)

        let recorded = try await sync(
            store, "orders", [("a", Self.fitting), ("b", Self.misfitting), ("c", Self.sparse)])
        #expect(recorded.columns?.misfits == 7)
        #expect(recorded.columns?.firstMisfit == Self.misfit("orders", "status", "b", "/status"))
        let parent = """
            SELECT key, status, total, quantity, paid,
                   to_char(placed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS'), meta, email
            FROM orders ORDER BY key
            """
        #expect(
            try rows(fixture, parent) == [
                #"a|paid|12.5|3|t|2024-01-15T10:30:00|{"x": [1, 2]}|a@example.com"#, "b|||||||",
                "c|||300||2023-11-14T22:13:20||c@x",
            ])
        #expect(
            try rows(fixture, "SELECT key, position, sku, quantity FROM orders__line_items ORDER BY key, position")
                == ["a|0|s1|2", "a|1|s2|1", "b|0|s3|1", "b|1|s4|"])
        // The table's updated_at is the record's.
        #expect(
            try rows(
                fixture,
                """
                SELECT count(*) FROM orders AS o JOIN records AS r ON r.resource = 'orders' AND r.key = o.key
                WHERE o.updated_at = r.updated_at
                """) == ["3"])

        // The next snapshot: a changed (now misfitting), b gone, c unchanged, d new (with a misfit of its list).
        let before = try rows(fixture, "SELECT updated_at FROM orders WHERE key = 'c'")
        let next = try await sync(
            store, "orders",
            [
                ("a", Self.fitting.replacingOccurrences(of: "\"paid\": true", with: "\"paid\": \"yes\"")),
                ("c", Self.sparse), ("d", #"{"customer": {"email": "d@x"}, "line_items": [{"sku": 1}]}"#),
            ])
        // a's paid, d's sku. b's misfit went with b; the parent table's misfits come before the child
        // tables' (as in SQLite), though d's insert comes before a's update in the feed.
        #expect(next.columns?.misfits == 2)
        #expect(next.columns?.firstMisfit == Self.misfit("orders", "paid", "a", "/paid"))
        #expect(
            try rows(fixture, "SELECT misfit_table, misfit_column, misfit_key, misfit_pointer FROM typed_tables")
                == ["orders|paid|a|/paid"])
        #expect(try rows(fixture, "SELECT key FROM orders ORDER BY key") == ["a", "c", "d"])
        #expect(
            try rows(fixture, "SELECT key, position, sku FROM orders__line_items ORDER BY key, position")
                == ["a|0|s1", "a|1|s2", "d|0|"])
        #expect(try rows(fixture, "SELECT updated_at FROM orders WHERE key = 'c'") == before)
        // The JSON stays whole in records.
        #expect(try await store.records(of: "orders").map(\.key) == ["a", "c", "d"])
    }

    @Test func eachTypeTakesTheValuesThatFitItAndNullsTheRest() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        let types: [ColumnType] = [.text, .integer, .real, .boolean, .timestamp, .json]
        try await store.declareTables([
            TypedTable(resource: "values", columns: types.map { Self.column("as_\($0.rawValue)", "v", $0) })
        ])
        // Each value, and what the columns it fits hold, as psql shows them: it is a misfit in the others.
        let big = "1" + String(repeating: "0", count: 400)
        // jsonb writes a number in full: 1e-400 as 0.000…1, 400 places.
        let tiny = "0." + String(repeating: "0", count: 399) + "1"
        let subnormal = "0." + String(repeating: "0", count: 323)
        let epoch = "1970-01-01T00:00:00.000"
        /// A text that is no timestamp either store reads.
        func notATimestamp(_ text: String) -> (json: String, stored: [ColumnType: String]) {
            ("\"\(text)\"", [.text: text, .json: "\"\(text)\""])
        }
        let cases: [(json: String, stored: [ColumnType: String])] = [
            (#""abc""#, [.text: "abc", .json: #""abc""#]),
            ("3", [.integer: "3", .real: "3", .timestamp: "1970-01-01T00:00:03.000", .json: "3"]),
            ("3.0", [.integer: "3", .real: "3", .timestamp: "1970-01-01T00:00:03.000", .json: "3.0"]),
            ("3e2", [.integer: "300", .real: "300", .timestamp: "1970-01-01T00:05:00.000", .json: "300"]),
            ("1.5", [.real: "1.5", .timestamp: "1970-01-01T00:00:01.500", .json: "1.5"]),
            (
                "9223372036854775807",
                [.integer: "9223372036854775807", .real: "9.223372036854776e+18", .json: "9223372036854775807"]
            ),
            ("1180591620717411303424", [.real: "1.1805916207174113e+21", .json: "1180591620717411303424"]),
            ("1e400", [.json: big]),
            ("-1e400", [.json: "-" + big]),
            // Too small for a double: zero, as the nearest double, and no error.
            ("1e-400", [.real: "0", .timestamp: epoch, .json: tiny]),
            ("-1e-400", [.real: "0", .timestamp: epoch, .json: "-" + tiny]),
            ("2e-324", [.real: "0", .timestamp: epoch, .json: subnormal + "2"]),
            // A subnormal double, and the largest: as they are.
            ("5e-324", [.real: "5e-324", .timestamp: epoch, .json: subnormal + "5"]),
            (
                "1.7976931348623158e308",
                [
                    .real: "1.7976931348623157e+308",
                    .json: "17976931348623158" + String(repeating: "0", count: 292),
                ]
            ),
            ("1.7976931348623159e308", [.json: "17976931348623159" + String(repeating: "0", count: 292)]),
            ("true", [.boolean: "t", .json: "true"]),
            (
                #""2024-01-15T10:30:00""#,
                [.text: "2024-01-15T10:30:00", .timestamp: "2024-01-15T10:30:00.000", .json: #""2024-01-15T10:30:00""#]
            ),
            (
                #""2024-01-15T12:30:00.25+02:00""#,
                [
                    .text: "2024-01-15T12:30:00.25+02:00", .timestamp: "2024-01-15T10:30:00.250",
                    .json: #""2024-01-15T12:30:00.25+02:00""#,
                ]
            ),
            (#""2024-01-15""#, [.text: "2024-01-15", .timestamp: "2024-01-15T00:00:00.000", .json: #""2024-01-15""#]),
            (
                #""2024-01-15 10:30""#,
                [.text: "2024-01-15 10:30", .timestamp: "2024-01-15T10:30:00.000", .json: #""2024-01-15 10:30""#]
            ),
            (
                #""2024-01-15T10:30:00.5-05:30""#,
                [
                    .text: "2024-01-15T10:30:00.5-05:30", .timestamp: "2024-01-15T16:00:00.500",
                    .json: #""2024-01-15T10:30:00.5-05:30""#,
                ]
            ),
            // SQLite reads a lower-case z too.
            (
                #""2024-01-15T10:30:00z""#,
                [
                    .text: "2024-01-15T10:30:00z", .timestamp: "2024-01-15T10:30:00.000",
                    .json: #""2024-01-15T10:30:00z""#,
                ]
            ),
            // What SQLite does not read is a misfit in PostgreSQL too, though PostgreSQL would read it.
            notATimestamp("2024-01-15t10:30:00Z"), notATimestamp("2024-01-15T10:30:00+02"),
            notATimestamp("2024-01-15T10:30:00+0200"), notATimestamp("2016-12-31T23:59:60Z"),
            notATimestamp("2024-01-15T10:30:00+15:00"), notATimestamp("2024-01-15T10:30:00 +02:00"),
            notATimestamp("2024-01-15Z"), notATimestamp("2024-01-15T10:30.5"),
            (#""2024-02-30T00:00:00Z""#, [.text: "2024-02-30T00:00:00Z", .json: #""2024-02-30T00:00:00Z""#]),
            (#""now""#, [.text: "now", .json: #""now""#]),
            (#"{"a": 1}"#, [.json: #"{"a": 1}"#]),
            ("[1]", [.json: "[1]"]),
            ("null", [:]),
        ]
        var records: [(String, String)] = []
        var misfits = 0
        for (index, value) in cases.enumerated() {
            records.append((String(format: "%02d", index), #"{"v": \#(value.json)}"#))
            if value.json != "null" { misfits += types.count { !value.stored.keys.contains($0) } }
        }
        records.append(("absent", "{}"))
        let recorded = try await sync(store, "values", records)
        #expect(recorded.columns?.misfits == misfits)
        let read = try rows(
            fixture,
            """
            SELECT key, as_text, as_integer, as_real, as_boolean,
                   to_char(as_timestamp AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS'), as_json
            FROM "values" ORDER BY key COLLATE "C"
            """)
        for (index, value) in cases.enumerated() {
            let expected = [String(format: "%02d", index)] + types.map { value.stored[$0] ?? "" }
            #expect(read[index] == expected.joined(separator: "|"), "\(value.json)")
        }
        #expect(read.last == "absent||||||")
    }

    @Test func theFirstMisfitStaysUntilItsRecordFitsOrIsGone() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        try await store.declareTables([Self.orders()])
        let first = try await sync(store, "orders", [("a", Self.fitting), ("b", Self.misfitting)])
        let b = Self.misfit("orders", "status", "b", "/status")
        #expect(first.columns?.firstMisfit == b)

        // A page that does not touch b keeps it, whatever it brings.
        let fits = try await apply(store, "orders", [.upsert(StagedRecord(key: "c", data: Self.fitting))])
        #expect(fits.columns == TypedTableWrite(misfits: 0, firstMisfit: b))
        let spoilt = Self.fitting.replacingOccurrences(of: "12.5", with: "\"12.5\"")
        let misfits = try await apply(store, "orders", [.upsert(StagedRecord(key: "a", data: spoilt))])
        #expect(misfits.columns == TypedTableWrite(misfits: 1, firstMisfit: b))
        // A page that changes nothing still tells the table's state.
        let unchanged = try await apply(store, "orders", [.upsert(StagedRecord(key: "c", data: Self.fitting))])
        #expect(unchanged.feed == nil && unchanged.columns == TypedTableWrite(misfits: 0, firstMisfit: b))

        // b fits now: the first misfit left is a's, found in the table.
        let fixed = try await apply(store, "orders", [.upsert(StagedRecord(key: "b", data: Self.fitting))])
        let a = Self.misfit("orders", "total", "a", "/total")
        #expect(fixed.columns == TypedTableWrite(misfits: 0, firstMisfit: a))
        #expect(
            try rows(fixture, "SELECT misfit_table, misfit_column, misfit_key, misfit_pointer FROM typed_tables")
                == ["orders|total|a|/total"])
        #expect(try rows(fixture, "SELECT status FROM orders WHERE key = 'b'") == ["paid"])
        // a is deleted: none is left; the rows of a are gone from both tables.
        let deleted = try await apply(store, "orders", [.delete(key: "a")])
        #expect(deleted.columns == TypedTableWrite(misfits: 0, firstMisfit: nil))
        #expect(try rows(fixture, "SELECT count(*) FROM orders__line_items WHERE key = 'a'") == ["0"])
        #expect(try rows(fixture, "SELECT key FROM orders ORDER BY key") == ["b", "c"])
        #expect(try rows(fixture, "SELECT count(*) FROM typed_tables WHERE misfit_key IS NULL") == ["1"])

        // A resource with no table says nothing of one.
        let other = try await apply(store, "users", [.upsert(StagedRecord(key: "u", data: "{}"))])
        #expect(other.columns == nil)
        #expect(try await sync(store, "groups", [("g", "{}")]).columns == nil)
        // The same declaration again rebuilds nothing, and tells the table's first misfit.
        let again = try await store.declareTables([Self.orders()])
        #expect(again == TableDeclarations())
    }

    @Test func theScanForAMisfitLeftReadsOnlyTheRecordsWhoseRowsHoldANull() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        let items = #"[{"sku": "s", "quantity": 1}]"#
        try await sync(
            store, "orders",
            [
                ("b", #"{"status": 5, "customer": {"email": "b@x"}, "line_items": \#(items)}"#),
                ("c", Self.fitting.replacingOccurrences(of: "12.5", with: "\"12\"")),
                ("d", #"{"customer": {"email": "d@x"}, "line_items": [{"sku": "s"}, {"quantity": "many"}]}"#),
                ("e", #"{"customer": {"email": "e@x"}, "line_items": "none"}"#),
            ])
        #expect(
            try await store.declareTables([Self.orders()]).misfits == [
                "orders": Self.misfit("orders", "status", "b", "/status")
            ])
        // c's one NULL is given a value by hand: the scan cannot find c's misfit, since it reads no row
        // without a NULL.
        _ = try fixture.query("UPDATE orders SET total = 1 WHERE key = 'c'")

        // b fits now: the first left is e's list that is no list (e has no child rows), not c's total.
        let fitting = #"{"customer": {"email": "x@x"}, "line_items": \#(items)}"#
        let b = try await apply(store, "orders", [.upsert(StagedRecord(key: "b", data: fitting))])
        #expect(
            b.columns
                == TypedTableWrite(misfits: 0, firstMisfit: Self.misfit("orders", "line_items", "e", "/line_items")))
        // e fits now: then d's element (a child row with a NULL).
        let e = try await apply(store, "orders", [.upsert(StagedRecord(key: "e", data: fitting))])
        let d = Self.misfit("orders__line_items", "quantity", "d", "/line_items/1/quantity")
        #expect(e.columns == TypedTableWrite(misfits: 0, firstMisfit: d))
        // d is gone: none is found, c's row holding no NULL.
        let gone = try await apply(store, "orders", [.delete(key: "d")])
        #expect(gone.columns == TypedTableWrite(misfits: 0, firstMisfit: nil))
        #expect(try rows(fixture, "SELECT count(*) FROM typed_tables WHERE misfit_key IS NULL") == ["1"])
    }

    @Test func aChangedDeclarationIsRebuiltFromTheRecordsAndOneNoLongerDeclaredIsDropped() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        try await sync(store, "orders", [("a", Self.fitting), ("b", Self.misfitting)])
        // Declared after the records came: made from them, without a sync.
        let made = try await store.declareTables([Self.orders()])
        #expect(made.rebuilt == ["orders"])
        #expect(made.misfits == ["orders": Self.misfit("orders", "status", "b", "/status")])
        #expect(try rows(fixture, "SELECT key, status FROM orders ORDER BY key") == ["a|paid", "b|"])

        // Now total is text, the list is gone, and the customer's email is an indexed column that may be absent.
        var changed = Self.orders()
        changed.columns = [
            Self.column("total", "total", .text), Self.column("email", "customer/email", .text, indexed: true),
        ]
        changed.lists = []
        let rebuilt = try await store.declareTables([changed])
        #expect(rebuilt.rebuilt == ["orders"])
        #expect(rebuilt.misfits == ["orders": Self.misfit("orders", "total", "a", "/total")])
        #expect(
            try rows(fixture, "SELECT key, total, email FROM orders ORDER BY key") == ["a||a@example.com", "b|12|"])
        #expect(try rows(fixture, "SELECT to_regclass('orders__line_items') IS NULL") == ["t"])
        #expect(
            try rows(
                fixture,
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = 'orders' ORDER BY 1"
            )
                == ["orders.email", "orders_pkey"])
        // Later writes keep the new shape.
        let written = try await apply(
            store, "orders", [.upsert(StagedRecord(key: "c", data: #"{"total": "9", "customer": {"email": "x"}}"#))])
        #expect(written.columns?.misfits == 0)
        #expect(try rows(fixture, "SELECT total, email FROM orders WHERE key = 'c'") == ["9|x"])

        // A table dropped by hand is made again.
        _ = try fixture.query("DROP TABLE orders")
        #expect(try await store.declareTables([changed]).rebuilt == ["orders"])
        #expect(try rows(fixture, "SELECT count(*) FROM orders") == ["3"])

        // No longer declared: the tables and the catalog's row go; the records stay.
        let dropped = try await store.declareTables([])
        #expect(dropped == TableDeclarations(dropped: ["orders"]))
        #expect(try rows(fixture, "SELECT to_regclass('orders') IS NULL, count(*) FROM typed_tables") == ["t|0"])
        #expect(try await store.records(of: "orders").count == 3)
        #expect(try await apply(store, "orders", [.delete(key: "c")]).columns == nil)
    }

    @Test func anAgentOfAFleetKeepsTheTablesAnotherDeclaredWithTheirDeclaration() async throws {
        let (first, second, cluster, schema) = try await LeaseTests.twoAgents()
        try await first.declareTables([Self.orders()])
        #expect(try await second.declareTables([Self.orders()]) == TableDeclarations())
        let page = try await apply(second, "orders", [.upsert(StagedRecord(key: "b", data: Self.misfitting))])
        #expect(
            page.columns == TypedTableWrite(misfits: 7, firstMisfit: Self.misfit("orders", "status", "b", "/status")))
        let read = try cluster.psql("SELECT key, quantity FROM orders__line_items ORDER BY position", schema: schema)
        #expect(read == "b\t1\nb\t\n")
        // The first agent's declaration changes (the email goes): the second writes as the catalog now says.
        var changed = Self.orders()
        changed.columns.removeLast()
        #expect(try await first.declareTables([changed]).rebuilt == ["orders"])
        let next = try await apply(second, "orders", [.upsert(StagedRecord(key: "c", data: "{}"))])
        #expect(next.columns?.misfits == 0)
        #expect(try cluster.psql("SELECT count(*) FROM orders", schema: schema) == "2\n")
    }

    @Test func aTableTheAgentDidNotMakeIsNeitherReplacedNorDroppedAndTheOtherResourcesGetTheirs() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        try await store.declareTables([Self.orders("old")])
        _ = try fixture.query("CREATE TABLE orders (mine text); INSERT INTO orders VALUES ('kept')")
        try await sync(store, "users", [("u", Self.fitting)])
        let declared = try await store.declareTables([Self.orders(), Self.orders("users")])
        #expect(declared.failed.keys.sorted() == ["orders"])
        #expect(declared.failed["orders"]?.contains("holds a table \"orders\" the agent did not make") == true)
        // The resource after it got its tables, and the one no longer declared lost its.
        #expect(declared.rebuilt == ["users"] && declared.dropped == ["old"])
        #expect(try rows(fixture, "SELECT key, status FROM users") == ["u|paid"])
        #expect(try rows(fixture, "SELECT resource FROM typed_tables") == ["users"])
        #expect(try rows(fixture, "SELECT to_regclass('old') IS NULL") == ["t"])
        // Writes of orders keep no table; the other program's is as it was.
        #expect(try await apply(store, "orders", [.upsert(StagedRecord(key: "a", data: Self.fitting))]).columns == nil)
        #expect(try await store.declareTables([]) == TableDeclarations(dropped: ["users"]))
        #expect(try rows(fixture, "SELECT mine FROM orders") == ["kept"])
    }

    @Test func everyNameAndPointerIsQuoted() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        let hostile = #"x"; DROP TABLE records; --"#
        let table = TypedTable(
            resource: "my-orders",
            columns: [
                TypedColumn(
                    name: "Select", pointer: "/it's", tokens: ["it's"], type: .text, indexed: true),
                TypedColumn(name: hostile, pointer: "/a\\b", tokens: [#"a\b"#], type: .integer),
            ],
            lists: [
                ChildTable(
                    name: "line-items", pointer: "/items", tokens: ["items"],
                    columns: [TypedColumn(name: "index", pointer: "", tokens: [], type: .integer, indexed: true)])
            ])
        let declared = try await store.declareTables([table])
        #expect(declared.rebuilt == ["my-orders"])
        let recorded = try await sync(store, "my-orders", [("k'1", #"{"it's": "yes", "a\\b": 7, "items": [4, "x"]}"#)])
        #expect(recorded.columns?.firstMisfit == Self.misfit("my-orders__line-items", "index", "k'1", "/items/1"))
        #expect(
            try rows(
                fixture,
                #"SELECT key, "Select", "\#(hostile.replacingOccurrences(of: "\"", with: "\"\""))" FROM "my-orders""#)
                == ["k'1|yes|7"])
        #expect(try rows(fixture, #"SELECT position, index FROM "my-orders__line-items" ORDER BY 1"#) == ["0|4", "1|"])
        #expect(try rows(fixture, "SELECT count(*) FROM records") == ["1"])
        #expect(try await store.declareTables([]).dropped == ["my-orders"])
        #expect(try rows(fixture, #"SELECT to_regclass('"my-orders"') IS NULL"#) == ["t"])
    }

    @Test func aReaderInPsqlSeesNativeTypesNullsAChildTableToJoinAndAnIndexUsed() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        try await store.declareTables([Self.orders()])
        var records = (0..<300).map { index in
            (
                String(format: "o%03d", index),
                Self.fitting.replacingOccurrences(of: #""status": "paid""#, with: #""status": "s\#(index % 7)""#)
            )
        }
        records.append(("bad", Self.misfitting))
        try await sync(store, "orders", records)

        // \d: the declared types, as PostgreSQL names them.
        let described = try fixture.query(#"\d orders"#)
        for type in ["text", "double precision", "bigint", "boolean", "timestamp with time zone", "jsonb"] {
            #expect(described.contains("\t\(type)\t"), "\(type) in \(described)")
        }
        // A misfit is NULL; the record keeps its value.
        #expect(
            try rows(
                fixture,
                "SELECT quantity IS NULL, (SELECT data->>'quantity' FROM records WHERE key = 'bad') "
                    + "FROM orders WHERE key = 'bad'") == ["t|1.5"])
        // The child table joined to its parent.
        #expect(
            try rows(
                fixture,
                """
                SELECT o.status, count(*), sum(i.quantity) FROM orders AS o JOIN orders__line_items AS i USING (key)
                WHERE o.placed_at < timestamptz '2024-02-01' AND o.paid GROUP BY o.status ORDER BY o.status
                """) == (0..<7).map { "s\($0)|\($0 < 6 ? 86 : 84)|\($0 < 6 ? 129 : 126)" })
        // The index serves a query on its column.
        let plan = try fixture.query(
            "SET enable_seqscan = off; EXPLAIN SELECT key, total FROM orders WHERE status = 's3'")
        #expect(plan.contains("\"orders.status\""), "\(plan)")
        let childPlan = try fixture.query(
            "SET enable_seqscan = off; EXPLAIN SELECT key FROM orders__line_items WHERE quantity = 2")
        #expect(childPlan.contains("\"orders__line_items.quantity\""), "\(childPlan)")
    }
}
