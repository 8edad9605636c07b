import DemoUpstream
import Foundation
import TestServers
import TestUpstream
import Testing

/// What the fleet does when PostgreSQL or an agent misbehaves (docs/fleet.md#failures).
@Suite(.serialized, .timeLimit(.minutes(4))) struct FleetFailureEndToEndTests {
    /// A workspace keeping its copy in `schema` of `database`, with these resources.
    static func workspace(
        _ cluster: PostgresCluster, database: String, schema: String, resources: [String], leaseTime: Int = 2
    ) throws -> Workspace {
        let workspace = try Workspace()
        try workspace.writeConfig(
            resources: resources,
            extra: #"""
                "store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "\#(schema)",
                          "leaseTime": "\#(leaseTime)s"},
                """#)
        return workspace
    }

    static func resource(_ upstream: TestUpstream, _ name: String, interval: String) -> String {
        #"""
        {"name": "\#(name)", "url": "\#(upstream.baseURL)/page/items?tenant=\#(name)", "items": "/data", "key": "/id",
         "pagination": {"style": "page", "size": 50}, "interval": "\#(interval)",
         "retry": {"maxAttempts": 3, "initialDelay": "200ms", "maxDelay": "1s"}}
        """#
    }

    @Test func aPostgreSQLRestartInTheMiddleOfSyncsLosesNothingAndEverythingResumes() async throws {
        // A cluster of this test's own: it is stopped in the middle.
        let cluster = try await PostgresCluster.start()
        defer { cluster.shutdown() }
        let database = try cluster.createDatabase(prefix: "outage")
        let upstream = try await TestUpstream.start(collections: ["items": 180])
        defer { Task { await upstream.stop() } }
        let names = (1...4).map { "r\($0)" }
        let workspace = try Self.workspace(
            cluster, database: database, schema: "copy",
            resources: names.map { Self.resource(upstream, $0, interval: "1s") })
        let agent = try await RunningAgent.start(in: workspace)
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "copy")) ?? "").trimmingCharacters(in: .newlines)
        }
        #expect(try await eventually { copy("SELECT count(*) FROM records") == "720" })

        // PostgreSQL goes away while the items change and polls come due every second.
        try cluster.stop()
        upstream.setCollection("items", count: 200)
        let outage = ContinuousClock.now
        var states: Set<String> = []
        // Longer than a call waits for the server (15 s): writes fail as transient and are retried.
        while outage.duration(to: .now) < .seconds(17) {
            let status = agent.curl("GET", "/v1/status")
            #expect(status.status == 200)
            for resource in status.json["resources"] as? [[String: Any]] ?? [] {
                states.insert(resource["state"] as? String ?? "?")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        #expect(!states.contains("failed"), "\(states)")
        try await cluster.start()

        // Back: every resource syncs the new items by itself, the feed has no gap.
        #expect(
            try await eventually(timeout: .seconds(60)) { copy("SELECT count(*) FROM records") == "800" },
            "\(copy("SELECT count(*) FROM records"))")
        #expect(copy("SELECT count(*) = max(seq), max(seq) FROM changes") == "t\t800")
        #expect(copy("SELECT count(*) FROM resources WHERE state = 'failed'") == "0")
        #expect(copy("SELECT count(*) FROM staging") == "0")
        let log = agent.process.stderrSoFar
        #expect(log.contains("PostgreSQL at 127.0.0.1:\(cluster.port)"), "\(log.suffix(2000))")
    }

    @Test func anAgentFrozenPastItsLeaseCannotCommitOverTheNewOwner() async throws {
        let cluster = try await PostgresCluster.shared()
        let database = try cluster.createDatabase(prefix: "frozen")
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "copy")) ?? "").trimmingCharacters(in: .newlines)
        }
        let resources = [Self.resource(upstream, "slow", interval: "1h")]
        let first = try await RunningAgent.start(
            in: try Self.workspace(cluster, database: database, schema: "copy", resources: resources))
        defer { first.process.send(SIGKILL) }
        #expect(try await eventually { copy("SELECT count(*) FROM records") == "30" })
        let frozenAgent = copy("SELECT owner FROM leases")

        // A refresh whose answer takes four seconds; the agent freezes while it waits.
        upstream.inject(Fault(path: "/page/items", query: "tenant=slow", times: 1, delay: .seconds(4)))
        let refresh = Task { first.curl("POST", "/v1/resources/slow/refresh") }
        #expect(try await eventually { upstream.requests.count >= 2 })
        first.process.send(SIGSTOP)
        let frozenAt = copy("SELECT now()")

        // Another agent takes the lease once it expires, and syncs.
        upstream.setCollection("items", count: 35)
        let second = try await RunningAgent.start(
            in: try Self.workspace(cluster, database: database, schema: "copy", resources: resources))
        defer { second.process.send(SIGKILL) }
        #expect(
            try await eventually(timeout: .seconds(30)) {
                !copy("SELECT owner FROM leases").isEmpty && copy("SELECT owner FROM leases") != frozenAgent
            }, "\(second.process.stderrSoFar)")
        let synced = second.curl("POST", "/v1/resources/slow/refresh").json
        #expect(synced["outcome"] as? String == "success", "\(synced)")
        #expect(copy("SELECT count(*) FROM records") == "35")

        // The frozen agent wakes up: whether its next round of leases or its commit
        // (refused by the lease's token) finds first that the lease moved on, it
        // writes nothing, and its refresh is answered by the new owner's sync.
        first.process.send(SIGCONT)
        let answer = await refresh.value.json
        #expect(["success", "notModified"].contains(answer["outcome"] as? String), "\(answer)")
        #expect(answer["joined"] as? Bool == true, "\(answer)")
        #expect(first.process.stderrSoFar.contains("another agent of the fleet"), "\(first.process.stderrSoFar)")
        #expect(
            copy("SELECT count(*) FROM sync_runs WHERE agent = '\(frozenAgent)' AND finished_at > '\(frozenAt)'")
                == "0")
        #expect(copy("SELECT count(*) FROM records") == "35")
    }
}
