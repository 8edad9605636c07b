import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// The control plane as operators use it: the event streams and metrics
/// with `curl --unix-socket`, many `refresh` processes joining one sync,
/// `status --watch`, secrets kept out of everything the agent says, and
/// `demo`.
@Suite(.timeLimit(.minutes(5))) struct ControlPlaneEndToEndTests {
    /// A workspace syncing the upstream's `items` in pages of 100; quick retries.
    func workspace(_ upstream: TestUpstream, slowAfter: String = "5s") throws -> Workspace {
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"""
            {"defaults": {"interval": "1h", "timeout": "30s", "slowAfter": "\#(slowAfter)",
                          "retry": {"maxAttempts": 3, "initialDelay": "100ms", "jitter": 0}},
             "resources": [\#(upstream.resource("items", style: "page"))]}
            """#)
        return workspace
    }

    /// An agent on such a workspace, once its startup sync of the 250 items is done.
    func syncedAgent(_ upstream: TestUpstream, slowAfter: String = "5s") async throws -> (RunningAgent, Workspace) {
        let workspace = try workspace(upstream, slowAfter: slowAfter)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { agent.curl("GET", "/v1/resources/items").json["items"] as? Int == 250 })
        return (agent, workspace)
    }

    func firstPages(_ upstream: TestUpstream) -> Int {
        upstream.requests.count { $0.path == "/page/items" && $0.query.hasPrefix("page=1&") }
    }

    /// The events of an event stream's text, as (name, data) pairs.
    func events(_ text: String) -> [(name: String, data: [String: Any])] {
        text.components(separatedBy: "\n\n").compactMap { block in
            let lines = block.split(separator: "\n")
            guard let name = lines.first(where: { $0.hasPrefix("event: ") })?.dropFirst(7),
                let data = lines.first(where: { $0.hasPrefix("data: ") })?.dropFirst(6),
                let object = try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
            else { return nil }
            return (String(name), object)
        }
    }

    @Test func twentyRefreshProcessesDuringOneSlowSyncMakeOneRequestAndAllSucceed() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, workspace) = try await syncedAgent(upstream)

        upstream.changeItems("items", ids: [3])
        upstream.clearRequests()
        // The sync's first page takes 10 s: long enough for every process to join.
        upstream.inject(Fault(path: "/page/items", query: "page=1&", times: 1, delay: .seconds(10)))
        let owner = Task.detached { agent.curl("POST", "/v1/resources/items/refresh") }
        #expect(try await eventually { firstPages(upstream) == 1 })
        let refreshes = try (0..<20).map { index in
            try workspace.start(["refresh", "items"] + (index.isMultiple(of: 2) ? ["--json"] : []))
        }
        var results: [ProcessResult] = []
        for refresh in refreshes { results.append(try await refresh.finish()) }
        let started = await owner.value

        #expect(started.json["joined"] as? Bool == false)
        #expect(results.allSatisfy { $0.status == 0 }, "\(results.map(\.stderr))")
        #expect(results.count { $0.stdout.contains(#""joined": true"#) } == 10, "\(results.map(\.stdout))")
        #expect(results.count { $0.stdout.contains("joined a sync in progress") } == 10)
        #expect(firstPages(upstream) == 1)
        #expect(try workspace.value("SELECT count(*) FROM sync_runs WHERE trigger = 'refresh'") == "1")
        let metrics = agent.curl("GET", "/metrics").body
        #expect(metrics.contains(#"sync_agent_joined_requests_total{resource="items"} 20"#), "\(metrics)")
        _ = try await agent.stop()
    }

    @Test func aRefreshStreamsRetrySlowProgressAndItsResult() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, _) = try await syncedAgent(upstream, slowAfter: "1s")

        upstream.changeItems("items", ids: [3])
        upstream.inject(Fault(path: "/page/items", query: "page=2&", times: 1, action: .status(503)))
        upstream.inject(Fault(path: "/page/items", query: "page=3&", times: 1, delay: .seconds(2)))
        let answer = agent.curl(
            "POST", "/v1/resources/items/refresh", headers: ["Accept: text/event-stream"])
        #expect(answer.status == 200)
        let events = events(answer.body)
        let names = events.map(\.name)
        #expect(names.first == "progress", "\(answer.body)")
        #expect(names.last == "result")
        #expect(names.count { $0 == "retry" } == 1)
        #expect(names.count { $0 == "slow" } == 1)
        let retry = try #require(events.first { $0.name == "retry" }?.data)
        #expect(retry["attempt"] as? Int == 2)
        #expect((retry["cause"] as? String)?.contains("503") == true)
        let slow = try #require(events.first { $0.name == "slow" }?.data)
        #expect(slow["message"] as? String == "taking longer than expected")
        let result = try #require(events.last?.data)
        #expect(result["outcome"] as? String == "success")
        #expect(result["attempts"] as? Int == 2)
        #expect(result["pages"] as? Int == 3)

        let metrics = agent.curl("GET", "/metrics")
        #expect(metrics.status == 200)
        for line in [
            #"sync_agent_syncs_total{resource="items",outcome="success"} 2"#,
            #"sync_agent_upstream_requests_total{resource="items",status="503",status_class="5xx"} 1"#,
            // Item 3 is on page 1: pages 2 and 3 are revalidated with a 304.
            #"sync_agent_upstream_requests_total{resource="items",status="200",status_class="2xx"} 4"#,
            #"sync_agent_upstream_requests_total{resource="items",status="304",status_class="3xx"} 2"#,
            #"sync_agent_syncs_in_flight{resource="items"} 0"#,
            #"sync_agent_sync_duration_seconds_count{resource="items"} 2"#,
            #"sync_agent_records{resource="items"} 250"#,
            "sync_agent_online 1",
        ] {
            #expect(metrics.body.contains(line + "\n"), "\(line)\n\(metrics.body)")
        }
        #expect(metrics.body.contains(#"sync_agent_last_success_timestamp_seconds{resource="items"} 1"#))
        _ = try await agent.stop()
    }

    /// Runs `sync-agent ARGUMENTS` on a terminal (a pseudo-terminal made by
    /// `script`) and returns what the terminal showed, both streams.
    func onTerminal(_ workspace: Workspace, _ arguments: [String]) throws -> (status: Int32, screen: String) {
        let command = ([AgentProcess.binary] + arguments + ["--config", workspace.configPath])
            .map { "'" + $0 + "'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["--quiet", "--return", "--command", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: workspace.folder)
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func onATerminalOnlyARefreshSlowerThan100msShowsALiveLine() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, workspace) = try await syncedAgent(upstream, slowAfter: "1s")

        // Not modified: done in a few milliseconds, so no line.
        let quick = try onTerminal(workspace, ["refresh", "items"])
        #expect(quick.status == 0, "\(quick.screen)")
        #expect(quick.screen.contains("not modified"), "\(quick.screen)")
        // Under a sanitizer (several times slower) a not-modified refresh can pass 100 ms.
        if Sanitizer.name == nil { #expect(!quick.screen.contains("syncing…"), "\(quick.screen)") }

        upstream.changeItems("items", ids: [3])
        // The retry waits 1 s (Retry-After), page 3 takes 2 s: the line shows both.
        upstream.inject(Fault(path: "/page/items", query: "page=2&", times: 1, action: .status(503, retryAfter: "1")))
        upstream.inject(Fault(path: "/page/items", query: "page=3&", times: 1, delay: .seconds(2)))
        let slow = try onTerminal(workspace, ["refresh", "items"])
        #expect(slow.status == 0, "\(slow.screen)")
        #expect(
            slow.screen.contains("\r\u{1B}[Ksyncing… items: 1 page, 100 items, retrying (attempt 2 of 3)"),
            "\(slow.screen)")
        #expect(
            slow.screen.contains("syncing… items: 2 pages, 200 items, taking longer than expected"), "\(slow.screen)")
        #expect(slow.screen.contains("3 pages, 250 items (0 new, 1 changed, 0 removed)"), "\(slow.screen)")
        _ = try await agent.stop()
    }

    @Test func statusWatchFollowsTheEventStreamUntilCtrlCOrTheAgentStops() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, workspace) = try await syncedAgent(upstream)

        // curl sees the snapshot: one `resource` event per resource.
        let snapshot = agent.curl("GET", "/v1/events", maxTime: 1)
        #expect(events(snapshot.body).map(\.name) == ["resource"], "\(snapshot.body)")
        #expect(events(snapshot.body).first?.data["state"] as? String == "idle")

        let interrupted = try workspace.start(["status", "--watch", "--json"])
        let followed = try workspace.start(["status", "--watch"])
        let states = {
            interrupted.stdoutSoFar.split(separator: "\n").compactMap { line in
                (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["state"] as? String
            }
        }
        // Each starts with the state the stream begins with: it is following.
        #expect(try await eventually { states() == ["idle"] }, "\(interrupted.stdoutSoFar)")
        #expect(try await eventually { followed.stdoutSoFar.contains(" items idle") }, "\(followed.stdoutSoFar)")

        upstream.changeItems("items", ids: [3])
        let refreshed = agent.curl("POST", "/v1/resources/items/refresh")
        #expect(refreshed.json["outcome"] as? String == "success")
        #expect(try await eventually { states().count >= 3 }, "\(interrupted.stdoutSoFar)")
        #expect(Array(states().prefix(3)) == ["idle", "syncing", "idle"], "\(interrupted.stdoutSoFar)")
        #expect(try await eventually { followed.stdoutSoFar.contains(" items syncing") }, "\(followed.stdoutSoFar)")

        interrupted.send(SIGINT)
        let stopped = try await interrupted.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")

        _ = try await agent.stop()
        let orphaned = try await followed.finish()
        #expect(orphaned.status == 3, "\(orphaned.stderr)")
        #expect(orphaned.stderr.contains("the agent stopped"))
    }

    @Test func secretsAppearInNothingTheRunningAgentSays() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let credential = "cred-0a9b8c7d6e5f"
        let token = "tok-6f5e4d3c2b1a"
        let credentials = try workspace.writeCredential("api-token", credential)
        try workspace.writeConfig(
            #"""
            {"defaults": {"interval": "1h", "slowAfter": "100ms",
                          "retry": {"maxAttempts": 2, "initialDelay": "100ms", "jitter": 0}},
             "resources": [
               {"name": "items", "url": "\#(upstream.baseURL)/page/items", "items": "/data", "key": "/id",
                "headers": {"Authorization": "Bearer ${credential:api-token}"}, "query": {"token": "${API_TOKEN}"},
                "pagination": {"style": "page", "size": 10}}]}
            """#)
        let environment = ["API_TOKEN": token, "CREDENTIALS_DIRECTORY": credentials]
        // The upstream echoes both secrets in its error bodies, as real APIs do.
        let echo = #"{"error": "bad token \#(token) for Bearer \#(credential)"}"#
        upstream.inject(
            Fault(path: "/page/items", query: "page=3", delay: .milliseconds(300), action: .status(400, body: echo)))
        let agent = try await RunningAgent.start(
            in: workspace, arguments: ["--log-level", "trace"], environment: environment)
        #expect(try await eventually { agent.state(of: "items") == "failed" })
        // The refresh through the agent retries page 2 and is slow on page 3.
        upstream.inject(Fault(path: "/page/items", query: "page=2", times: 1, action: .status(503, body: echo)))

        var outputs: [String] = []
        outputs.append(agent.curl("POST", "/v1/resources/items/refresh", headers: ["Accept: text/event-stream"]).body)
        outputs.append(agent.curl("GET", "/v1/status").body)
        outputs.append(agent.curl("GET", "/v1/events", maxTime: 1).body)
        outputs.append(agent.curl("GET", "/metrics").body)
        for command in [["refresh", "--json"], ["refresh"], ["status", "--json"], ["status"], ["validate"]] {
            let result = try await workspace.run(command + ["--log-level", "trace"], environment: environment)
            outputs.append(result.stdout + result.stderr)
        }
        // Without the secrets (outside the unit), the commands that talk to the
        // agent or read the database still work; a refresh of its own cannot.
        let status = try await workspace.run(["status"])
        #expect(status.status == 0, "\(status.stderr)")
        let throughAgent = try await workspace.run(["refresh", "--json"])
        #expect(throughAgent.status == 1, "\(throughAgent.stderr)")
        #expect(throughAgent.stdout.contains("400 Bad Request"), "\(throughAgent.stdout)")
        let history = try await workspace.run(["history"])
        #expect(history.status == 0, "\(history.stderr)")
        outputs += [status, throughAgent, history].map { $0.stdout + $0.stderr }

        let stopped = try await agent.stop()
        outputs.append(stopped.stdout + stopped.stderr)
        let alone = try await workspace.run(["refresh"])
        #expect(alone.status == 78, "\(alone.stderr)")
        #expect(alone.stderr.contains("API_TOKEN"), "\(alone.stderr)")

        // The secrets did reach the upstream…
        let sent = try #require(upstream.requests.first { $0.path == "/page/items" })
        #expect(sent.headers["authorization"] == "Bearer \(credential)")
        #expect(sent.query.contains("token=\(token)"))
        // …the answers and logs do tell of the failures…
        #expect(outputs[0].contains("event: retry") && outputs[0].contains("event: slow"), "\(outputs[0])")
        #expect(outputs[1].contains("400 Bad Request"), "\(outputs[1])")
        #expect(stopped.stderr.contains("bad token ${API_TOKEN} for Bearer ${credential:api-token}"))
        // …and never show a secret.
        for output in outputs {
            #expect(!output.contains(token), "\(output)")
            #expect(!output.contains(credential), "\(output)")
        }
    }

    @Test func anOversizeRequestBodyIsRefusedWithoutBeingRead() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, workspace) = try await syncedAgent(upstream, slowAfter: "5s")
        // 256 MiB, told by its length, then sent in chunks with none.
        let big = workspace.folder + "/big"
        _ = FileManager.default.createFile(atPath: big, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: big))
        try file.truncate(atOffset: 256 * 1024 * 1024)
        try file.close()
        for headers in [[String](), ["Transfer-Encoding: chunked"]] {
            let started = ContinuousClock.now
            let answer = agent.curl(
                "POST", "/v1/refresh", headers: headers + ["Content-Type: application/octet-stream"],
                options: ["--data-binary", "@" + big], maxTime: 30)
            #expect(answer.status == 413, "\(headers): \(answer.body)")
            #expect(answer.body.contains("too_large"), "\(answer.body)")
            #expect(ContinuousClock.now - started < .seconds(10), "\(headers)")
        }
        // It is still there, and still small.
        #expect(agent.curl("GET", "/v1/status").status == 200)
        let kib = ProcessFigures.residentKiB(agent.process.pid)
        #expect(kib > 0 && kib < 200 * 1024, "\(kib) KiB")
        _ = try await agent.stop()
    }

    @Test func theDemoShowsEveryBehaviourAndStopsWithExit0OnCtrlC() async throws {
        let folder = try Workspace()
        let demo = try AgentProcess.start(["demo", "--database", folder.databasePath], in: folder.folder)
        let output = { demo.stdoutSoFar }
        #expect(
            try await eventually(timeout: .seconds(60)) {
                let text = output()
                return text.contains("answered 503") && text.contains("answered 429")
                    && text.contains("taking longer than expected") && text.contains("my-team  synced")
                    && text.contains("catalog  synced") && text.contains("users    synced: 13 pages, 1200 items")
            }, "\(output())\n\(demo.stderrSoFar)")

        // The status page it names shows every resource, and the metrics count its syncs.
        let page = try #require(
            output().split(separator: "\n").first { $0.hasPrefix("  page ") }?.split(separator: " ").dropFirst().first
                .map(String.init), "\(output())")
        let html = RunningAgent.curl("GET", page)
        #expect(html.status == 200 && html.body.contains(#"<tr data-resource="my-team""#), "\(html.body)")
        #expect(RunningAgent.curl("GET", page + "metrics").body.contains(#"sync_agent_syncs_total{resource="users""#))

        // Meanwhile the other commands work with the demo's configuration.
        let status = try await AgentProcess.run(
            ["status", "-c", folder.folder + "/sync-agent.json"], in: folder.folder)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("my-team"), "\(status.stdout)")

        demo.send(SIGINT)
        let stopped = try await demo.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stdout.contains("Demo stopped."))
        #expect(!FileManager.default.fileExists(atPath: folder.folder + "/sync-agent.sock"))
        #expect(try folder.value("SELECT count(*) FROM records WHERE resource = 'users'") == "1200")
    }

    @Test func theDemoKeepsItsFilesInATemporaryFolderThatItRemoves() async throws {
        let workspace = try Workspace()
        let temporary = workspace.folder + "/tmp"
        let work = workspace.folder + "/work"
        for folder in [temporary, work] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        let demo = try AgentProcess.start(["demo"], environment: ["TMPDIR": temporary], in: work)
        #expect(
            try await eventually(timeout: .seconds(60)) { demo.stdoutSoFar.contains("me       synced") },
            "\(demo.stdoutSoFar)\n\(demo.stderrSoFar)")
        let made = try FileManager.default.contentsOfDirectory(atPath: temporary)
        let name = try #require(made.first { $0.hasPrefix("sync-agent-demo.") }, "\(made)")
        #expect(made.count == 1, "\(made)")
        let folder = temporary + "/" + name
        // It says where its files are, and the other commands work with them.
        #expect(demo.stdoutSoFar.contains("files     \(folder)    (a temporary folder"), "\(demo.stdoutSoFar)")
        let status = try await AgentProcess.run(["status", "-c", folder + "/demo.json"], in: work)
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("my-team"), "\(status.stdout)")

        demo.send(SIGINT)
        let stopped = try await demo.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stdout.contains("Its folder \(folder) is removed"), "\(stopped.stdout)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(try FileManager.default.contentsOfDirectory(atPath: work).isEmpty)
    }

    @Test func theDemoWithKeepLeavesItsDataInTheStateFolder() async throws {
        let workspace = try Workspace()
        let state = workspace.folder + "/state"
        let demo = try AgentProcess.start(
            ["demo", "--keep"], environment: ["XDG_STATE_HOME": state], in: workspace.folder)
        #expect(
            try await eventually(timeout: .seconds(60)) { demo.stdoutSoFar.contains("me       synced") },
            "\(demo.stdoutSoFar)\n\(demo.stderrSoFar)")
        demo.send(SIGINT)
        let stopped = try await demo.finish()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        let folder = state + "/sync-agent/demo"
        // Shown relative to the current folder, which holds the state folder here.
        #expect(stopped.stdout.contains("The data stays in state/sync-agent/demo/demo.db"), "\(stopped.stdout)")
        #expect(FileManager.default.fileExists(atPath: folder + "/demo.db"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/demo.sock"))
    }
}
