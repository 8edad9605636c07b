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

    @Test func tablesMayNotTakeTheAgentsNamesNorEachOthers() {
        let column = #"[{"name": "n", "pointer": "/n", "type": "integer"}]"#
        #expect(
            problems(column, name: "changes")
                == [
                    #"resources[0].columns: makes a table named after the resource, and "changes" is the name of one of the agent's tables; rename the resource"#
                ])
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
