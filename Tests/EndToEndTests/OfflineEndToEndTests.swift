import Foundation
import TestUpstream
import Testing

/// The agent in a network namespace whose link the test takes down and
/// brings back: the kernel's view sends it offline, and a probe brings it back.
@Suite(.timeLimit(.minutes(5))) struct OfflineEndToEndTests {
    @Test func aLostLinkPausesTheAgentAndItsReturnResumesTheSync() async throws {
        let namespace: NetworkNamespace
        do {
            namespace = try NetworkNamespace.create()
        } catch {
            try Test.cancel("skipped: this machine refuses network namespaces (\(error))")
        }
        defer { namespace.remove() }
        let upstream = try await TestUpstream.start(host: namespace.outerAddress, collections: ["items": 10])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"""
            {"connectivity": {"maxProbeInterval": "1s"},
             "defaults": {"interval": "2s", "timeout": "5s", "retry": {"maxAttempts": 2, "initialDelay": "100ms"}},
             "resources": [\#(upstream.resource("items", style: "page"))]}
            """#)
        let agent = try await RunningAgent.start(in: workspace, wrapper: namespace.wrapper)
        #expect(try await eventually { agent.curl("GET", "/v1/resources/items").json["items"] as? Int == 10 })

        #expect(namespace.disconnect() == nil)
        #expect(try await eventually { agent.state(of: "items") == "offline" })
        let status = agent.curl("GET", "/v1/status").json
        #expect((status["agent"] as? [String: Any])?["online"] as? Bool == false)
        // Polls are due every 2 s; none goes out while offline.
        upstream.clearRequests()
        try await Task.sleep(for: .seconds(5))
        #expect(upstream.requests.filter { $0.path == "/page/items" }.isEmpty)
        #expect(agent.state(of: "items") == "offline")

        let back = ContinuousClock.now
        #expect(namespace.connect() == nil)
        #expect(try await eventually { upstream.requests.contains { $0.path == "/page/items" } })
        let resumedAfter = try #require(upstream.requests.first?.arrived) - back
        // Overdue polls go within 2 s of the network's return (plus the test's own polling).
        #expect(resumedAfter < .seconds(3), "resumed after \(resumedAfter)")
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("offline"), "\(stopped.stderr)")
        #expect(stopped.stderr.contains("online again"), "\(stopped.stderr)")
    }
}
