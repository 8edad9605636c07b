import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// `GET /v1/status` of the running agent while syncs run: it follows each one
/// as it goes, answers from the part of the body each resource had unless its
/// status changed, and never lags behind a refresh that has answered
/// (docs/architecture.md#status-under-load).
@Suite(.timeLimit(.minutes(3))) struct StatusEndToEndTests {
    /// Each resource of `status`, by name, in order.
    func resources(_ status: RunningAgent.Answer) -> [(name: String, object: [String: Any])] {
        ((status.json["resources"] as? [[String: Any]]) ?? []).map { ($0["name"] as? String ?? "", $0) }
    }

    @Test func theStatusFollowsEachSyncAsItProgresses() async throws {
        let upstream = try await TestUpstream.start(collections: ["a": 150, "b": 150, "c": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let entries = ["a", "b", "c"].map { upstream.resource($0, style: "page", collection: $0) }
        try workspace.writeConfig(
            #"""
            {"defaults": {"interval": "1h", "timeout": "30s", "retry": {"maxAttempts": 1}},
             "resources": [\#(entries.joined(separator: ","))]}
            """#)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(
            try await eventually {
                resources(agent.curl("GET", "/v1/status")).allSatisfy {
                    $0.object["state"] as? String == "idle" && $0.object["items"] as? Int == 150
                }
            })
        let before = Dictionary(
            uniqueKeysWithValues: resources(agent.curl("GET", "/v1/status")).map {
                ($0.name, $0.object["lastSuccessAt"] as? String ?? "")
            })

        // b grows, and its second page takes a while: the others end first.
        upstream.setCollection("b", count: 180)
        upstream.inject(Fault(path: "/page/b", query: "page=2", times: 1, delay: .seconds(4)))
        let refresh = Task.detached { agent.curl("POST", "/v1/refresh") }
        var seen: [[String]] = []
        #expect(
            try await eventually(timeout: .seconds(10)) {
                let shown = resources(agent.curl("GET", "/v1/status"))
                let states = shown.map { $0.object["state"] as? String ?? "" }
                if seen.last != states { seen.append(states) }
                guard shown.map(\.name) == ["a", "b", "c"] else { return false }
                let (a, b, c) = (shown[0].object, shown[1].object, shown[2].object)
                return b["state"] as? String == "syncing" && b["attempt"] as? Int == 1
                    && [a, c].allSatisfy {
                        $0["state"] as? String == "idle"
                            && ($0["lastSuccessAt"] as? String ?? "") > before[$0["name"] as? String ?? ""]!
                    }
            }, "\(seen)")

        // Once the refresh answers, the status shows its end: no answer lags behind it.
        let answered = await refresh.value
        #expect(answered.status == 200)
        let after = agent.curl("GET", "/v1/status")
        let b = try #require(resources(after).first { $0.name == "b" }?.object)
        #expect(b["state"] as? String == "idle")
        #expect(b["items"] as? Int == 180)
        #expect((b["lastSuccessAt"] as? String ?? "") > before["b"]!)
        // Every resource in the status is the one its own request answers.
        func canonical(_ object: [String: Any]) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        for (name, object) in resources(after) {
            let alone = agent.curl("GET", "/v1/resources/\(name)").json
            #expect(try canonical(alone) == canonical(object), "\(name)")
        }

        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }
}
