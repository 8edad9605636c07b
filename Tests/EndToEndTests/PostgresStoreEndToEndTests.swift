import Foundation
import Synchronization
import TestServers
import TestUpstream
import Testing

/// The real binary keeping its copy in a PostgreSQL schema of a throwaway
/// cluster (docs/configuration.md#the-store): syncs, refreshes, the change
/// feed and the commands that read the copy, with `psql` as the reader on
/// another connection.
@Suite(.serialized, .timeLimit(.minutes(3))) struct PostgresStoreEndToEndTests {
    /// A workspace whose configuration keeps the copy in schema `schema` of a new database.
    static func workspace(
        _ cluster: PostgresCluster, resources: [String], schema: String = "copy"
    ) throws -> (Workspace, database: String) {
        let database = try cluster.createDatabase(prefix: "e2e")
        let workspace = try Workspace()
        try workspace.writeConfig(
            resources: resources,
            extra:
                #""store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "\#(schema)"},"#
        )
        return (workspace, database)
    }

    @Test func anAgentSyncsIntoASchemaThatReadersQueryAndTheCommandsRead() async throws {
        let cluster = try await PostgresCluster.shared()
        let upstream = try await TestUpstream.start(collections: ["items": 40])
        defer { Task { await upstream.stop() } }
        let (workspace, database) = try Self.workspace(
            cluster, resources: [upstream.resource("items", style: "page", size: 15, extra: #""interval": "1h""#)])
        let agent = try await RunningAgent.start(in: workspace)
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "copy")) ?? "").trimmingCharacters(in: .newlines)
        }
        #expect(try await eventually { copy("SELECT count(*) FROM records WHERE resource = 'items'") == "40" })
        #expect(copy("SELECT data->>'id' FROM records WHERE key = '7'") == "7")
        #expect(copy("SELECT jsonb_typeof(data) FROM records LIMIT 1") == "object")
        #expect(copy("SELECT state, item_count FROM resources") == "idle\t40")
        #expect(copy("SELECT count(*) FROM pages WHERE resource = 'items'") == "3")

        // A change upstream: the refresh applies it, the feed and the history say so.
        let before = copy("SELECT updated_at FROM records WHERE key = '1'")
        upstream.changeItems("items", ids: [3])
        let result = agent.curl("POST", "/v1/resources/items/refresh").json
        #expect(result["outcome"] as? String == "success", "\(result)")
        #expect(result["changes"] as? [String: Int] == ["added": 0, "changed": 1, "removed": 0])
        #expect(copy("SELECT updated_at FROM records WHERE key = '1'") == before)
        #expect(copy("SELECT seq, key, op FROM changes ORDER BY seq DESC LIMIT 1") == "41\t3\tupdate")
        let feed = agent.curl("GET", "/v1/changes?resource=items&after=40").json
        #expect((feed["changes"] as? [[String: Any]])?.map { $0["key"] as? String } == ["3"])
        #expect(agent.state(of: "items") == "idle")

        // Stopped, the commands read the copy from PostgreSQL.
        _ = try await agent.stop()
        let history = try await workspace.run(["history", "--json"])
        #expect(history.status == 0, "\(history.stderr)")
        #expect(history.stdout.contains(#""outcome": "success""#), "\(history.stdout)")
        let status = try await workspace.run(["status"])
        #expect(status.stderr.contains("postgres://postgres@127.0.0.1:\(cluster.port)/\(database) (schema copy)"))
        #expect(status.stdout.contains("items"), "\(status.stdout)")
        let changes = try await workspace.run(["changes", "--after", "40"])
        #expect(changes.status == 0 && changes.stdout.contains("update"), "\(changes.stdout)\(changes.stderr)")
        // With no agent running, a refresh takes the free lease and syncs in its own process.
        upstream.changeItems("items", ids: [4])
        let refreshed = try await workspace.run(["refresh", "items"])
        #expect(
            refreshed.status == 0 && refreshed.stdout.contains("1 changed"), "\(refreshed.stdout)\(refreshed.stderr)")
        #expect(copy("SELECT count(*) FROM leases WHERE owner IS NOT NULL") == "0")
    }

    @Test func aReaderOnAnotherConnectionNeverSeesHalfASnapshot() async throws {
        let cluster = try await PostgresCluster.shared()
        let upstream = try await TestUpstream.start(collections: ["items": 2000])
        defer { Task { await upstream.stop() } }
        let (workspace, database) = try Self.workspace(
            cluster, resources: [upstream.resource("items", style: "page", size: 100, extra: #""interval": "1h""#)])
        let agent = try await RunningAgent.start(in: workspace)
        let query = "SELECT count(*), min((data->>'revision')::int), max((data->>'revision')::int) FROM records"
        #expect(
            try await eventually { (try? cluster.psql(query, database: database, schema: "copy")) == "2000\t1\t1\n" })

        // Twenty pages per sync, every item changed each time; a reader reads all the while,
        // and the syncs go on until it has read often and seen more than two snapshots.
        let seen = Mutex<[String]>([])
        let reading = Task {
            while !Task.isCancelled {
                let line = (try? cluster.psql(query, database: database, schema: "copy")) ?? "error"
                seen.withLock { $0.append(line) }
            }
        }
        for round in 1...40 {
            upstream.changeItems("items", ids: Array(1...2000))
            let result = agent.curl("POST", "/v1/resources/items/refresh").json
            #expect(result["changes"] as? [String: Int] == ["added": 0, "changed": 2000, "removed": 0], "\(round)")
            let (reads, snapshots) = seen.withLock { ($0.count, Set($0).count) }
            if round >= 8 && reads > 20 && snapshots > 2 { break }
        }
        reading.cancel()
        await reading.value
        let lines = seen.withLock { $0 }
        let revisions = Set(lines)
        #expect(lines.count > 20)
        #expect(
            revisions.allSatisfy { line in
                let fields = line.split(separator: "\t").map { $0.trimmingCharacters(in: .newlines) }
                return fields.count == 3 && fields[0] == "2000" && fields[1] == fields[2]
            }, "\(revisions.sorted())")
        #expect(revisions.count > 2, "the reader saw \(revisions.sorted())")
    }

    @Test func aSchemaOfAnotherProgramIsLeftAloneAndTheAgentSaysWhy() async throws {
        let cluster = try await PostgresCluster.shared()
        let (workspace, database) = try Self.workspace(
            cluster, resources: [#"{"name": "items", "url": "http://127.0.0.1:9/items", "key": "/id"}"#],
            schema: "theirs")
        try cluster.psql("CREATE SCHEMA theirs; CREATE TABLE theirs.orders (id int)", database: database)
        let run = try await workspace.run(["run"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("another program's tables (orders)"), "\(run.stderr)")
        #expect(
            try cluster.psql("SELECT count(*) FROM pg_tables WHERE schemaname = 'theirs'", database: database) == "1\n")
    }

    @Test func typedTablesAreInTheSchemaWithPostgresTypesAndItsIndexIsUsed() async throws {
        let cluster = try await PostgresCluster.shared()
        let upstream = try await TestUpstream.start(collections: ["items": 300])
        defer { Task { await upstream.stop() } }
        let columns = #"""
            "columns": [{"name": "name", "pointer": "/name", "type": "text"},
                        {"name": "score", "pointer": "/score", "type": "integer", "indexed": true},
                        {"name": "active", "pointer": "/active", "type": "boolean"},
                        {"name": "created", "pointer": "/created", "type": "timestamp"},
                        {"name": "revision", "pointer": "/email", "type": "integer"},
                        {"name": "extra", "pointer": "/tags", "type": "json"},
                        {"name": "tags", "pointer": "/tags", "columns": [{"name": "tag", "pointer": "", "type": "text"}]}]
            """#
        let (workspace, database) = try Self.workspace(
            cluster, resources: [upstream.resource("items", style: "page", size: 100, extra: columns)])

        let refresh = try await workspace.run(["refresh", "--json"])

        #expect(refresh.status == 0, "\(refresh.stdout)\(refresh.stderr)")
        #expect(refresh.stdout.contains(#""misfits": 300"#), "\(refresh.stdout)")
        func copy(_ sql: String) throws -> String {
            try cluster.psql(sql, database: database, schema: "copy").trimmingCharacters(in: .newlines)
        }
        // psql's \d tells the types readers get.
        #expect(
            try copy(
                """
                SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY ordinal_position)
                FROM information_schema.columns WHERE table_schema = 'copy' AND table_name = 'items'
                """)
                == "key text, name text, score bigint, active boolean, created timestamp with time zone, "
                + "revision bigint, extra jsonb, updated_at timestamp with time zone")
        #expect(
            try copy(
                "SELECT name, score, active, created AT TIME ZONE 'UTC', revision IS NULL, extra->>0 FROM items WHERE key = '3'"
            )
                == "Item 3\t21\tf\t2026-01-01 00:00:00\tt\talpha")
        #expect(
            try copy(
                "SELECT string_agg(t.tag, ',' ORDER BY t.position) FROM items AS i JOIN items__tags AS t USING (key) WHERE i.key = '2'"
            )
                == "alpha,beta,gamma")
        let status = try await workspace.run(["status"])
        #expect(
            status.stdout.contains(
                "items: a value does not fit column items.revision and is stored as NULL (key 1, /email)"),
            "\(status.stdout)\(status.stderr)")
        let plan = try copy("SET enable_seqscan = off; EXPLAIN SELECT key FROM items WHERE score = 21")
        #expect(plan.contains(#"using "items.score" on items"#), "\(plan)")
    }
}
