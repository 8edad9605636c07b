import DemoUpstream
import Foundation
import TestServers
import TestUpstream
import Testing

/// The HTTP listener, the metrics, the dashboard and the JSON logs as an
/// operator meets them (docs/observability.md): the real binary, curl over
/// TCP, Prometheus's own `promtool`.
@Suite(.timeLimit(.minutes(5))) struct ObservabilityEndToEndTests {
    static let token = "5b0e3d1f9c7a4e2b8d6f0a1c"

    /// An agent syncing `items` (and `extra` resources), with an HTTP listener
    /// on a free loopback port: `http` members spliced into `"http"`.
    func start(
        upstream: TestUpstream, http: String, extra: [String] = [], logFormat: String = "text",
        interval: String = "1h"
    ) async throws -> (RunningAgent, String) {
        let workspace = try Workspace()
        let port = unusedLoopbackPort()
        let credentials = try workspace.writeCredential("http-token", Self.token)
        try workspace.writeConfig(
            resources: [upstream.resource("items", style: "page", extra: #""interval": "\#(interval)""#)] + extra,
            extra: #""http": {"listen": "127.0.0.1:\#(port)"\#(http)}, "logFormat": "\#(logFormat)","#)
        let agent = try await RunningAgent.start(
            in: workspace, environment: ["CREDENTIALS_DIRECTORY": credentials])
        let base = "http://127.0.0.1:\(port)"
        // Both listeners are bound before READY=1; the socket may answer a moment first.
        #expect(try await eventually { RunningAgent.curl("GET", base + "/healthz").status == 200 })
        return (agent, base)
    }

    @Test func theListenerServesHealthStatusAndMetricsAndRefreshesOnlyWithTheToken() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        let (agent, base) = try await start(
            upstream: upstream, http: #", "control": true, "token": "${credential:http-token}""#)

        #expect(try await eventually { agent.state(of: "items") == "idle" })
        let ready = RunningAgent.curl("GET", base + "/readyz")
        #expect(ready.status == 200 && ready.json["status"] as? String == "ready", "\(ready.body)")
        let status = RunningAgent.curl("GET", base + "/v1/status")
        #expect((status.json["resources"] as? [[String: Any]])?.first?["items"] as? Int == 30)
        #expect(RunningAgent.curl("GET", base + "/v1/resources/items").json["state"] as? String == "idle")

        // A page of another site whose name was rebound to 127.0.0.1 reads nothing.
        let rebound = RunningAgent.curl("GET", base + "/v1/status", headers: ["Host: rebound.example.com"])
        #expect(rebound.status == 403 && rebound.body.contains("forbidden_host"), "\(rebound.body)")

        // Nothing changes without the token.
        let requests = upstream.requests.count
        let refresh = base + "/v1/resources/items/refresh"
        let missing = RunningAgent.curl("POST", refresh)
        #expect(missing.status == 401 && missing.body.contains("Authorization: Bearer TOKEN"), "\(missing.body)")
        #expect(RunningAgent.curl("POST", refresh, headers: ["Authorization: Bearer \(Self.token)x"]).status == 401)
        #expect(RunningAgent.curl("POST", base + "/v1/reload").status == 401)
        #expect(upstream.requests.count == requests)
        let refreshed = RunningAgent.curl("POST", refresh, headers: ["Authorization: Bearer \(Self.token)"])
        #expect(refreshed.status == 200 && refreshed.json["resource"] as? String == "items", "\(refreshed.body)")
        #expect(upstream.requests.count > requests)

        // The history behind the page's sparklines, newest first.
        let runs = RunningAgent.curl("GET", base + "/v1/resources/items/runs?limit=5").json["runs"] as? [[String: Any]]
        #expect(runs?.map { $0["trigger"] as? String } == ["refresh", "startup"])

        // The metrics pass Prometheus's checker and count what happened.
        let metrics = RunningAgent.curl("GET", base + "/metrics")
        #expect(metrics.status == 200)
        #expect(try Promtool.problems(inMetrics: metrics.body) == "")
        #expect(metrics.body.contains(#"sync_agent_syncs_total{resource="items",outcome="success"} 1"#))
        #expect(metrics.body.contains(#"sync_agent_resources{state="idle"} 1"#))
        #expect(metrics.body.contains(#"sync_agent_records_changed_total{resource="items",op="insert"} 30"#))
        #expect(metrics.body.contains(#"status="200",status_class="2xx"}"#))

        // The event stream, over TCP as on the socket.
        let events = RunningAgent.curl("GET", base + "/v1/events", maxTime: 1)
        #expect(events.body.contains("event: resource"))
        // The page, self-contained.
        let page = RunningAgent.curl("GET", base + "/")
        #expect(page.status == 200 && page.body.contains(#"<tr data-resource="items""#))
        #expect(try await agent.stop().status == 0)
    }

    @Test func everyMetricTheDashboardQueriesIsServed() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let (agent, base) = try await start(upstream: upstream, http: "")
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        let metrics = RunningAgent.curl("GET", base + "/metrics").body
        let served = Set(
            metrics.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap {
                $0.split(whereSeparator: { $0 == "{" || $0 == " " }).first.map(String.init)
            })

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let dashboard = try Data(contentsOf: root.appendingPathComponent("dist/grafana/sync-agent.json"))
        var queries: [String] = []
        func collect(_ value: Any) {
            if let object = value as? [String: Any] {
                for (key, member) in object {
                    if ["expr", "query", "definition"].contains(key), let text = member as? String {
                        queries.append(text)
                    } else {
                        collect(member)
                    }
                }
            } else if let array = value as? [Any] {
                array.forEach(collect)
            }
        }
        collect(try JSONSerialization.jsonObject(with: dashboard))
        let expression = try Regex("sync_agent_[a-z_]+")
        let queried = Set(queries.flatMap { $0.matches(of: expression).map { String($0.output[0].substring!) } })
        #expect(queries.count >= 10, "the dashboard's queries: \(queries)")
        #expect(queried.count >= 12, "\(queried.sorted())")
        #expect(queried.subtracting(served).isEmpty, "queried but not served: \(queried.subtracting(served).sorted())")

        // Every panel's query is PromQL that Prometheus parses (its variables filled in as Grafana does).
        let expressions = queries.filter { !$0.hasPrefix("label_values(") }.map {
            $0.replacingOccurrences(of: "$__rate_interval", with: "1m").replacingOccurrences(
                of: "$instance", with: ".*"
            )
            .replacingOccurrences(of: "$resource", with: ".*")
        }
        let rules: [String: Any] = [
            "groups": [
                [
                    "name": "dashboard",
                    "rules": expressions.enumerated().map {
                        ["record": "dashboard:query\($0.offset)", "expr": $0.element]
                    },
                ]
            ]
        ]
        let rulesFile = agent.workspace.folder + "/dashboard-rules.json"
        try JSONSerialization.data(withJSONObject: rules).write(to: URL(fileURLWithPath: rulesFile))
        let checked = try Promtool.run(["check", "rules", rulesFile])
        #expect(checked.status == 0, "\(checked.output)")
        #expect(try await agent.stop().status == 0)
    }

    @Test func aReadOnlyListenerOnEveryInterfaceIsWarnedOfAndChangesNothing() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let port = unusedLoopbackPort()
        try workspace.writeConfig(
            resources: [upstream.resource("items", style: "page")], extra: #""http": {"listen": "0.0.0.0:\#(port)"},"#)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        #expect(try await eventually { RunningAgent.curl("GET", "http://127.0.0.1:\(port)/healthz").status == 200 })
        let requests = upstream.requests.count
        let refused = RunningAgent.curl(
            "POST", "http://127.0.0.1:\(port)/v1/refresh", headers: ["Authorization: Bearer \(Self.token)"])
        #expect(refused.status == 403 && refused.body.contains("read_only"), "\(refused.body)")
        #expect(upstream.requests.count == requests)
        #expect(RunningAgent.curl("GET", "http://127.0.0.1:\(port)/metrics").status == 200)
        let output = try await agent.stop()
        #expect(output.stderr.contains("can be reached from other machines"), "\(output.stderr)")
        #expect(output.stderr.contains("listening on http://0.0.0.0:\(port) (read-only)"))
    }

    @Test func theListenerHasTheSocketsBoundsInAPoolOfItsOwn() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let port = unusedLoopbackPort()
        try workspace.writeConfig(
            resources: [upstream.resource("items", style: "page")], extra: #""http": {"listen": "127.0.0.1:\#(port)"},"#
        )
        // 128 open files: the socket takes 64 connections at most, the listener 32.
        let agent = try await RunningAgent.start(
            in: workspace, wrapper: ["/usr/bin/prlimit", "--nofile=128:128", "--"])
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        #expect(try await eventually { RunningAgent.curl("GET", "http://127.0.0.1:\(port)/healthz").status == 200 })

        let opened = ContinuousClock.now
        let connections = try (0..<33).map { _ in try RawConnection(tcpPort: port) }
        let refused = try await RawConnection.closedAtOnce(among: connections)
        #expect(!refused.isEmpty)
        #expect(refused.count == 1)
        let answer = refused.first?.read(for: .zero).text ?? ""
        #expect(answer.hasPrefix("HTTP/1.1 503") && answer.contains("too_many_connections"), "\(answer)")
        // The socket's pool is its own: it answers while the listener is full.
        #expect(agent.curl("GET", "/v1/status").status == 200)

        // A body past 64 KiB is refused unread (on a connection of the socket's pool).
        let large = String(repeating: "x", count: 70 * 1024)
        let tooLarge = agent.curl("POST", "/v1/refresh", options: ["--data-binary", large])
        #expect(tooLarge.status == 413)

        // The idle ones are closed after the read timeout (10 s), and the listener answers again.
        for connection in connections where !refused.contains(where: { $0 === connection }) {
            let (text, closed) = connection.read(for: .seconds(30))
            #expect(closed && text.isEmpty, "\(text)")
        }
        #expect(ContinuousClock.now - opened >= .seconds(9))
        #expect(RunningAgent.curl("GET", "http://127.0.0.1:\(port)/healthz").status == 200)
        let tcpTooLarge = RunningAgent.curl(
            "POST", "http://127.0.0.1:\(port)/v1/refresh", options: ["--data-binary", large])
        #expect(tcpTooLarge.status == 413, "\(tcpTooLarge.body)")
        let log = agent.process.stderrSoFar
        #expect(log.contains("the HTTP listener has 32 connections open, the most it takes"), "\(log)")
        #expect(log.contains("the HTTP listener takes connections again (refused 1 while full)"), "\(log)")
        _ = try await agent.stop()
    }

    @Test func aListenerThatCannotListenStopsTheAgentWithOneSentence() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        // The upstream's own port: taken.
        try workspace.writeConfig(
            resources: [upstream.resource("items", style: "page")],
            extra: #""http": {"listen": "127.0.0.1:\#(upstream.port)"},"#)
        let result = try await workspace.run(["run"])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                #"cannot listen on http://127.0.0.1:\#(upstream.port) ("http"."listen"): the address is in use"#),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: workspace.folder + "/sync-agent.sock"))
        // Checked before anything starts: no sync, no database.
        #expect(upstream.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: workspace.databasePath))
    }

    @Test func jsonLogsAreOneObjectPerLineWithEachSyncsFields() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5, "gone": 1])
        defer { Task { await upstream.stop() } }
        upstream.inject(Fault(path: "/page/gone", action: .status(404)))
        let (agent, _) = try await start(
            upstream: upstream, http: "", extra: [upstream.resource("gone", style: "page", collection: "gone")],
            logFormat: "json")
        #expect(try await eventually { agent.state(of: "items") == "idle" && agent.state(of: "gone") == "failed" })
        let output = try await agent.stop()

        let lines = output.stderr.split(separator: "\n")
        #expect(lines.count >= 4)
        let objects = lines.compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        #expect(objects.count == lines.count, "not JSON: \(lines.filter { !$0.hasPrefix("{") })")
        #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String })
        let synced = try #require(objects.first { ($0["message"] as? String)?.hasPrefix("synced") == true })
        #expect(synced["resource"] as? String == "items" && synced["outcome"] as? String == "success")
        #expect(synced["sync_id"] is Int && synced["attempt"] as? Int == 1 && synced["duration"] is Double)
        let failed = try #require(
            objects.first { $0["resource"] as? String == "gone" && $0["level"] as? String == "warning" })
        #expect(failed["outcome"] as? String == "failed" && failed["sync_id"] is Int, "\(failed)")
        #expect((failed["message"] as? String)?.contains("404") == true)
    }
}

/// A loopback port nothing listens on now.
func unusedLoopbackPort() -> Int {
    while true {
        // Below Linux's ephemeral ports (32768 on), which connections take.
        let port = Int.random(in: 10_000..<32_000)
        if !loopbackAccepts(port: port) { return port }
    }
}
