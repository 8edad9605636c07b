import Foundation
import TestUpstream
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Clients that misbehave on the status socket: event streams that are
/// never read, connections that send nothing, more connections than the
/// agent has files for (docs/api.md#connections).
@Suite(.serialized, .timeLimit(.minutes(5))) struct ConnectionsEndToEndTests {
    /// A workspace of `count` small resources on the upstream's `items`, polled every `interval`.
    func workspace(_ upstream: TestUpstream, count: Int, interval: String) throws -> Workspace {
        let workspace = try Workspace()
        try workspace.writeConfig(
            resources: (0..<count).map {
                upstream.resource("r\($0)", style: "all", extra: #""interval": "\#(interval)""#)
            })
        return workspace
    }

    /// Whether every resource of the agent is idle.
    func allIdle(_ agent: RunningAgent) -> Bool {
        let resources = agent.curl("GET", "/v1/status").json["resources"] as? [[String: Any]] ?? []
        return !resources.isEmpty && resources.allSatisfy { $0["state"] as? String == "idle" }
    }

    @Test func eventClientsThatNeverReadAreCutOffAndTheirMemoryIsGivenBack() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream, count: 40, interval: "1h")
        let agent = try await RunningAgent.start(in: workspace)
        let pid = agent.process.pid
        #expect(try await eventually { allIdle(agent) })
        // More rounds of changes before the clients come than it takes to
        // cut them off (16 to 18), so the figures compare an agent that has
        // already done this work and differ by the clients alone.
        for _ in 0..<30 { _ = agent.curl("POST", "/v1/refresh") }
        let before = ProcessFigures.residentKiB(pid)
        let folder = URL(fileURLWithPath: agent.socketPath).deletingLastPathComponent().path
        let accepted = { ProcessFigures.acceptedConnections(in: folder) }
        #expect(try await eventually { accepted() == 0 })

        let clients = try (0..<10).map { _ in try RawConnection(path: agent.socketPath, receiveBuffer: 4096) }
        for client in clients { client.send("GET /v1/events HTTP/1.1\r\nHost: agent\r\n\r\n") }
        #expect(try await eventually(timeout: .seconds(60)) { accepted() == clients.count }, "\(accepted())")
        // Each refresh of everything is 80 changes: the clients fall behind
        // until the agent cuts them off.
        var rounds = 0
        var peak = before
        let cutOff = try await eventually(timeout: .seconds(120)) {
            // Read before the next refresh, whose own connection the agent closes in a moment.
            if accepted() == 0 { return true }
            _ = agent.curl("POST", "/v1/refresh")
            rounds += 1
            peak = max(peak, ProcessFigures.residentKiB(pid))
            return false
        }
        let after = ProcessFigures.residentKiB(pid)
        print("stuck event clients: \(rounds) rounds; RSS \(before) KiB before, \(peak) at most, \(after) after")
        #expect(cutOff, "\(accepted()) of the \(clients.count) clients still connected")
        // A sanitizer's allocator keeps freed memory for a while (its quarantine) and
        // its shadow memory grows with the heap: the figure means nothing there.
        if Sanitizer.name == nil {
            #expect(after - before < 6 * 1024, "RSS \(before) KiB before, \(after) KiB after")
        }
        // A client that connects now gets everything, as usual.
        let fresh = agent.curl("GET", "/v1/events", maxTime: 1)
        #expect(fresh.body.components(separatedBy: "event: resource").count - 1 == 40, "\(fresh.body)")
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }

    @Test func pastTheCapConnectionsAreRefusedAtOnceAndIdleOnesAreClosed() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream, count: 1, interval: "1s")
        // 128 open files: the socket takes 64 connections at most.
        let agent = try await RunningAgent.start(
            in: workspace, wrapper: ["/usr/bin/prlimit", "--nofile=128:128", "--"])
        let pid = agent.process.pid
        #expect(try await eventually { allIdle(agent) })
        let cpu = ProcessFigures.cpuSeconds(pid)
        let opened = ContinuousClock.now

        // The agent takes connections on two threads, so which one comes
        // 65th is not known: one of them is refused at once.
        let connections = try (0..<65).map { _ in try RawConnection(path: agent.socketPath) }
        let refused = try await RawConnection.closedAtOnce(among: connections)
        #expect(!refused.isEmpty)
        #expect(refused.count == 1)
        let answer = refused.first?.read(for: .zero).text ?? ""
        #expect(answer.hasPrefix("HTTP/1.1 503"), "\(answer)")
        #expect(answer.contains("too_many_connections"), "\(answer)")
        // Syncs go on meanwhile: the agent has files to spare for them.
        upstream.clearRequests()
        #expect(try await eventually { upstream.requestCount(path: "/all/items") >= 2 })

        // The idle ones are closed after the read timeout (10 s), and the socket answers again.
        for connection in connections where !refused.contains(where: { $0 === connection }) {
            let (text, closed) = connection.read(for: .seconds(30))
            #expect(closed && text.isEmpty, "\(text)")
        }
        let waited = ContinuousClock.now - opened
        #expect(waited >= .seconds(9), "closed after \(waited)")
        #expect(agent.curl("GET", "/v1/status").status == 200)
        let used = ProcessFigures.cpuSeconds(pid) - cpu
        print("65 connections on a cap of 64: \(used) CPU-s in \(waited)")
        #expect(used < 2, "the agent used \(used) CPU-s while the clients waited")
        let log = agent.process.stderrSoFar
        #expect(log.components(separatedBy: "refusing new ones").count == 2, "\(log)")
        #expect(log.contains("the socket takes connections again (refused 1 while full)"), "\(log)")
        _ = try await agent.stop()
    }

    @Test func runningOutOfFilesPausesAcceptsWithOneLineAndTheyResume() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream, count: 1, interval: "1h")
        let agent = try await RunningAgent.start(in: workspace)
        let pid = agent.process.pid
        #expect(try await eventually { allIdle(agent) })
        // The agent took its cap from a large limit; another program lowers
        // it to a few files more than it has open.
        try Self.setFileLimit(pid, ProcessFigures.openFiles(pid) + 4)
        let cpu = ProcessFigures.cpuSeconds(pid)

        var clients = try (0..<12).map { _ in try RawConnection(path: agent.socketPath) }
        #expect(
            try await eventually {
                agent.process.stderrSoFar.contains(
                    "cannot accept connections on the socket (too many open files in the agent)")
            })
        try await Task.sleep(for: .seconds(3))
        let used = ProcessFigures.cpuSeconds(pid) - cpu
        #expect(used < 1, "the agent used \(used) CPU-s while it could not accept")
        clients.removeAll()
        // Files free again: the connections waiting are accepted, then new ones.
        #expect(try await eventually { agent.curl("GET", "/v1/status").status == 200 })
        #expect(
            try await eventually {
                _ = agent.curl("GET", "/v1/status")
                return agent.process.stderrSoFar.contains("the socket accepts connections again")
            })
        let log = agent.process.stderrSoFar
        #expect(log.components(separatedBy: "cannot accept connections").count == 2, "\(log)")
        _ = try await agent.stop()
    }

    @Test func syncsThatRunOutOfFilesAreToldOnceNeverMakeTheResourceFailedAndResume() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 5])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"""
            {"defaults": {"interval": "1s", "retry": {"maxAttempts": 2, "initialDelay": "100ms", "jitter": 0}},
             "resources": [\#(upstream.resource("r0", style: "page", collection: "items"))]}
            """#)
        let agent = try await RunningAgent.start(in: workspace)
        let pid = agent.process.pid
        #expect(try await eventually { allIdle(agent) })
        // Not one file more than the agent has open: its polls cannot open
        // their lock file, nor the status socket take a client. Sampled over
        // more than a poll's interval, so a poll's own files are not counted.
        try Self.setFileLimit(pid, try await ProcessFigures.lowestFreeDescriptor(pid, over: .milliseconds(1500)))
        #expect(
            try await eventually { agent.process.stderrSoFar.contains("Too many open files") },
            "\(agent.process.stderrSoFar)")
        let before = try workspace.value("SELECT count(*) FROM sync_runs") ?? ""
        // Polls go on failing; the log says it once.
        try await Task.sleep(for: .seconds(3))
        #expect(agent.process.stderrSoFar.components(separatedBy: "Too many open files").count == 2)

        try Self.setFileLimit(pid, 4096)
        #expect(try await eventually { agent.process.stderrSoFar.contains("r0: syncs are applied again") })
        #expect(try await eventually { try workspace.value("SELECT count(*) FROM sync_runs") != before })
        #expect(agent.state(of: "r0") != "failed")
        let resource = agent.curl("GET", "/v1/resources/r0").json
        #expect(resource["lastError"] is NSNull, "\(resource)")
        _ = try await agent.stop()
    }

    /// Sets process `pid`'s soft limit on open files with `prlimit` (its hard
    /// limit stays: raising it again takes a privilege).
    static func setFileLimit(_ pid: Int32, _ limit: Int) throws {
        let prlimit = Process()
        prlimit.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        prlimit.arguments = ["--pid", "\(pid)", "--nofile=\(limit):"]
        try prlimit.run()
        prlimit.waitUntilExit()
        #expect(prlimit.terminationStatus == 0)
    }
}
