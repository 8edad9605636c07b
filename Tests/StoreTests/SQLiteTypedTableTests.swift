import Foundation
import Testing

@testable import Store

/// Typed tables in the SQLite store (docs/schema.md#typed-tables), read back
/// with the real `sqlite3` shell, as a reader would.
@Suite(.timeLimit(.minutes(1))) struct SQLiteTypedTableTests {
    static func column(
        _ name: String, _ pointer: String, _ type: ColumnType, nullable: Bool = true, indexed: Bool = false
    ) -> TypedColumn {
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        return TypedColumn(
            name: name, pointer: pointer, tokens: tokens, type: type, nullable: nullable, indexed: indexed)
    }

    let orders = TypedTable(
        resource: "orders",
        columns: [
            column("number", "/number", .text, indexed: true),
            column("quantity", "/quantity", .integer),
            column("total", "/total", .real),
            column("paid", "/paid", .boolean),
            column("created_at", "/created_at", .timestamp),
            column("customer", "/customer", .json),
            column("email", "/customer/email", .text, nullable: false),
        ],
        lists: [
            ChildTable(
                name: "line_items", pointer: "/line_items", tokens: ["line_items"],
                columns: [column("sku", "/sku", .text), column("qty", "/qty", .integer)])
        ])

    /// A record of `orders`, every member fitting its column.
    static func order(
        _ number: String, quantity: String = "2", created: String = #""2026-11-27T10:00:00+01:00""#
    )
        -> String
    {
        """
        {"number":"\(number)","quantity":\(quantity),"total":12.5,"paid":true,"created_at":\(created),\
        "customer":{"email":"\(number)@example.com","vip":false},\
        "line_items":[{"sku":"A","qty":1},{"sku":"B","qty":"many"}]}
        """
    }

    @discardableResult
    func sync(
        _ fixture: StoreFixture, _ resource: String, _ records: [(String, String)]
    ) async throws
        -> RecordedSync
    {
        let snapshot = try await fixture.store.beginSnapshot(of: resource)
        try await snapshot.stage(records.map { StagedRecord(key: $0.0, data: $0.1) })
        return try await fixture.store.record(
            FinishedSync(
                resource: resource, trigger: .refresh, startedAt: Date(), outcome: .success, state: .idle,
                pages: 1, items: records.count),
            snapshot: snapshot)
    }

    @Test func eachTypeIsReadFromItsMemberAndAMisfitIsNull() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        let recorded = try await sync(
            fixture, "orders",
            [
                ("1", Self.order("A-1")),
                ("2", Self.order("A-2", quantity: "2.0", created: "1800000000")),
                ("3", #"{"number":7,"quantity":1.5,"total":"x","paid":1,"created_at":"soon","customer":null}"#),
                ("4", #"{"number":"A-4","quantity":99999999999999999999,"created_at":"12345"}"#),
                ("5", #"{"number":"A-5","created_at":"2026-02-30T10:00:00Z","customer":{"email":"e"}}"#),
            ])
        let rows = try fixture.query(
            """
            SELECT key, quote(number), quote(quantity), quote(total), quote(paid), quote(created_at),
                   quote(customer), quote(email), updated_at IS NOT NULL FROM orders ORDER BY key
            """)
        #expect(
            rows == """
                1\t'A-1'\t2\t12.5\t1\t'2026-11-27T09:00:00.000Z'\t'{"email":"A-1@example.com","vip":false}'\t'A-1@example.com'\t1
                2\t'A-2'\t2\t12.5\t1\t'2027-01-15T08:00:00.000Z'\t'{"email":"A-2@example.com","vip":false}'\t'A-2@example.com'\t1
                3\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\t1
                4\t'A-4'\tNULL\tNULL\tNULL\tNULL\tNULL\tNULL\t1
                5\t'A-5'\tNULL\tNULL\tNULL\tNULL\t'{"email":"e"}'\t'e'\t1

                """)
        // Record 3: number, quantity, total, paid, created_at and (not nullable) email; record 4:
        // quantity, created_at, email; two "many" in line_items.
        // Record 5: a day February does not have.
        #expect(recorded.columns?.misfits == 6 + 3 + 2 + 1)
        // The first record (in key order) with a misfit of its own columns, its first column.
        #expect(
            recorded.columns?.firstMisfit
                == ColumnMisfit(table: "orders", column: "number", key: "3", pointer: "/number"))
        #expect(
            try fixture.query("SELECT typeof(quantity), typeof(total) FROM orders WHERE key = '1'") == "integer\treal\n"
        )
    }

    @Test func aTableHoldsItsResourcesRecordsAloneAndAWriteReadsOnlyWhatItChanged() async throws {
        let fixture = try StoreFixture()
        try await sync(fixture, "users", [("1", #"{"number":"U-1"}"#), ("9", #"{"number":"U-9"}"#)])
        try await fixture.store.declareTables([orders])
        try await sync(fixture, "orders", [("1", Self.order("A-1")), ("2", Self.order("A-2"))])
        try await sync(fixture, "users", [("1", #"{"number":"U-1"}"#), ("7", #"{"number":"U-7"}"#)])
        #expect(try fixture.query("SELECT key, number FROM orders ORDER BY key") == "1\tA-1\n2\tA-2\n")
        // A row changed by hand stays as it is until its record changes: writes rewrite only their changes.
        _ = try fixture.query("UPDATE orders SET number = 'by hand' WHERE key = '1'")
        try await sync(fixture, "orders", [("1", Self.order("A-1")), ("2", Self.order("A-2b"))])
        #expect(try fixture.query("SELECT key, number FROM orders ORDER BY key") == "1\tby hand\n2\tA-2b\n")
        // A rebuild reads this resource's records alone.
        try await fixture.store.declareTables([
            TypedTable(resource: "orders", columns: [Self.column("n", "/number", .text)])
        ])
        #expect(try fixture.query("SELECT key, n FROM orders ORDER BY key") == "1\tA-1\n2\tA-2b\n")
    }

    @Test func aNestedListIsAChildTableJoinedByKey() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        try await sync(fixture, "orders", [("1", Self.order("A-1")), ("2", #"{"number":"A-2","line_items":[]}"#)])
        let rows = try fixture.query(
            """
            SELECT o.number, li.position, li.sku, quote(li.qty) FROM orders AS o
            JOIN orders__line_items AS li USING (key) ORDER BY o.key, li.position
            """)
        #expect(rows == "A-1\t0\tA\t1\nA-1\t1\tB\tNULL\n")
    }

    @Test func aListThatIsNoArrayIsAMisfitAndAnEmptyOneIsNot() async throws {
        let fixture = try StoreFixture()
        let table = TypedTable(
            resource: "orders", columns: [],
            lists: [
                ChildTable(
                    name: "line_items", pointer: "/line_items", tokens: ["line_items"],
                    columns: [Self.column("sku", "/sku", .text)])
            ])
        try await fixture.store.declareTables([table])
        let recorded = try await sync(
            fixture, "orders",
            [("1", #"{"line_items":"none"}"#), ("2", #"{"line_items":[]}"#), ("3", #"{"line_items":null}"#)])
        #expect(
            recorded.columns
                == TypedTableWrite(
                    misfits: 1,
                    firstMisfit: ColumnMisfit(
                        table: "orders", column: "line_items", key: "1", pointer: "/line_items")))
        #expect(try fixture.query("SELECT count(*) FROM orders__line_items") == "0\n")
    }

    @Test func theFirstMisfitStaysUntilItsRecordFits() async throws {
        let fixture = try StoreFixture()
        let table = TypedTable(resource: "orders", columns: [Self.column("quantity", "/quantity", .integer)])
        try await fixture.store.declareTables([table])
        let first = try await sync(fixture, "orders", [("1", #"{"quantity":"x"}"#), ("2", #"{"quantity":2}"#)])
        let misfit = ColumnMisfit(table: "orders", column: "quantity", key: "1", pointer: "/quantity")
        #expect(first.columns == TypedTableWrite(misfits: 1, firstMisfit: misfit))
        // Another record changes: the misfit is still there, and still shown.
        let second = try await sync(fixture, "orders", [("1", #"{"quantity":"x"}"#), ("2", #"{"quantity":3}"#)])
        #expect(second.columns == TypedTableWrite(misfits: 0, firstMisfit: misfit))
        // Its record fits now.
        let third = try await sync(fixture, "orders", [("1", #"{"quantity":1}"#), ("2", #"{"quantity":3}"#)])
        #expect(third.columns == TypedTableWrite(misfits: 0, firstMisfit: nil))
        #expect(try fixture.query("SELECT key, quantity FROM orders ORDER BY key") == "1\t1\n2\t3\n")
    }

    @Test func incrementalPagesKeepTheTableAndDeletionsRemoveItsRows() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        try await sync(fixture, "orders", [("1", Self.order("A-1")), ("2", Self.order("A-2"))])
        let applied = try await fixture.store.applyPage(
            IncrementalPage(
                resource: "orders", scope: "",
                changes: [.upsert(StagedRecord(key: "3", data: Self.order("A-3"))), .delete(key: "1")],
                cursor: SyncCursor(request: "r"), run: nil, trigger: .poll, startedAt: Date()))
        #expect(applied.columns?.misfits == 1)
        #expect(try fixture.query("SELECT key, number FROM orders ORDER BY key") == "2\tA-2\n3\tA-3\n")
        #expect(try fixture.query("SELECT DISTINCT key FROM orders__line_items ORDER BY key") == "2\n3\n")
    }

    @Test func aChangedDeclarationRebuildsFromTheRecordsAndAnUndeclaredTableIsDropped() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        try await sync(fixture, "orders", [("1", Self.order("A-1"))])
        let narrower = TypedTable(resource: "orders", columns: [Self.column("paid", "/paid", .boolean, indexed: true)])
        let declared = try await fixture.store.declareTables([narrower])
        #expect(declared.rebuilt == ["orders"])
        #expect(try fixture.query("SELECT * FROM orders").hasPrefix("1\t1\t"))
        #expect(
            try fixture.query("SELECT name FROM sqlite_schema WHERE tbl_name LIKE 'orders%' ORDER BY name")
                == "orders\norders.paid\n")
        // The same declaration again changes nothing.
        #expect(try await fixture.store.declareTables([narrower]).rebuilt.isEmpty)
        let dropped = try await fixture.store.declareTables([])
        #expect(dropped.dropped == ["orders"])
        #expect(try fixture.query("SELECT count(*) FROM sqlite_schema WHERE tbl_name LIKE 'orders%'") == "0\n")
        #expect(try fixture.query("SELECT count(*) FROM records") == "1\n")
    }

    @Test func aTableTheAgentDidNotMakeIsNeverReplaced() async throws {
        let fixture = try StoreFixture()
        _ = try fixture.query("CREATE TABLE Orders (mine TEXT); INSERT INTO Orders VALUES ('keep me')")
        let declared = try await fixture.store.declareTables([orders])
        #expect(declared.failed["orders"]?.contains("the database already has a table named \"orders\"") == true)
        #expect(try fixture.query("SELECT mine FROM orders") == "keep me\n")
        // Its records are still written.
        let recorded = try await sync(fixture, "orders", [("1", Self.order("A-1"))])
        #expect(recorded.columns == nil)
    }

    @Test func aTableDroppedByHandIsMadeAgainByTheNextWrite() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        try await sync(fixture, "orders", [("1", Self.order("A-1"))])
        _ = try fixture.query("DROP TABLE orders__line_items")
        let recorded = try await sync(fixture, "orders", [("1", Self.order("A-1")), ("2", Self.order("A-2"))])
        #expect(recorded.columns?.misfits == 1)
        #expect(try fixture.query("SELECT DISTINCT key FROM orders__line_items ORDER BY key") == "1\n2\n")
        // So is one dropped while no agent ran, when the tables are declared.
        _ = try fixture.query("DROP TABLE orders")
        #expect(try await fixture.store.declareTables([orders]).rebuilt == ["orders"])
        #expect(try fixture.query("SELECT key FROM orders ORDER BY key") == "1\n2\n")
    }

    @Test func aDeclarationThatCannotBeMadeLeavesTheOldTablesKept() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        _ = try fixture.query("CREATE TABLE orders__notes (mine TEXT)")
        var wider = orders
        wider.lists.append(ChildTable(name: "notes", pointer: "/notes", tokens: ["notes"], columns: []))
        let declared = try await fixture.store.declareTables([wider])
        #expect(declared.failed["orders"]?.contains(#"a table named "orders__notes""#) == true)
        try await sync(fixture, "orders", [("1", Self.order("A-1"))])
        #expect(try fixture.query("SELECT key, number FROM orders") == "1\tA-1\n")
    }

    @Test func aTokenOfDigitsIsAnIndexInAnArrayAndANameInAnObject() async throws {
        let fixture = try StoreFixture()
        let table = TypedTable(
            resource: "stats",
            columns: [Self.column("y2024", "/by_year/2024", .integer), Self.column("second", "/tags/1", .text)],
            lists: [
                ChildTable(
                    name: "rows", pointer: "/rows", tokens: ["rows"], columns: [Self.column("first", "/0", .integer)])
            ])
        try await fixture.store.declareTables([table])
        try await sync(
            fixture, "stats",
            [
                ("1", #"{"by_year":{"2024":5},"tags":["a","b"],"rows":[[7,8],{"0":9}]}"#),
                ("2", #"{"by_year":[0,1],"tags":{"1":"one"}}"#),
            ])
        #expect(
            try fixture.query("SELECT key, quote(y2024), second FROM stats ORDER BY key") == "1\t5\tb\n2\tNULL\tone\n")
        #expect(try fixture.query("SELECT position, first FROM stats__rows ORDER BY position") == "0\t7\n1\t9\n")
    }

    @Test func aFirstSyncOfManyRecordsFillsTheTableAndItsIndexes() async throws {
        let fixture = try StoreFixture()
        try await fixture.store.declareTables([orders])
        let count = SQLiteStore.bulkWrite + 5
        let recorded = try await sync(fixture, "orders", (1...count).map { ("\($0)", Self.order("A-\($0)")) })
        #expect(recorded.columns?.misfits == count)
        #expect(try fixture.query("SELECT count(*), count(number) FROM orders") == "\(count)\t\(count)\n")
        #expect(try fixture.query("SELECT count(*) FROM orders__line_items") == "\(2 * count)\n")
        #expect(
            try fixture.query("EXPLAIN QUERY PLAN SELECT key FROM orders WHERE number = 'A-77'")
                .contains("USING COVERING INDEX orders.number (number=?)"))
    }

    @Test func namesAreQuoted() async throws {
        let fixture = try StoreFixture()
        let table = TypedTable(resource: "my-orders", columns: [Self.column("it's", "/a'b", .text, indexed: true)])
        try await fixture.store.declareTables([table])
        try await sync(fixture, "my-orders", [("1", #"{"a'b":"x"}"#)])
        #expect(try fixture.query(#"SELECT "it's" FROM "my-orders""#) == "x\n")
    }
}
