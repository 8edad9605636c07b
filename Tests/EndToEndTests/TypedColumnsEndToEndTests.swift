import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Typed columns (docs/schema.md#typed-tables) through the real binary, read in
/// the real `sqlite3` shell as Datasette or Grafana would read the file.
@Suite(.timeLimit(.minutes(3))) struct TypedColumnsEndToEndTests {
    /// An items resource of the test upstream, with `columns`.
    func resource(_ upstream: TestUpstream, columns: String) -> String {
        #"""
        {"name": "items", "url": "\#(upstream.baseURL)/page/items", "items": "/data", "key": "/id",
         "pagination": {"style": "page", "size": 20}, "interval": "1h",
         "columns": \#(columns)}
        """#
    }

    let columns = #"""
        [{"name": "name", "pointer": "/name", "type": "text", "nullable": false},
         {"name": "score", "pointer": "/score", "type": "integer", "indexed": true},
         {"name": "active", "pointer": "/active", "type": "boolean"},
         {"name": "created", "pointer": "/created", "type": "timestamp"},
         {"name": "revision", "pointer": "/email", "type": "integer"},
         {"name": "tags", "pointer": "/tags", "columns": [{"name": "tag", "pointer": "", "type": "text"}]}]
        """#

    @Test func aRefreshFillsATypedTableThatTheSQLiteShellReads() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [resource(upstream, columns: columns)])

        let validate = try await workspace.run(["validate"])
        #expect(validate.stdout.contains("table items: 5 columns, with items__tags"), "\(validate.stdout)")

        let refresh = try await workspace.run(["refresh", "--json"])

        #expect(refresh.status == 0, "\(refresh.stdout)\n\(refresh.stderr)")
        // "email" is text: in an integer column it is NULL, counted, never a failure.
        #expect(refresh.stdout.contains(#""misfits": 50"#), "\(refresh.stdout)")
        #expect(
            try workspace.query(
                """
                SELECT key, name, typeof(score), score, active, created, quote(revision), updated_at IS NOT NULL
                FROM items WHERE key = '3'
                """) == [["3", "Item 3", "integer", "21", "0", "2026-01-01T00:00:00.000Z", "NULL", "1"]])
        #expect(try workspace.value("SELECT count(*) FROM items") == "50")
        // With no agent running, status reads the first misfit from the database.
        let status = try await workspace.run(["status"])
        #expect(status.status == 3)
        #expect(
            status.stdout.contains(
                "items: a value does not fit column items.revision and is stored as NULL (key 1, /email)"),
            "\(status.stdout)")
        // The declared types are what tools read from the schema.
        #expect(
            try workspace.query("SELECT name, type FROM pragma_table_info('items') ORDER BY cid").map { $0[1] }
                == ["TEXT", "TEXT", "INTEGER", "BOOLEAN", "TIMESTAMP", "INTEGER", "TEXT"])
        // The child table, joined to its parent.
        #expect(
            try workspace.query(
                "SELECT i.key, t.position, t.tag FROM items AS i JOIN items__tags AS t USING (key) WHERE i.key = '2' "
                    + "ORDER BY t.position") == [["2", "0", "alpha"], ["2", "1", "beta"], ["2", "2", "gamma"]])
        // The indexed column is searched by its index.
        let plan = try workspace.query("EXPLAIN QUERY PLAN SELECT key FROM items WHERE score = 21")
        #expect(
            plan.contains { $0.joined(separator: " ").contains(#"USING COVERING INDEX items.score (score=?)"#) },
            "\(plan)")
        // A GROUP BY reads typed values, as from any table: every third item is inactive.
        #expect(
            try workspace.query("SELECT active, count(*) FROM items GROUP BY active") == [["0", "16"], ["1", "34"]])
    }

    @Test func changedColumnsRebuildTheTableOnReloadWithoutAskingTheAPI() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [resource(upstream, columns: columns)])
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { (try? workspace.value("SELECT count(*) FROM items")) == "30" })
        // The first misfit is shown in the resource's status.
        let status = agent.curl("GET", "/v1/resources/items")
        let misfit = (status.json["columns"] as? [String: Any])?["misfit"] as? [String: Any]
        #expect(misfit?["key"] as? String == "1" && misfit?["pointer"] as? String == "/email", "\(status.body)")
        #expect(agent.curl("GET", "/metrics").body.contains(#"sync_agent_column_misfits_total{resource="items"} 30"#))
        let text = try await workspace.run(["status"])
        #expect(
            text.stdout.contains(
                "items: a value does not fit column items.revision and is stored as NULL (key 1, /email)"),
            "\(text.stdout)")
        upstream.clearRequests()

        try workspace.writeConfig(resources: [
            resource(
                upstream,
                columns: #"[{"name": "email", "pointer": "/email", "type": "text", "indexed": true}]"#)
        ])
        let reload = try await workspace.run(["reload"])

        #expect(reload.status == 0, "\(reload.stdout)\n\(reload.stderr)")
        #expect(reload.stdout.contains("1 changed (items)"), "\(reload.stdout)")
        #expect(try workspace.query("SELECT key, email FROM items WHERE key = '7'") == [["7", "item7@example.com"]])
        #expect(try workspace.value("SELECT count(*) FROM sqlite_schema WHERE name = 'items__tags'") == "0")
        let after = agent.curl("GET", "/v1/resources/items")
        #expect((after.json["columns"] as? [String: Any])?["misfit"] is NSNull, "\(after.body)")
        // Rebuilt from the records: the API was not asked.
        #expect(upstream.requests.isEmpty, "\(upstream.requests.map(\.path))")
        _ = try await agent.stop()
    }

    @Test func aColumnNameThatIsNoPlainIdentifierIsAConfigurationError() async throws {
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "records", "url": "http://127.0.0.1:1/x", "key": "/id",
             "columns": [{"name": "Total Price", "pointer": "/total", "type": "real"},
                         {"name": "select", "pointer": "/x", "type": "text"},
                         {"name": "n", "pointer": "/n", "type": "number"}]}
            """#
        ])

        let result = try await workspace.run(["validate"])

        #expect(result.status == 78)
        #expect(
            result.stderr.contains(
                "resources[0].columns: makes a table named after the resource, and \"records\" is the name of one of the agent's tables"
            ), "\(result.stderr)")
        #expect(
            result.stderr.contains(#"resources[0].columns[0].name: "Total Price" is not a plain SQL identifier"#),
            "\(result.stderr)")
        #expect(
            result.stderr.contains(#"resources[0].columns[1].name: "select" is an SQL keyword"#), "\(result.stderr)")
        #expect(result.stderr.contains(#"resources[0].columns[2].type: must be one of "text""#), "\(result.stderr)")
    }
}
