import DemoUpstream
import Foundation
import TestServers
import TestUpstream
import Testing

/// The real binary on a PostgreSQL schema, stopped with syncs in flight
/// (docs/systemd.md#what-the-unit-does, docs/fleet.md#staged-pages): SIGTERM ends it
/// with exit 0 within 10 s and removes its socket, and what an unfinished
/// sync staged does not stay, whether it was stopped or killed; a stop gives
/// back the pages of the empty `staging` too.
@Suite(.serialized, .timeLimit(.minutes(4))) struct PostgresStopsEndToEndTests {
    /// Two snapshot resources and an incremental one, each of whose syncs
    /// waits on its fifth page, so that every sync is in flight.
    static func workspace(
        _ cluster: PostgresCluster, _ upstream: TestUpstream
    ) throws -> (Workspace, database: String) {
        let database = try cluster.createDatabase(prefix: "e2e")
        let workspace = try Workspace()
        try workspace.writeConfig(
            resources: [
                upstream.resource("big", style: "page", collection: "big", size: 100, extra: #""interval": "1s""#),
                upstream.resource("small", style: "page", collection: "small", size: 50, extra: #""interval": "1s""#),
                #"""
                {"name": "log", "url": "\#(upstream.baseURL)/incremental/log", "items": "/data", "key": "/id",
                 "pagination": {"style": "page", "size": 50}, "interval": "1s",
                 "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since", "lookback": "1s"},
                 "deleted": {"pointer": "/deleted"}}
                """#,
            ],
            extra: #"""
                "store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "copy",
                          "leaseTime": "1s"},
                """#)
        return (workspace, database)
    }

    static func slowFifthPages(_ upstream: TestUpstream) {
        for path in ["/page/big", "/page/small", "/incremental/log"] {
            upstream.inject(Fault(path: path, query: "page=5&", delay: .seconds(60)))
        }
    }

    static func fifthPagesAsked(_ upstream: TestUpstream) -> Bool {
        ["/page/big", "/page/small", "/incremental/log"].allSatisfy { path in
            // The incremental resource's query begins with its `since` once it has one.
            upstream.requests.contains {
                $0.path == path && ($0.query.hasPrefix("page=5&") || $0.query.contains("&page=5&"))
            }
        }
    }

    @Test func sigtermWithEverySyncInFlightExits0Within10sRemovesTheSocketAndLeavesNothingStaged() async throws {
        let cluster = try await PostgresCluster.shared()
        let upstream = try await TestUpstream.start(collections: ["big": 3000, "small": 1000, "log": 1000])
        defer { Task { await upstream.stop() } }
        let (workspace, database) = try Self.workspace(cluster, upstream)
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "copy")) ?? "").trimmingCharacters(in: .newlines)
        }
        // Stopped at different moments: while the first pages are staged and applied, and once
        // every sync waits for its fifth page with four staged or committed.
        for round in 0..<4 {
            upstream.clearFaults()
            upstream.clearRequests()
            Self.slowFifthPages(upstream)
            let agent = try await RunningAgent.start(in: workspace)
            if round % 2 == 0 {
                #expect(
                    try await eventually(timeout: .seconds(60)) {
                        upstream.requests.contains { $0.path == "/page/big" && $0.query.hasPrefix("page=2&") }
                    }, "round \(round)")
            } else {
                #expect(
                    try await eventually(timeout: .seconds(60)) { Self.fifthPagesAsked(upstream) },
                    "round \(round): \(upstream.requests.map { "\($0.path)?\($0.query)" }.suffix(12))")
                #expect(Int(copy("SELECT count(*) FROM staging")) ?? 0 > 0, "round \(round)")
            }
            let signalled = ContinuousClock.now
            let stopped = try await agent.stop(timeout: .seconds(20))
            let took = ContinuousClock.now - signalled
            #expect(stopped.status == 0, "round \(round): \(stopped.stderr)")
            #expect(took < .seconds(10), "round \(round): \(took)")
            #expect(!stopped.stderr.contains("Fatal error"), "round \(round): \(stopped.stderr)")
            #expect(!FileManager.default.fileExists(atPath: agent.socketPath), "round \(round)")
            // The cancelled syncs rolled back and dropped what they staged; no lease is held.
            #expect(copy("SELECT count(*) FROM staging") == "0", "round \(round)")
            #expect(copy("SELECT count(*) FROM snapshots") == "0", "round \(round)")
            #expect(copy("SELECT count(*) FROM leases WHERE owner IS NOT NULL") == "0", "round \(round)")
            #expect(copy("SELECT count(*) FROM sync_runs WHERE finished_at IS NULL AND resource <> 'log'") == "0")
            // The agent closed its store as it stopped, which truncated the empty `staging`:
            // its pages went back to the file system, not only its rows.
            #expect(copy("SELECT pg_relation_size('staging')") == "0", "round \(round)")
        }
    }

    @Test func theStagedPagesOfAKilledAgentAreRemovedByTheNextSyncOfTheirResource() async throws {
        let cluster = try await PostgresCluster.shared()
        let upstream = try await TestUpstream.start(collections: ["big": 3000, "small": 1000, "log": 1000])
        defer { Task { await upstream.stop() } }
        let (workspace, database) = try Self.workspace(cluster, upstream)
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "copy")) ?? "").trimmingCharacters(in: .newlines)
        }
        Self.slowFifthPages(upstream)
        let killed = try await RunningAgent.start(in: workspace)
        #expect(try await eventually(timeout: .seconds(60)) { Self.fifthPagesAsked(upstream) })
        killed.process.send(SIGKILL)
        _ = try await killed.process.finish()
        let left = copy("SELECT count(*) FROM staging")
        #expect(Int(left) ?? 0 >= 400, "\(left)")
        #expect(copy("SELECT count(*) FROM snapshots") == "2")
        let ids = copy("SELECT string_agg(id::text, ',') FROM snapshots")

        // The next agent's first syncs of big and small remove the killed one's snapshots,
        // and apply their own.
        upstream.clearFaults()
        let restarted = try await RunningAgent.start(in: workspace)
        #expect(
            try await eventually(timeout: .seconds(60)) {
                copy("SELECT count(*) FROM records WHERE resource IN ('big', 'small')") == "4000"
            })
        #expect(
            try await eventually(timeout: .seconds(30)) {
                copy("SELECT count(*) FROM staging WHERE snapshot IN (\(ids))") == "0"
                    && copy("SELECT count(*) FROM snapshots WHERE id IN (\(ids))") == "0"
            })
        let stopped = try await restarted.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(copy("SELECT count(*) FROM staging") == "0")
        #expect(copy("SELECT count(*) FROM snapshots") == "0")
    }
}
