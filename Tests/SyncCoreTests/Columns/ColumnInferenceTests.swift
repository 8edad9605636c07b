import Store
import Testing

@testable import SyncCore

/// The declaration inferred from `records` (JSON texts) of `resource`.
func inferColumns(_ records: [String], resource: String = "orders", otherTables: Set<String> = []) -> InferredColumns {
    var inference = ColumnInference(resource: resource, otherTables: otherTables)
    for record in records { inference.add(data: record) }
    return inference.result
}

@Suite(.timeLimit(.minutes(1))) struct ColumnInferenceTests {
    @Test func eachMembersTypeFitsEveryValueAndNullableFalseMarksMembersEveryRecordHolds() {
        let inferred = inferColumns([
            #"{"id": 1, "status": "paid", "total": 10, "placed_at": "2026-11-20T10:00:00Z", "paid": true, "note": "gift"}"#,
            #"{"id": 2, "status": "open", "total": 12.5, "placed_at": "2026-11-21T08:30:00.250+01:00", "paid": false}"#,
            #"{"id": 3.0, "status": "open", "total": 3, "placed_at": "2026-11-22T08:30:00", "paid": null, "note": null}"#,
        ])
        #expect(
            inferred.declarationText == #"""
                "columns": [
                  {"name": "id", "pointer": "/id", "type": "integer", "nullable": false},
                  {"name": "status", "pointer": "/status", "type": "text", "nullable": false},
                  {"name": "total", "pointer": "/total", "type": "real", "nullable": false},
                  {"name": "placed_at", "pointer": "/placed_at", "type": "timestamp", "nullable": false},
                  {"name": "paid", "pointer": "/paid", "type": "boolean"},
                  {"name": "note", "pointer": "/note", "type": "text"}
                ]
                """#)
        #expect(inferred.notes.isEmpty)
        #expect(inferred.summary == "inferred from 3 records of orders")
    }

    @Test func oneStringThatIsNoDateTimeMakesTextAndANumberBeyond64BitsMakesReal() {
        let inferred = inferColumns([
            #"{"at": "2026-11-20T10:00:00Z", "count": 1}"#, #"{"at": "2026-11-20", "count": 1180591620717411303424}"#,
        ])
        #expect(types(inferred) == ["at": .text, "count": .real])
    }

    @Test func valuesOfTwoKindsMakeJSONWithANoteSayingWhichAndHowOften() {
        let inferred = inferColumns([
            #"{"code": "A1", "extra": {"a": 1}}"#, #"{"code": 7, "extra": "none"}"#, #"{"code": "B2", "extra": [1]}"#,
            #"{"code": null}"#,
        ])
        #expect(
            inferred.entries == [
                .column(.init(name: "code", pointer: "/code", type: .json)),
                .column(.init(name: "extra", pointer: "/extra", type: .json)),
            ])
        #expect(
            inferred.notes == [
                .init(pointer: "/code", message: "holds a string in 2 records and a number in 1: declared json"),
                .init(
                    pointer: "/extra",
                    message: "holds a string in 1 record, an object in 1 and an array in 1: declared json"),
            ])
    }

    @Test func aMemberOnlyEverNullIsJSONWithANote() {
        let inferred = inferColumns([#"{"id": 1, "legacy": null}"#, #"{"id": 2}"#, #"{"id": 3, "legacy": null}"#])
        #expect(inferred.entries.last == .column(.init(name: "legacy", pointer: "/legacy", type: .json)))
        #expect(
            inferred.notes == [.init(pointer: "/legacy", message: "only ever null (in 2 of 3 records): declared json")])
    }

    @Test func nestedObjectsAreFlattenedThreeMembersDeepAndDeeperOnesAreJSON() {
        let inferred = inferColumns([
            #"{"customer": {"email": "a@x", "name": "Ann", "address": {"city": "Oslo", "geo": {"lat": 1.5}}}}"#,
            #"{"customer": {"email": "b@x", "address": {"city": "Rome", "geo": {"lat": 2}}}}"#,
            #"{"customer": {"email": "c@x", "address": null}}"#,
        ])
        #expect(
            inferred.entries == [
                .column(.init(name: "customer_email", pointer: "/customer/email", type: .text, nullable: false)),
                .column(.init(name: "customer_name", pointer: "/customer/name", type: .text)),
                .column(.init(name: "customer_address_city", pointer: "/customer/address/city", type: .text)),
                .column(.init(name: "customer_address_geo", pointer: "/customer/address/geo", type: .json)),
            ])
        #expect(inferred.notes.isEmpty)
    }

    @Test func anArrayOfObjectsIsANestedListWhoseElementsAreInferredTheSameWay() {
        let inferred = inferColumns([
            #"{"id": 1, "line_items": [{"sku": "a", "quantity": 2, "price": 1.5, "key": "k", "position": 1}], "tags": ["x"]}"#,
            #"{"id": 2, "line_items": [{"sku": "b", "quantity": 1, "options": {"gift": true}}, {"sku": "c", "quantity": 3, "parts": [{"n": 1}]}]}"#,
            #"{"id": 3, "line_items": []}"#,
        ])
        #expect(
            inferred.entries == [
                .column(.init(name: "id", pointer: "/id", type: .integer, nullable: false)),
                .list(
                    .init(
                        name: "line_items", pointer: "/line_items",
                        columns: [
                            .init(name: "sku", pointer: "/sku", type: .text, nullable: false),
                            .init(name: "quantity", pointer: "/quantity", type: .integer, nullable: false),
                            .init(name: "price", pointer: "/price", type: .real),
                            .init(name: "key_", pointer: "/key", type: .text),
                            .init(name: "position_", pointer: "/position", type: .integer),
                            .init(name: "options_gift", pointer: "/options/gift", type: .boolean),
                            .init(name: "parts", pointer: "/parts", type: .json),
                        ])),
                .column(.init(name: "tags", pointer: "/tags", type: .json)),
            ])
        #expect(
            inferred.notes == [
                .init(
                    pointer: "/line_items/*/parts",
                    message: "a list in a list's elements: declared json (lists nest one level)")
            ])
        let text = inferred.declarationText ?? ""
        #expect(
            text.contains(
                #"""
                  {"name": "line_items", "pointer": "/line_items", "columns": [
                    {"name": "sku", "pointer": "/sku", "type": "text", "nullable": false},
                """#))
        #expect(text.contains(#"    {"name": "parts", "pointer": "/parts", "type": "json"}]},"#))
    }

    @Test func arraysThatAreNeverAListAreJSON() {
        let inferred = inferColumns([#"{"empty": [], "mixed": [{"a": 1}, 2], "holes": [{"a": 1}, null]}"#])
        #expect(types(inferred) == ["empty": .json, "mixed": .json])
        #expect(
            inferred.entries.last
                == .list(
                    .init(name: "holes", pointer: "/holes", columns: [.init(name: "a", pointer: "/a", type: .integer)]))
        )
        #expect(
            inferred.notes == [
                .init(pointer: "/empty", message: "only ever an empty array: declared json"),
                .init(pointer: "/mixed", message: "holds arrays of objects mixed with other values: declared json"),
            ])
    }

    @Test func namesAreSnakeCaseValidDistinctAndNeverTheTablesOwn() {
        let inferred = inferColumns([
            #"{"emailAddress": 1, "email_address": 2, "HTTPStatus": 3, "order": 4, "key": 5, "updatedAt": 6, "2fa": 7, "_id": 8, "Größe": 9, "a\"b": 10, "xmin": 11, "ctid": 12, "tableoid": 13, "system_user": 14, "a\u0000b": 15, "c\u001b[1m": 16, "01": 17, "-1": 18, "0": 19, "2024": 20, "x/y": 21}"#
        ])
        #expect(
            inferred.entries.map(\.name) == [
                "email_address", "email_address_2", "http_status", "order_", "key_", "updated_at_", "_2fa", "id",
                "grosse", "xmin_", "ctid_", "tableoid_", "system_user_", "_0", "_2024", "x_y",
            ])
        #expect(inferred.entries.last == .column(.init(name: "x_y", pointer: "/x~1y", type: .integer, nullable: false)))
        // Written to a terminal, a control character is shown, not sent.
        #expect(
            inferred.notes[1].line
                == #"note: /a\u{0}b: its name holds a control character, which no declared pointer may: left out"#)
        #expect(
            inferred.notes == [
                .init(
                    pointer: "/a\"b", message: "its name holds a double quote, which no declared pointer may: left out"),
                .init(
                    pointer: "/a\u{0}b",
                    message: "its name holds a control character, which no declared pointer may: left out"),
                .init(
                    pointer: "/c\u{1b}[1m",
                    message: "its name holds a control character, which no declared pointer may: left out"),
                .init(
                    pointer: "/01",
                    message:
                        "its name is a number with a leading zero or a minus sign, which the stores read differently in a pointer: left out"
                ),
                .init(
                    pointer: "/-1",
                    message:
                        "its name is a number with a leading zero or a minus sign, which the stores read differently in a pointer: left out"
                ),
            ])
    }

    @Test func aLongNameIsCutTo63BytesAndAListsNameLeavesRoomForItsTable() {
        let long = String(repeating: "a", count: 70)
        let inferred = inferColumns(
            [#"{"\#(long)": 1, "\#(long)b": 2, "items": [{"x": 1}], "other": [{"y": 1}]}"#],
            resource: String(repeating: "r", count: 55), otherTables: [String(repeating: "r", count: 55) + "__other"])
        #expect(
            inferred.entries.map(\.name) == [
                String(repeating: "a", count: 63), String(repeating: "a", count: 61) + "_2", "items", "othe_2",
            ])
        let tooLong = inferColumns([#"{"items": [{"x": 1}]}"#], resource: String(repeating: "r", count: 62))
        #expect(tooLong.entries == [.column(.init(name: "items", pointer: "/items", type: .json, nullable: false))])
        #expect(tooLong.notes.map(\.pointer) == ["/items"])
    }

    @Test func aResourceNameNoTableCanTakeIsNoted() {
        let inferred = inferColumns([#"{"id": 1}"#], resource: "my-orders")
        #expect(inferred.notes.map(\.pointer) == [""])
        #expect(
            inferred.notes.first?.message.hasPrefix(#"the table takes the resource's name, and "my-orders" is not"#)
                == true)
    }

    @Test func noRecordsMakeNoDeclarationToPasteAndSayToSyncFirst() {
        let inferred = inferColumns([])
        // "columns": [] is no declaration the configuration takes: nothing to paste.
        #expect(inferred.declarationText == nil)
        #expect(
            inferred.json.serialized()
                == #"{"resource":"orders","records":0,"columns":[],"notes":[{"pointer":"","message":"no records of orders are stored yet: run `sync-agent refresh orders` first"}]}"#
        )
        #expect(inferColumns([#"{"a\"b": 1}"#, "[]"]).declarationText == nil)
        #expect(
            inferred.notes == [
                .init(
                    pointer: "", message: "no records of orders are stored yet: run `sync-agent refresh orders` first")
            ])
        #expect(inferred.summary == "inferred from 0 records of orders")
    }

    @Test func recordsThatAreNotObjectsAreCountedAndAllowNoNullableFalse() {
        let inferred = inferColumns([#"{"id": 1}"#, #"[1, 2]"#, "not json"])
        #expect(inferred.entries == [.column(.init(name: "id", pointer: "/id", type: .integer))])
        #expect(inferred.notes == [.init(pointer: "", message: "2 records are not a JSON object, with no members")])
    }

    @Test func anObjectWithTooManyDifferentMembersIsAMapKeptAsJSON() {
        let records = (1...150).map { #"{"id": \#($0), "by_user": {"u\#($0)": \#($0)}, "meta": {"n": \#($0)}}"# }
        let inferred = inferColumns(records)
        #expect(inferred.entries.map(\.name) == ["id", "by_user", "meta_n"])
        #expect(types(inferred)["by_user"] == .json)
        #expect(
            inferred.notes == [
                .init(pointer: "/by_user", message: "holds more than 100 different members, like a map: declared json")
            ])
    }

    @Test func aTableDeclaresAtMost500ColumnsAndTracksAtMostAThousandMembers() {
        let records = (0..<12).map { part in
            "{" + (0..<100).map { #""m\#(part * 100 + $0)": 1"# }.joined(separator: ", ") + "}"
        }
        let inferred = inferColumns(records)
        #expect(inferred.entries.map(\.name) == (0..<500).map { "m\($0)" })
        #expect(
            inferred.notes == [
                .init(pointer: "", message: ColumnInference.overflowMessage),
                .init(
                    pointer: "",
                    message:
                        "500 more members are left out: at most 500 columns per table; declare the rest as one json column"
                ),
            ])
        // A nested list's table has its own 500; its list is no column of the parent.
        let members = (0..<501).map { #""e\#($0)": 1"# }.joined(separator: ", ")
        let listed = inferColumns([
            "{" + (0..<500).map { #""p\#($0)": 1"# }.joined(separator: ", ") + #", "items": [{\#(members)}]}"#
        ])
        #expect(listed.entries.count == 501)
        guard case .list(let list) = listed.entries.last else {
            Issue.record("no list: \(listed.entries.last.map(\.name) ?? "")")
            return
        }
        #expect(list.columns.count == 500 && list.columns.last?.name == "e499")
        #expect(
            listed.notes == [
                .init(
                    pointer: "/items",
                    message:
                        "1 more member is left out: at most 500 columns per table; declare the rest as one json column")
            ])
        // The declaration pastes.
        let config = try? decodeConfig(
            #"{"resources": [\#(resource("orders", #""items": "/data", "# + (listed.declarationText ?? "")))]}"#)
        #expect(config?.resources[0].table?.lists.first?.columns.count == 500)
    }

    @Test func aNameRepeatedInOneObjectCountsOnce() {
        let inferred = inferColumns([#"{"a": 1, "a": "x"}"#, #"{"a": 2}"#])
        #expect(inferred.entries == [.column(.init(name: "a", pointer: "/a", type: .integer, nullable: false))])
    }

    @Test func theJSONFormHoldsTheDeclarationAndTheNotes() {
        let inferred = inferColumns([#"{"id": 1, "v": 1}"#, #"{"id": 2, "v": "x"}"#])
        #expect(
            inferred.json.serialized()
                == #"{"resource":"orders","records":2,"columns":[{"name":"id","pointer":"/id","type":"integer","nullable":false},{"name":"v","pointer":"/v","type":"json","nullable":false}],"notes":[{"pointer":"/v","message":"holds a string in 1 record and a number in 1: declared json"}]}"#
        )
    }

    @Test func theDeclarationPastedIntoTheResourceIsValidAndDeclaresWhatItShows() throws {
        let inferred = inferColumns([
            #"{"id": 1, "order": "a", "key": "k", "updatedAt": "2026-11-20T10:00:00Z", "customer": {"e-mail": "x", "tags": [1]}, "line_items": [{"sku": "a", "position": 1, "key": 2}], "by": {"the": {"way": {"deep": 1}}}, "code": 1}"#,
            #"{"id": 2, "order": "b", "code": "x", "nothing": null, "line_items": [{"sku": "b", "sub": [{"z": 1}]}]}"#,
            #"{"id": 3, "xmin": 1.5, "stats": {"2024": 1, "01": 2, "-1": 3, "a\u0000": 4}, "line_items": [{"ctid": "x", "07": 1}]}"#,
        ])
        let declaration = try #require(inferred.declarationText)
        let config = try decodeConfig(
            #"{"resources": [\#(resource("orders", #""items": "/data", "# + declaration))]}"#)
        let table = try #require(config.resource(named: "orders")?.table)
        let columns = inferred.entries.compactMap { entry -> String? in
            guard case .column(let column) = entry else { return nil }
            return column.name
        }
        #expect(table.columns.map(\.name) == columns)
        #expect(columns.contains("by_the_way") && columns.contains("updated_at_") && columns.contains("order_"))
        #expect(columns.contains("xmin_") && columns.contains("stats_2024") && !columns.contains("stats_01"))
        #expect(table.columns.map(\.pointer).contains("/customer/e-mail"))
        #expect(table.lists.map(\.name) == ["line_items"])
        #expect(table.lists.first?.columns.map(\.name) == ["sku", "position_", "key_", "sub", "ctid_"])
        #expect(table.columns.first { $0.name == "id" }?.nullable == false)
    }

    /// Each column's type, by name.
    private func types(_ inferred: InferredColumns) -> [String: ColumnType] {
        var types: [String: ColumnType] = [:]
        for entry in inferred.entries {
            if case .column(let column) = entry { types[column.name] = column.type }
        }
        return types
    }
}

extension InferredColumns.Entry {
    /// The entry's name, whether a column's or a list's.
    fileprivate var name: String {
        switch self {
        case .column(let column): column.name
        case .list(let list): list.name
        }
    }
}

@Suite struct ColumnNamingTests {
    @Test(arguments: [
        ("emailAddress", "email_address"), ("Email-Address", "email_address"), ("email address", "email_address"),
        ("HTTPStatus", "http_status"), ("line1Text", "line1_text"), ("_id", "id"), ("__a__b__", "a_b"),
        ("Größe", "grosse"), ("café", "cafe"), ("日本", ""), ("userID", "user_id"),
    ])
    func snakeCase(_ name: String, _ expected: String) {
        #expect(ColumnNaming.snakeCase(name) == expected)
    }

    @Test func aNameWithNoLettersLeftIsColumnAndOneStartingWithADigitGetsAnUnderscore() {
        #expect(ColumnNaming.base(of: ["日本"]) == "column")
        #expect(ColumnNaming.base(of: ["2fa"]) == "_2fa")
        #expect(ColumnNaming.base(of: ["a", "日本", "b"]) == "a_b")
    }
}

@Suite struct DateTimeTextTests {
    @Test(arguments: [
        "2026-11-21T10:00:00Z", "2026-11-21T10:00:00.123Z", "2026-11-21T10:00:00+01:00", "2026-11-21T10:00:00-05:30",
        "2026-11-21T10:00:00", "2026-11-21T10:00:00.123456789",
        // Leap days, the first year, the widest offsets and the last millisecond both stores read.
        "2024-02-29T10:00:00Z", "2000-02-29T10:00:00Z", "2026-04-30T10:00:00Z", "0001-01-01T00:00:00+14:00",
        "2026-11-21T10:00:00+14:59", "2026-11-21T10:00:00-14:59", "9999-12-31T23:59:59.999Z",
        "9999-12-31T09:59:59-14:00", "9999-12-30T23:00:00-14:00",
    ])
    func aDateTime(_ text: String) {
        #expect(DateTimeText.isDateTime(text))
    }

    @Test(arguments: [
        "2026-11-21", "10:00:00", "1790000000", "2026-11-21 10:00:00Z", "2026-13-21T10:00:00Z",
        "2026-11-21T24:00:00Z", "2026-11-21T10:00Z", "2026-11-21T10:00:00.Z", "2026-11-21T10:00:00+1", "tomorrow",
        "2026-11-21T10:00:00ZZ", "2026-11-21T10:00:00+25:00",
        // SQLite's date functions read neither an offset without its colon nor a leap second.
        "2026-11-21T10:00:00-0530", "2016-12-31T23:59:60Z",
        // PostgreSQL reads no year 0 nor a day the month lacks (SQLite does); SQLite no offset
        // beyond 14:59 nor a time past 9999-12-31T23:59:59.999Z.
        "0000-06-01T10:00:00Z", "2023-02-29T10:00:00Z", "1900-02-29T10:00:00Z", "2026-04-31T10:00:00Z",
        "2026-11-00T10:00:00Z", "2026-11-21T10:00:00+15:00", "2026-11-21T10:00:00-15:00",
        "9999-12-31T10:00:00-14:00", "9999-12-31T23:59:59.9995Z", "9999-12-31T23:59:59-00:01",
    ])
    func notADateTime(_ text: String) {
        #expect(!DateTimeText.isDateTime(text))
    }
}
