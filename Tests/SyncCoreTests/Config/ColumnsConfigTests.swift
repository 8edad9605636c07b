import Store
import Testing

@testable import SyncCore

/// `columns` as the configuration says it (docs/configuration.md#typed-columns).
@Suite struct ColumnsConfigTests {
    func problems(_ columns: String, name: String = "orders", more: [String] = []) -> [String] {
        configProblems(
            #"{"resources": [\#(([resource(name, #""columns": \#(columns)"#)] + more).joined(separator: ", "))]}"#)
    }

    @Test func aDeclarationLoadsWithItsListsTokensAndDefaults() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [\#(resource("orders", #"""
            "columns": [{"name": "total", "pointer": "/total", "type": "real", "indexed": true},
                        {"name": "email", "pointer": "/customer/e~1mail", "type": "text", "nullable": false},
                        {"name": "items", "pointer": "/line_items", "columns": [{"name": "tag", "pointer": "", "type": "text"}]}]
            """#))]}
            """#)
        #expect(
            config.resources[0].table
                == TypedTable(
                    resource: "orders",
                    columns: [
                        TypedColumn(name: "total", pointer: "/total", tokens: ["total"], type: .real, indexed: true),
                        TypedColumn(
                            name: "email", pointer: "/customer/e~1mail", tokens: ["customer", "e/mail"], type: .text,
                            nullable: false),
                    ],
                    lists: [
                        ChildTable(
                            name: "items", pointer: "/line_items", tokens: ["line_items"],
                            columns: [TypedColumn(name: "tag", pointer: "", tokens: [], type: .text)])
                    ]))
        #expect(try decodeConfig(#"{"resources": [\#(resource())]}"#).resources[0].table == nil)
    }

    @Test func everyProblemIsReportedWithItsPath() {
        #expect(
            problems(
                #"""
                [{"name": "Total", "pointer": "/total", "type": "real"},
                 {"name": "order", "pointer": "/o", "type": "text"},
                 {"name": "key", "pointer": "/k", "type": "text"},
                 {"name": "n", "pointer": "/n", "type": "number"},
                 {"name": "m", "pointer": "/m"},
                 {"name": "whole", "pointer": "", "type": "json"},
                 {"name": "l", "pointer": "/l", "type": "text", "columns": [{"name": "position", "pointer": "/p", "type": "text"},
                   {"name": "deeper", "pointer": "/d", "columns": []}]},
                 {"name": "n", "pointer": "/again", "type": "integer", "size": 3}]
                """#)
                == [
                    #"resources[0].columns[0].name: "Total" is not a plain SQL identifier: use a-z, 0-9 and "_", not starting with a digit (PostgreSQL folds unquoted names to lower case)"#,
                    #"resources[0].columns[1].name: "order" is an SQL keyword, which readers would have to quote"#,
                    #"resources[0].columns[2].name: "key" is a column every table has (key, updated_at): choose another name"#,
                    #"resources[0].columns[3].type: must be one of "text", "integer", "real", "boolean", "timestamp", "json", or the entry a nested list with its own "columns""#,
                    #"resources[0].columns[4].type: is required: text, integer, real, boolean, timestamp or json (or "columns" for a nested list)"#,
                    #"resources[0].columns[5].pointer: must name a member of the record, e.g. "/email""#,
                    #"resources[0].columns[6].type: does not apply to a nested list, which is a table of its own"#,
                    #"resources[0].columns[6].columns[0].name: "position" is a column every child table has (key, position): choose another name"#,
                    #"resources[0].columns[6].columns[1].columns: a nested list cannot hold another list: declare it as "type": "json""#,
                    #"resources[0].columns[7].name: "n" is already the name of resources[0].columns[3]"#,
                    #"resources[0].columns[7].size: unknown key"#,
                ])
    }

    @Test func namesPostgreSQLGivesEveryTableOrReservesAreRefused() {
        let columns = ["xmin", "xmax", "cmin", "cmax", "ctid", "tableoid", "system_user"].map {
            #"{"name": "\#($0)", "pointer": "/\#($0)", "type": "text"}"#
        }
        let list =
            #"{"name": "items", "pointer": "/items", "columns": [{"name": "ctid", "pointer": "/c", "type": "text"}]}"#
        #expect(
            problems("[" + (columns + [list]).joined(separator: ", ") + "]")
                == (0..<6).map {
                    #"resources[0].columns[\#($0)].name: "\#(["xmin", "xmax", "cmin", "cmax", "ctid", "tableoid"][$0])" is a column PostgreSQL gives every table: choose another name"#
                } + [
                    #"resources[0].columns[6].name: "system_user" is an SQL keyword, which readers would have to quote"#,
                    #"resources[0].columns[7].columns[0].name: "ctid" is a column PostgreSQL gives every table: choose another name"#,
                ])
        #expect(problems(#"[{"name": "xmin_", "pointer": "/xmin", "type": "real"}]"#).isEmpty)
    }

    @Test func aPointerMayNotNameAMemberWithAControlCharacterNorANumberTheStoresReadDifferently() {
        #expect(
            problems(
                #"""
                [{"name": "a", "pointer": "/a\u0000b", "type": "text"},
                 {"name": "b", "pointer": "/x/b\u001b[31m/c\u007f", "type": "text"},
                 {"name": "c", "pointer": "/stats/01", "type": "integer"},
                 {"name": "d", "pointer": "/stats/-1", "type": "integer"},
                 {"name": "e", "pointer": "/-01/00", "type": "integer"},
                 {"name": "l", "pointer": "/items/-2", "columns": [{"name": "f", "pointer": "/\u0001", "type": "text"}]}]
                """#)
                == [
                    #"resources[0].columns[0].pointer: cannot name a member whose name holds a control character"#,
                    #"resources[0].columns[1].pointer: cannot name a member whose name holds a control character"#,
                    #"resources[0].columns[2].pointer: cannot hold the token "01": a number with a leading zero or a minus sign is an array's index to PostgreSQL and not to SQLite; write an index without them ("/tags/1")"#,
                    #"resources[0].columns[3].pointer: cannot hold the token "-1": a number with a leading zero or a minus sign is an array's index to PostgreSQL and not to SQLite; write an index without them ("/tags/1")"#,
                    #"resources[0].columns[4].pointer: cannot hold the token "-01": a number with a leading zero or a minus sign is an array's index to PostgreSQL and not to SQLite; write an index without them ("/tags/1")"#,
                    #"resources[0].columns[5].pointer: cannot hold the token "-2": a number with a leading zero or a minus sign is an array's index to PostgreSQL and not to SQLite; write an index without them ("/tags/1")"#,
                    #"resources[0].columns[5].columns[0].pointer: cannot name a member whose name holds a control character"#,
                ])
        // Every other token is a member's name, or an index, alike in both stores.
        let fine = ["0", "10", "2024", "-", "-a", "a-1", "+1", "0a", "1.5", "é", "a b"]
        #expect(
            problems(
                "["
                    + fine.enumerated().map { #"{"name": "c\#($0)", "pointer": "/stats/\#($1)", "type": "text"}"# }
                    .joined(separator: ", ") + "]"
            ).isEmpty)
    }

    @Test func aTableDeclaresAtMost500Columns() {
        func columns(_ count: Int) -> String {
            "["
                + (0..<count).map { #"{"name": "c\#($0)", "pointer": "/c\#($0)", "type": "text"}"# }
                .joined(separator: ", ") + "]"
        }
        #expect(problems(columns(500)).isEmpty)
        #expect(
            problems(columns(501))
                == [
                    "resources[0].columns: declares 501 columns: at most 500 columns per table; declare the rest as one json column"
                ])
        // A nested list is a table of its own, with its own 500.
        let list = #"{"name": "items", "pointer": "/items", "columns": \#(columns(500))}"#
        #expect(problems(String(columns(500).dropLast()) + ", " + list + "]").isEmpty)
        #expect(
            problems(#"[{"name": "items", "pointer": "/items", "columns": \#(columns(502))}]"#)
                == [
                    "resources[0].columns[0].columns: declares 502 columns: at most 500 columns per table; declare the rest as one json column"
                ])
    }

    @Test func tablesMayNotTakeTheAgentsNamesNorEachOthers() {
        let column = #"[{"name": "n", "pointer": "/n", "type": "integer"}]"#
        #expect(
            problems(column, name: "changes")
                == [
                    #"resources[0].columns: makes a table named after the resource, and "changes" is the name of one of the agent's tables or indexes; rename the resource"#
                ])
        // PostgreSQL's indexes and sequences share the tables' names.
        for name in [
            "records_by_update", "changes_by_resource", "sync_runs_by_resource", "sync_runs_running",
            "records_pkey", "sync_runs_id_seq",
        ] {
            #expect(
                problems(column, name: name)
                    == [
                        #"resources[0].columns: makes a table named after the resource, and "\#(name)" is the name of one of the agent's tables or indexes; rename the resource"#
                    ])
        }
        #expect(
            problems(column, name: "my-orders").first?.hasPrefix(
                #"resources[0].columns: makes a table named after the resource, and "my-orders" is not a plain SQL identifier"#
            )
                == true)
        let list =
            #"[{"name": "items", "pointer": "/items", "columns": [{"name": "n", "pointer": "/n", "type": "integer"}]}]"#
        #expect(
            problems(list, more: [resource("orders__items", #""columns": \#(column)"#)])
                == [#"resources[1].columns: makes the table "orders__items", which resources[0] makes too: rename one"#]
        )
    }
}
