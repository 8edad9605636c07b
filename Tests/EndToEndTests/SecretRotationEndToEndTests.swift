import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// A credential rotated while the agent runs is sent from the next poll on
/// (docs/configuration.md#substitution-and-secrets).
@Suite(.timeLimit(.minutes(5))) struct SecretRotationEndToEndTests {
    @Test func aRotatedCredentialIsSentAtTheNextPollWithoutARestartOrAReloadAndNeverShown() async throws {
        let upstream = try await TestUpstream.start(collections: ["issues": 30])
        defer { Task { await upstream.stop() } }
        let old = "ghp-old-0a9b8c7d6e5f4a3b"
        let new = "ghp-new-1f2e3d4c5b6a7980"
        upstream.requireToken(old, for: .github)
        let workspace = try Workspace()
        let credentials = try workspace.writeCredential("github-token", old)
        try workspace.writeConfig(resources: [
            #"""
            {"name": "issues", "url": "\#(upstream.baseURL)/github/issues", "query": {"per_page": 50}, "key": "/id",
             "pagination": {"style": "link"}, "interval": "1s",
             "headers": {"Authorization": "Bearer ${credential:github-token}"}}
            """#
        ])
        let agent = try await RunningAgent.start(
            in: workspace, arguments: ["--log-level", "trace"], environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(try await eventually { agent.state(of: "issues") == "idle" })
        func sent(_ token: String) -> [SeenRequest] {
            upstream.requests.filter { $0.headers["authorization"] == "Bearer \(token)" }
        }

        // While a poll is in flight (its answer held for 2 s), the API takes
        // the new token instead of the old, and the credential file is
        // rewritten in place: no poll can start meanwhile.
        let before = upstream.requests.count
        upstream.inject(Fault(path: "/github/issues", times: 1, delay: .seconds(2)))
        #expect(try await eventually { upstream.requests.count > before })
        upstream.requireToken(new, for: .github)
        _ = try workspace.writeCredential("github-token", new)

        // The next poll sends the new token, and the one after it too.
        #expect(try await eventually { sent(new).count >= 2 }, "\(agent.process.stderrSoFar)")
        let stderr = agent.process.stderrSoFar
        #expect(stderr.contains("read the secrets again: \(credentials)/github-token changed"), "\(stderr)")
        #expect(!stderr.contains("reloaded"))
        // Every request was answered: the old token until the rotation, the new one after.
        #expect(
            upstream.requests.allSatisfy { [old, new].map { "Bearer \($0)" }.contains($0.headers["authorization"]) })
        let lastOld = try #require(sent(old).last?.arrived)
        #expect(sent(new).allSatisfy { $0.arrived > lastOld })
        let status = try await workspace.run(["status", "--json"])
        let history = try await workspace.run(["history", "--json"])
        #expect(status.status == 0 && history.status == 0, "\(status.stderr)\(history.stderr)")
        let runs = try #require(
            (try JSONSerialization.jsonObject(with: Data(history.stdout.utf8)) as? [String: Any])?["runs"]
                as? [[String: Any]])
        #expect(runs.allSatisfy { ["success", "notModified"].contains($0["outcome"] as? String) }, "\(runs)")
        #expect(agent.state(of: "issues") == "idle")

        let stopped = try await agent.stop()
        // The agent ran all along.
        #expect(stopped.status == 0)
        for output in [stopped.stdout + stopped.stderr, status.stdout + status.stderr, history.stdout + history.stderr]
        {
            #expect(!output.contains(old) && !output.contains(new), "\(output)")
        }
    }

    @Test func credentialsWrittenInTheFileAreNeverShownEither() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        upstream.inject(Fault(path: "/page/items", action: .status(400)))
        let workspace = try Workspace()
        // Written as they are, not filled by ${…}: in the URL, a header and a query parameter.
        try workspace.writeConfig(resources: [
            #"""
            {"name": "items", "url": "http://sync:pw-literal-7788@\#(upstream.host):\#(upstream.port)/page/items?access_token=tok-literal-5566",
             "query": {"api_key": "key-literal-3344"}, "headers": {"X-Api-Key": "hdr-literal-1122"},
             "items": "/data", "key": "/id"}
            """#
        ])
        let refused = try await workspace.run(["refresh", "--json"])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("[access_token]"), "\(refused.stdout)")
        #expect(upstream.requests.first?.headers["x-api-key"] == "hdr-literal-1122")
        let history = try await workspace.run(["history", "items", "--json"])
        let status = try await workspace.run(["status", "--json"])
        let stored = try workspace.query("SELECT * FROM sync_runs").flatMap { $0 }.joined(separator: " ")
        for text in [refused.stdout, refused.stderr, history.stdout, status.stdout, stored] {
            #expect(!text.contains("-literal-"), "\(text)")
        }
    }
}
