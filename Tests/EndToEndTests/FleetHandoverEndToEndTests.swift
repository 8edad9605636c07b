import DemoUpstream
import Foundation
import TestServers
import TestUpstream
import Testing

/// Exactly one agent at a time, at handovers too (docs/fleet.md#handovers):
/// real agents on one PostgreSQL schema, each request carrying its agent's
/// name, and the upstream recording when each was in flight, while leases
/// move as a second agent joins, then a third, then the first leaves.
@Suite(.serialized, .timeLimit(.minutes(3))) struct FleetHandoverEndToEndTests {
    static let count = 30

    /// The resources, the same for every agent but the header naming it; one
    /// page each, polled every second, each request answered after 400 ms so
    /// that a sync is in flight most of the time a lease moves.
    static func resources(_ upstream: TestUpstream, agent: String) -> [String] {
        (1...count).map { index in
            #"""
            {"name": "r\#(index)", "url": "\#(upstream.baseURL)/page/items?tenant=\#(index)", "items": "/data",
             "key": "/id", "pagination": {"style": "page", "size": 100}, "interval": "1s",
             "headers": {"X-Agent": "\#(agent)"}}
            """#
        }
    }

    /// One request as the upstream saw it: the resource, the agent, when it was in flight.
    struct Flight: CustomStringConvertible {
        var resource: Int
        var agent: String
        var arrived: ContinuousClock.Instant
        var ended: ContinuousClock.Instant

        var description: String { "r\(resource) by \(agent) \(arrived)…\(ended)" }
    }

    static func flights(_ upstream: TestUpstream) -> [Flight] {
        upstream.exchanges.compactMap { exchange in
            let request = exchange.request
            guard let agent = request.headers["x-agent"],
                let tenant = request.query.split(separator: "&").first(where: { $0.hasPrefix("tenant=") }),
                let resource = Int(tenant.dropFirst("tenant=".count))
            else { return nil }
            return Flight(resource: resource, agent: agent, arrived: request.arrived, ended: exchange.ended)
        }
    }

    /// Pairs of requests of two agents for one resource in flight at the same time.
    static func overlaps(_ flights: [Flight]) -> [(Flight, Flight)] {
        var found: [(Flight, Flight)] = []
        for (_, group) in Dictionary(grouping: flights, by: \.resource) {
            let sorted = group.sorted { $0.arrived < $1.arrived }
            for (index, earlier) in sorted.enumerated() {
                for later in sorted[(index + 1)...] {
                    guard later.arrived < earlier.ended else { break }
                    if later.agent != earlier.agent { found.append((earlier, later)) }
                }
            }
        }
        return found
    }

    @Test func noResourceHasRequestsOfTwoAgentsInFlightAtOnceAsLeasesMove() async throws {
        let cluster = try await PostgresCluster.shared()
        let database = try cluster.createDatabase(prefix: "handover")
        let upstream = try await TestUpstream.start(collections: ["items": 20])
        defer { Task { await upstream.stop() } }
        upstream.inject(Fault(path: "/page/items", delay: .milliseconds(1200)))
        func copy(_ sql: String) -> String {
            ((try? cluster.psql(sql, database: database, schema: "fleet")) ?? "").trimmingCharacters(in: .newlines)
        }
        var agents: [String: RunningAgent] = [:]
        defer { for agent in agents.values { agent.process.send(SIGKILL) } }
        func start(_ name: String) async throws {
            let workspace = try Workspace()
            try workspace.writeConfig(
                resources: Self.resources(upstream, agent: name),
                extra: #"""
                    "store": {"type": "postgres", "url": "\#(cluster.url(database: database))", "schema": "fleet",
                              "leaseTime": "3s"},
                    """#)
            agents[name] = try await RunningAgent.start(in: workspace)
        }
        /// The live leases each agent holds, by the agent's name.
        func shares() -> [String: Int] {
            var counts: [String: Int] = [:]
            for line in copy("SELECT owner, count(*) FROM leases WHERE expires_at > now() GROUP BY owner")
                .split(separator: "\n")
            {
                let fields = line.split(separator: "\t")
                guard fields.count == 2, let held = Int(fields[1]),
                    let name = agents.first(where: { fields[0].contains(":\($0.value.process.pid):") })?.key
                else { continue }
                counts[name] = held
            }
            return counts
        }

        try await start("a")
        #expect(
            try await eventually(timeout: .seconds(60)) {
                copy("SELECT count(*) FROM resources WHERE last_success_at IS NOT NULL") == "\(Self.count)"
                    && shares() == ["a": 30]
            }, "\(shares())")
        // A second agent joins: half the leases move to it; then a third: a third each.
        try await start("b")
        #expect(try await eventually(timeout: .seconds(60)) { shares() == ["a": 15, "b": 15] }, "\(shares())")
        try await start("c")
        #expect(
            try await eventually(timeout: .seconds(60)) { shares() == ["a": 10, "b": 10, "c": 10] }, "\(shares())")
        // The first leaves: the other two take its leases.
        let removed = agents.removeValue(forKey: "a")
        let leaving = try #require(removed)
        leaving.process.send(SIGTERM)
        _ = try await leaving.process.finish()
        #expect(try await eventually(timeout: .seconds(60)) { shares() == ["b": 15, "c": 15] }, "\(shares())")
        // Every resource synced since by one of them.
        let left = ContinuousClock.now
        #expect(
            try await eventually(timeout: .seconds(60)) {
                Set(Self.flights(upstream).filter { $0.agent != "a" && $0.arrived > left }.map(\.resource)).count
                    == Self.count
            })
        for agent in agents.values { agent.process.send(SIGTERM) }
        for agent in agents.values { _ = try await agent.process.finish() }
        agents = [:]

        let flights = Self.flights(upstream)
        // The leases did move: most resources were synced by more than one agent.
        let handedOver = Dictionary(grouping: flights, by: \.resource).values.filter { Set($0.map(\.agent)).count > 1 }
        #expect(handedOver.count >= 20, "\(handedOver.count) resources changed hands")
        let overlaps = Self.overlaps(flights)
        #expect(overlaps.isEmpty, "\(overlaps.count) overlaps of \(flights.count) requests: \(overlaps.prefix(5))")
    }
}
