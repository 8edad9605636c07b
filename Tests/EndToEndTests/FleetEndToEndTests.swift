import Foundation
import TestServers
import TestUpstream
import Testing

/// Three real agents sharing one PostgreSQL schema (docs/fleet.md): each
/// resource is leased to one of them, polled once per interval fleet-wide,
/// and taken over when its agent dies.
@Suite(.serialized, .timeLimit(.minutes(4))) struct FleetEndToEndTests {
    static let interval = 2.0
    static let leaseTime = 3.0

    /// Thirty resources, one page each, the same in every agent's configuration.
    static func resources(_ upstream: TestUpstream) -> [String] {
        (1...30).map { index in
            #"""
            {"name": "r\#(index)", "url": "\#(upstream.baseURL)/page/items?tenant=\#(index)", "items": "/data",
             "key": "/id", "pagination": {"style": "page", "size": 100}, "interval": "\#(Int(interval))s"}
            """#
        }
    }

    /// How many requests each resource made, by its number.
    static func requestsByResource(_ upstream: TestUpstream) -> [Int: Int] {
        var counts: [Int: Int] = [:]
        for request in upstream.requests {
            for pair in request.query.split(separator: "&") where pair.hasPrefix("tenant=") {
                counts[Int(pair.dropFirst("tenant=".count)) ?? 0, default: 0] += 1
            }
        }
        return counts
    }

    @Test func eachResourceIsPolledByOneAgentAndTakenOverWhenItsAgentIsKilled() async throws {
        let cluster = try await PostgresCluster.shared()
        let database = try cluster.createDatabase(prefix: "fleet")
        let upstream = try await TestUpstream.start(collections: ["items": 20])
        defer { Task { await upstream.stop() } }
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "fleet")) ?? "").trimmingCharacters(in: .newlines)
        }
        var agents: [RunningAgent] = []
        var workspaces: [Workspace] = []
        for _ in 0..<3 {
            let workspace = try Workspace()
            try workspace.writeConfig(
                resources: Self.resources(upstream),
                extra: #"""
                    "store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "fleet",
                              "leaseTime": "\#(Int(Self.leaseTime))s"},
                    """#)
            workspaces.append(workspace)
            agents.append(try await RunningAgent.start(in: workspace))
        }
        defer { for agent in agents { agent.process.send(SIGKILL) } }

        // Every resource synced, the leases spread over the three agents.
        func owners() -> [String: Int] {
            var counts: [String: Int] = [:]
            for line in copy("SELECT owner, count(*) FROM leases WHERE expires_at > now() GROUP BY owner")
                .split(separator: "\n")
            {
                let fields = line.split(separator: "\t")
                if fields.count == 2 { counts[String(fields[0])] = Int(fields[1]) }
            }
            return counts
        }
        #expect(
            try await eventually(timeout: .seconds(60)) {
                copy("SELECT count(*) FROM resources WHERE last_success_at IS NOT NULL") == "30"
                    && owners().count == 3 && owners().values.reduce(0, +) == 30
            }, "owners: \(owners())")
        #expect(owners().values.allSatisfy { $0 <= 15 }, "\(owners())")

        // Any agent's status shows every resource with the agent that holds it.
        let holders = Dictionary(
            uniqueKeysWithValues: copy("SELECT resource, owner FROM leases").split(separator: "\n").map {
                let fields = $0.split(separator: "\t")
                return (String(fields[0]), String(fields[1]))
            })
        #expect(
            try await eventually {
                let shown = (agents[1].curl("GET", "/v1/status").json["resources"] as? [[String: Any]]) ?? []
                return shown.count == 30
                    && shown.allSatisfy { holders[$0["name"] as? String ?? ""] == $0["owner"] as? String }
                    && shown.allSatisfy { $0["state"] as? String == "idle" && $0["lastSuccessAt"] is String }
            })
        let table = try await workspaces[2].run(["status", "--all"])
        #expect(table.stdout.contains("AGENT") && table.stdout.contains(holders["r1"] ?? "?"), "\(table.stdout)")

        // Once per interval fleet-wide: about five polls of each in ten seconds, not fifteen.
        upstream.clearRequests()
        try await Task.sleep(for: .seconds(10))
        let polls = Self.requestsByResource(upstream)
        #expect(polls.count == 30, "\(polls)")
        #expect(polls.values.allSatisfy { (3...7).contains($0) }, "\(polls.sorted { $0.key < $1.key })")

        // A refresh asked of any agent joins the sync of the agent that holds the resource.
        let asker = agents[0].process.pid
        let elsewhere = copy(
            "SELECT resource FROM leases WHERE owner NOT LIKE '%:\(asker):%' AND expires_at > now() ORDER BY resource LIMIT 1"
        )
        let number = Int(elsewhere.dropFirst()) ?? 0
        let polled = Self.requestsByResource(upstream)[number] ?? 0
        let answer = agents[0].curl("POST", "/v1/resources/\(elsewhere)/refresh").json
        #expect(answer["outcome"] as? String == "notModified" && answer["joined"] as? Bool == true, "\(answer)")
        #expect(((Self.requestsByResource(upstream)[number] ?? 0) - polled) <= 2)
        let command = try await workspaces[0].run(["refresh", elsewhere])
        #expect(command.status == 0, "\(command.stdout)\(command.stderr)")
        // So is `sync-agent refresh` on a machine where no agent runs: it asks the holder.
        let bystander = try Workspace()
        try bystander.writeConfig(String(contentsOfFile: workspaces[0].configPath, encoding: .utf8))
        let runs = copy("SELECT count(*) FROM sync_runs WHERE resource = '\(elsewhere)'")
        let outside = try await bystander.run(["refresh", elsewhere, "--json"])
        #expect(
            outside.status == 0 && outside.stdout.contains(#""joined": true"#), "\(outside.stdout)\(outside.stderr)")
        #expect(Int(copy("SELECT count(*) FROM sync_runs WHERE resource = '\(elsewhere)'")) == (Int(runs) ?? 0) + 1)
        #expect(copy("SELECT count(*) FROM sync_runs WHERE agent IS NULL") == "0")

        // kill -9 of the agent holding the most: the others take its resources
        // and sync them within an interval plus the lease time.
        let held = copy(
            "SELECT owner FROM leases WHERE expires_at > now() GROUP BY owner ORDER BY count(*) DESC LIMIT 1")
        let pid = Int32(held.split(separator: ":")[1]) ?? 0
        let victim = try #require(agents.firstIndex { $0.process.pid == pid }, "no agent has pid \(pid) (\(held))")
        let orphans = copy("SELECT resource FROM leases WHERE owner = '\(held)' ORDER BY resource")
            .split(separator: "\n").map { "'\($0)'" }.joined(separator: ", ")
        agents[victim].process.send(SIGKILL)
        let killed = ContinuousClock.now
        let killedAt = copy("SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS.MS')")
        #expect(
            try await eventually(timeout: .seconds(30)) {
                copy(
                    """
                    SELECT count(*) FROM leases WHERE resource IN (\(orphans)) AND owner <> '\(held)'
                      AND expires_at > now()
                    """) == "\(orphans.split(separator: ",").count)"
                    && copy(
                        """
                        SELECT count(*) FROM resources WHERE name IN (\(orphans))
                          AND last_success_at > '\(killedAt)'::timestamp AT TIME ZONE 'UTC'
                        """) == "\(orphans.split(separator: ",").count)"
            })
        let takeover = killed.duration(to: .now)
        let bound = Duration.seconds(Self.interval + Self.leaseTime + Self.leaseTime / 3 + 2)
        #expect(takeover <= bound, "taken over in \(takeover), bound \(bound)")
        #expect(owners().count == 2 && owners().values.reduce(0, +) == 30, "\(owners())")
    }
}
