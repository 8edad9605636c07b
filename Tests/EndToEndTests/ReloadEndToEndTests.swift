import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Reloading the running agent's configuration (docs/systemd.md#reloading):
/// SIGHUP, `sync-agent reload` and `POST /v1/reload`.
@Suite(.timeLimit(.minutes(5))) struct ReloadEndToEndTests {
    /// A configuration of these resources, each an upstream collection of the same name.
    func config(_ upstream: TestUpstream, _ resources: [(name: String, extra: String)], top: String = "") -> String {
        let list = resources.map {
            upstream.resource(
                $0.name, style: "page", collection: $0.name, extra: #""interval": "1h""# + $0.extra)
        }
        return #"{\#(top)"defaults": {"timeout": "30s"}, "resources": [\#(list.joined(separator: ", "))]}"#
    }

    /// The names of the resources the agent shows, in order.
    func names(_ agent: RunningAgent) -> [String] {
        (agent.curl("GET", "/v1/status").json["resources"] as? [[String: Any]] ?? []).compactMap {
            $0["name"] as? String
        }
    }

    @Test func sighupAddsRemovesAndReplansWhileUnchangedResourcesKeepTheirSyncs() async throws {
        let upstream = try await TestUpstream.start(collections: [
            "users": 30, "groups": 20, "orders": 40, "events": 50,
        ])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(config(upstream, [("users", ""), ("groups", ""), ("orders", "")]))
        let notify = try NotifyReceiver(address: workspace.folder + "/notify.sock")
        let agent = try await RunningAgent.start(in: workspace, environment: ["NOTIFY_SOCKET": notify.address])
        #expect(try await eventually { names(agent).count == 3 && agent.state(of: "orders") == "idle" })
        #expect(try await eventually { agent.state(of: "users") == "idle" && agent.state(of: "groups") == "idle" })

        // A refresh of groups is in flight (its page takes 3 s) while the configuration changes.
        upstream.inject(Fault(path: "/page/groups", times: 1, delay: .seconds(3)))
        let refresh = Task { agent.curl("POST", "/v1/resources/groups/refresh") }
        #expect(try await eventually { agent.state(of: "groups") == "syncing" })
        try workspace.writeConfig(
            config(upstream, [("groups", ""), ("orders", #", "query": {"status": "open"}"#), ("events", "")]))
        upstream.clearRequests()
        agent.process.send(SIGHUP)

        #expect(
            try await eventually {
                agent.process.stderrSoFar.contains(
                    "SIGHUP: reloaded \(workspace.configPath): 1 added (events), 1 removed (users), 1 changed (orders)")
            }, "\(agent.process.stderrSoFar)")
        #expect(names(agent) == ["groups", "orders", "events"])
        // The added one syncs, the changed one syncs at once with its new query (its
        // records were fetched with the old one), the removed one's records stay.
        #expect(try await eventually { agent.state(of: "events") == "idle" })
        #expect(
            try await eventually {
                upstream.requests.contains { $0.path == "/page/orders" && $0.query.contains("status=open") }
            })
        #expect(try workspace.records("users").count == 30)
        // The unchanged one's sync went on, and answered its refresh.
        let answer = await refresh.value
        #expect(answer.status == 200)
        #expect(["success", "notModified"].contains(answer.json["outcome"] as? String), "\(answer.body)")
        // systemd heard of the reload, then that the agent is ready again.
        let texts = notify.messages.map(\.text)
        let reloading = try #require(texts.firstIndex(of: "RELOADING=1"))
        #expect(texts[reloading + 1].hasPrefix("MONOTONIC_USEC="))
        #expect(texts[reloading...].contains("READY=1"))
        _ = try await agent.stop()
    }

    @Test func anInvalidFileOrOneNeedingARestartIsRefusedAndTheAgentGoesOn() async throws {
        let upstream = try await TestUpstream.start(collections: ["users": 10])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let valid = config(upstream, [("users", "")])
        try workspace.writeConfig(valid)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { agent.state(of: "users") == "idle" })

        // Nothing changed.
        let same = try await workspace.run(["reload"])
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == "reloaded \(workspace.configPath): nothing changed\n")

        // Invalid: the command tells every problem, as the agent does for
        // SIGHUP, and the agent goes on as it was.
        try workspace.writeConfig(#"{"resources": [{"name": "users", "url": "ftp://x", "intervall": "1m"}]}"#)
        let invalid = try await workspace.run(["reload"])
        #expect(invalid.status == 78, "\(invalid.stderr)")
        #expect(invalid.stderr.contains("resources[0].intervall: unknown key"), "\(invalid.stderr)")
        #expect(invalid.stderr.contains("resources[0].key: is required"), "\(invalid.stderr)")
        agent.process.send(SIGHUP)
        #expect(
            try await eventually {
                agent.process.stderrSoFar.contains("is not loaded; the agent goes on with the one it has")
                    && agent.process.stderrSoFar.contains("resources[0].intervall: unknown key")
            })
        #expect(names(agent) == ["users"])

        // A new database takes a restart: the endpoint answers 422 with the problem.
        try workspace.writeConfig(config(upstream, [("users", "")], top: #""database": "other.db", "#))
        let refused = agent.curl("POST", "/v1/reload")
        #expect(refused.status == 422)
        let error = refused.json["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalid_config")
        #expect(
            (error?["problems"] as? [String]) == ["database: changed; this takes a restart, not a reload"],
            "\(refused.body)")
        #expect(agent.state(of: "users") == "idle")

        _ = try await agent.stop()
        try workspace.writeConfig(valid)
        let notRunning = try await workspace.run(["reload"])
        #expect(notRunning.status == 3, "\(notRunning.stderr)")
    }
}
