import Foundation
import TestServers
import Testing

/// `sync-agent columns` through the real binary: orders synced from a static
/// file on nginx, their declaration inferred from the SQLite file and from a
/// PostgreSQL schema, and pasted into the configuration that `validate` accepts.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ColumnsEndToEndTests {
    /// 2,500 orders (three pages of the walk over the store): a number once
    /// in a member of strings, a member null in some and absent from the rest,
    /// and line items of which only some hold a price.
    static let orders: String = {
        let items = (1...2_500).map { id in
            var members = [
                #""id": \#(id)"#, #""status": "\#(id % 2 == 0 ? "paid" : "open")""#,
                #""total": \#(id % 3 == 0 ? "\(id).5" : "\(id)")"#,
                #""placed_at": "2026-11-20T10:\#(10 + id % 50):00Z""#, #""updatedAt": "2026-11-21T08:30:00.250+01:00""#,
                #""from": "web""#,
                #""customer": {"email": "c\#(id)@example.com"\#(id % 2 == 0 ? #", "name": "Ann""# : "")}"#,
                #""code": \#(id == 7 ? "7" : #""C\#(id)""#)"#,
                #""line_items": [{"sku": "s\#(id)", "quantity": \#(1 + id % 4)}\#(id % 2 == 0 ? #", {"sku": "t", "quantity": 2, "price": 1.25}"# : "")]"#,
                #""tags": ["a"]"#,
            ]
            if id % 10 == 0 { members.append(#""legacy": null"#) }
            return "{" + members.joined(separator: ", ") + "}"
        }
        return #"{"items": [\#(items.joined(separator: ",\n"))]}"#
    }()

    static let declaration = #"""
        "columns": [
          {"name": "id", "pointer": "/id", "type": "integer", "nullable": false},
          {"name": "status", "pointer": "/status", "type": "text", "nullable": false},
          {"name": "total", "pointer": "/total", "type": "real", "nullable": false},
          {"name": "placed_at", "pointer": "/placed_at", "type": "timestamp", "nullable": false},
          {"name": "updated_at_", "pointer": "/updatedAt", "type": "timestamp", "nullable": false},
          {"name": "from_", "pointer": "/from", "type": "text", "nullable": false},
          {"name": "customer_email", "pointer": "/customer/email", "type": "text", "nullable": false},
          {"name": "customer_name", "pointer": "/customer/name", "type": "text"},
          {"name": "code", "pointer": "/code", "type": "json", "nullable": false},
          {"name": "line_items", "pointer": "/line_items", "columns": [
            {"name": "sku", "pointer": "/sku", "type": "text", "nullable": false},
            {"name": "quantity", "pointer": "/quantity", "type": "integer", "nullable": false},
            {"name": "price", "pointer": "/price", "type": "real"}]},
          {"name": "tags", "pointer": "/tags", "type": "json", "nullable": false},
          {"name": "legacy", "pointer": "/legacy", "type": "json"}
        ]

        """#

    /// The resource `orders`, without its closing brace.
    static func resource(_ nginx: Nginx) -> String {
        #"{"name": "orders", "url": "\#(nginx.baseURL)/orders.json", "items": "/items", "key": "/id""#
    }

    static func serve() async throws -> Nginx {
        let nginx = try await Nginx.start()
        try nginx.write("orders.json", orders, modified: Date(timeIntervalSince1970: 1_790_000_000))
        return nginx
    }

    @Test func theDeclarationInferredFromTheRecordsPastesIntoAValidConfiguration() async throws {
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            Self.resource(nginx) + "}", #"{"name": "users", "url": "http://127.0.0.1:9/users", "key": "/id"}"#,
        ])

        // Nothing to paste: "columns": [] is no declaration the configuration takes.
        let before = try await workspace.run(["columns", "orders"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.isEmpty, "\(before.stdout)")
        #expect(before.stderr.contains("no records of orders are stored yet: run `sync-agent refresh orders` first"))
        let beforeJSON = try await workspace.run(["columns", "orders", "--json"])
        #expect(beforeJSON.status == 0, "\(beforeJSON.stderr)")
        let empty = try #require(
            try JSONSerialization.jsonObject(with: Data(beforeJSON.stdout.utf8)) as? [String: Any])
        #expect((empty["columns"] as? [Any])?.isEmpty == true)
        #expect(empty["records"] as? Int == 0)

        let refresh = try await workspace.run(["refresh", "orders"])
        #expect(refresh.status == 0, "\(refresh.stdout)\(refresh.stderr)")
        let columns = try await workspace.run(["columns", "orders"])
        #expect(columns.status == 0, "\(columns.stderr)")
        #expect(columns.stdout == Self.declaration)
        #expect(
            columns.stderr == """
                inferred from 2,500 records of orders
                note: /code: holds a string in 2,499 records and a number in 1: declared json
                note: /legacy: only ever null (in 250 of 2,500 records): declared json

                """)

        let json = try await workspace.run(["columns", "orders", "--json"])
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["resource"] as? String == "orders")
        #expect(object["records"] as? Int == 2_500)
        let entries = try #require(object["columns"] as? [[String: Any]])
        #expect(entries.count == 12)
        #expect(entries.first { $0["name"] as? String == "code" }?["type"] as? String == "json")
        let notes = try #require(object["notes"] as? [[String: String]])
        #expect(notes.map { $0["pointer"] } == ["/code", "/legacy"])

        // Pasted into the resource, as the person would.
        try workspace.writeConfig(resources: [
            Self.resource(nginx) + ",\n" + columns.stdout + "}",
            #"{"name": "users", "url": "http://127.0.0.1:9/users", "key": "/id"}"#,
        ])
        let validate = try await workspace.run(["validate"])
        #expect(validate.status == 0, "\(validate.stderr)")

        let unknown = try await workspace.run(["columns", "order"])
        #expect(unknown.status == 64)
        #expect(unknown.stdout.isEmpty)
        #expect(unknown.stderr.contains(#"no resource named "order""#), "\(unknown.stderr)")
        #expect(unknown.stderr.contains("(resources: orders, users)"), "\(unknown.stderr)")
        let none = try await workspace.run(["columns"])
        #expect(none.status == 64)
    }

    @Test func thePostgreSQLStoreGivesTheSameDeclaration() async throws {
        let cluster = try await PostgresCluster.shared()
        let nginx = try await Self.serve()
        defer { nginx.stop() }
        let database = try cluster.createDatabase(prefix: "e2e")
        let workspace = try Workspace()
        try workspace.writeConfig(
            resources: [Self.resource(nginx) + "}"],
            extra: #""store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "copy"},"#)

        let before = try await workspace.run(["columns", "orders"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(before.stdout.isEmpty, "\(before.stdout)")
        let refresh = try await workspace.run(["refresh", "orders"])
        #expect(refresh.status == 0, "\(refresh.stdout)\(refresh.stderr)")
        let columns = try await workspace.run(["columns", "orders"])
        #expect(columns.status == 0, "\(columns.stderr)")
        // jsonb keeps a record's members in an order of its own (shorter names first): the same
        // entries, in another order.
        func entries(_ text: String) -> [String] {
            text.split(separator: "\n").map { $0.hasSuffix(",") ? String($0.dropLast()) : String($0) }.sorted()
        }
        #expect(entries(columns.stdout) == entries(Self.declaration), "\(columns.stdout)")
        #expect(columns.stdout.contains(Self.declaration.split(separator: "\n")[10...13].joined(separator: "\n")))
        #expect(columns.stderr.hasPrefix("inferred from 2,500 records of orders\n"), "\(columns.stderr)")
    }
}
