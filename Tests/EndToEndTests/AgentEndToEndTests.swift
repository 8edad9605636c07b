import DemoUpstream
import Foundation
import TestUpstream
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sync-agent run` as an operator meets it: the status socket with curl,
/// `refresh` and `status` through the agent, one agent per database, stops
/// and crashes mid-sync, and the systemd notify protocol.
@Suite(.timeLimit(.minutes(5))) struct AgentEndToEndTests {
    /// A workspace syncing the upstream's `items` in pages of 100.
    func workspace(_ upstream: TestUpstream, interval: String = "1h") throws -> Workspace {
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"""
            {"defaults": {"interval": "\#(interval)", "timeout": "30s", "retry": {"maxAttempts": 1}},
             "resources": [\#(upstream.resource("items", style: "page"))]}
            """#)
        return workspace
    }

    func firstPages(_ upstream: TestUpstream) -> Int {
        upstream.requests.count { $0.path == "/page/items" && $0.query.hasPrefix("page=1&") }
    }

    /// Runs `curl` on a task of its own (it blocks until the answer).
    func curlLater(_ agent: RunningAgent, _ method: String, _ path: String) -> Task<RunningAgent.Answer, Never> {
        Task.detached { agent.curl(method, path) }
    }

    @Test func theSocketAnswersAndEveryRefreshJoinsTheAgentsSync() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { agent.curl("GET", "/v1/resources/items").json["items"] as? Int == 250 })

        // The socket is the owner's and the group's, never the world's.
        let attributes = try FileManager.default.attributesOfItem(atPath: agent.socketPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o660)

        let status = agent.curl("GET", "/v1/status")
        #expect(status.status == 200)
        let about = try #require(status.json["agent"] as? [String: Any])
        #expect(about["pid"] as? Int == Int(agent.process.process.processIdentifier))
        #expect(about["online"] as? Bool == true)
        let resources = try #require(status.json["resources"] as? [[String: Any]])
        #expect(resources.map { $0["name"] as? String } == ["items"])
        #expect(resources.first?["state"] as? String == "idle")
        // Each answer is dated, as HTTP asks of a server with a clock.
        let head = agent.curl("GET", "/v1/status", options: ["--include"]).body
        #expect(
            head.range(
                of: #"(?im)^date: \w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT\r?$"#, options: .regularExpression)
                != nil, "\(head.prefix(300))")

        // A slow sync, asked for three ways at once: one request upstream.
        upstream.changeItems("items", ids: [7])
        upstream.clearRequests()
        upstream.inject(Fault(path: "/page/items", query: "page=1&", times: 1, delay: .seconds(6)))
        let first = curlLater(agent, "POST", "/v1/resources/items/refresh")
        #expect(try await eventually { firstPages(upstream) == 1 })
        let second = curlLater(agent, "POST", "/v1/resources/items/refresh")
        let cli = try await workspace.run(["refresh", "items", "--json"])
        let (owner, joiner) = (await first.value, await second.value)

        #expect(owner.status == 200)
        #expect(owner.json["outcome"] as? String == "success")
        #expect(owner.json["joined"] as? Bool == false)
        #expect(joiner.json["outcome"] as? String == "success")
        #expect(joiner.json["joined"] as? Bool == true)
        #expect(cli.status == 0, "\(cli.stderr)")
        #expect(cli.stdout.contains(#""joined": true"#), "\(cli.stdout)")
        #expect(firstPages(upstream) == 1)
        #expect(try workspace.value("SELECT count(*) FROM sync_runs WHERE trigger = 'refresh'") == "1")

        // `status` asks the agent.
        let shown = try await workspace.run(["status"])
        #expect(shown.status == 0)
        #expect(
            shown.stdout.contains("agent: running (pid \(agent.process.process.processIdentifier)"), "\(shown.stdout)")

        // Errors are JSON.
        let unknown = agent.curl("GET", "/v1/resources/nope")
        #expect(unknown.status == 404)
        #expect((unknown.json["error"] as? [String: Any])?["code"] as? String == "unknown_resource")
        #expect(agent.curl("GET", "/v1/refresh").status == 405)

        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(!FileManager.default.fileExists(atPath: agent.socketPath))
    }

    @Test func aSecondAgentOnTheDatabaseExits1AndAStaleSocketIsReplaced() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 10])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        // A socket left by a crashed agent.
        try leaveStaleSocket(at: workspace.folder + "/sync-agent.sock")

        let agent = try await RunningAgent.start(in: workspace)
        let second = try await workspace.run(["run"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("another agent is already running"), "\(second.stderr)")
        // The first one never noticed.
        #expect(agent.curl("GET", "/v1/status").status == 200)
        #expect(FileManager.default.fileExists(atPath: agent.socketPath))
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }

    /// Syncs the items once, changes them upstream, and starts the agent with a
    /// 1 s interval; returns once its next sync is stuck on page 2, with the
    /// snapshot that sync must not touch.
    func agentMidSync(_ upstream: TestUpstream) async throws -> (RunningAgent, Workspace, [String: String]) {
        let workspace = try workspace(upstream, interval: "1s")
        let first = try await workspace.run(["refresh"])
        try #require(first.status == 0, "\(first.stderr)")
        let snapshot = try workspace.records("items")
        try #require(snapshot.count == 250)
        upstream.changeItems("items", ids: [1, 150, 250])
        upstream.clearRequests()
        upstream.inject(Fault(path: "/page/items", query: "page=2&", delay: .seconds(60)))

        let agent = try await RunningAgent.start(in: workspace)
        let secondPages = {
            upstream.requests.count { $0.path == "/page/items" && $0.query.hasPrefix("page=2&") }
        }
        try #require(try await eventually { secondPages() == 1 })
        return (agent, workspace, snapshot)
    }

    @Test func aLastSuccessInTheFutureCountsAsNow() async throws {
        // The clock was a month ahead at the last sync, then put right: the
        // next poll comes an interval after the start, not a month later.
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream, interval: "2s")
        #expect(try await workspace.run(["refresh"]).status == 0)
        _ = try workspace.query("UPDATE resources SET last_success_at = '2027-01-01T00:00:00.000Z'")
        let agent = try await RunningAgent.start(in: workspace)
        let started = ContinuousClock.now
        #expect(
            try await eventually(timeout: .seconds(10)) { try workspace.value("SELECT count(*) FROM sync_runs") == "2" }
        )
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(try workspace.value("SELECT trigger FROM sync_runs ORDER BY id DESC LIMIT 1") == "poll")
        _ = try await agent.stop()
    }

    @Test func sigusr1LogsEachResourceSighupAndSigpipeDoNotKillAndSigtermIsNamed() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        // As under systemd's default: a soft limit of 1,024 open files, a higher hard one.
        let agent = try await RunningAgent.start(
            in: workspace, wrapper: ["/usr/bin/prlimit", "--nofile=1024:8192", "--"])
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        let limits = try String(contentsOfFile: "/proc/\(agent.process.pid)/limits", encoding: .utf8)
        #expect(
            limits.split(separator: "\n").contains {
                $0.hasPrefix("Max open files") && $0.contains("8192                 8192")
            },
            "\(limits)")

        agent.process.send(SIGUSR1)
        #expect(try await eventually { agent.process.stderrSoFar.contains("items: idle, 50 items, last success 20") })
        for signal in [SIGHUP, SIGPIPE] { agent.process.send(signal) }
        #expect(try await eventually { agent.process.stderrSoFar.contains("SIGHUP: reloaded") })
        #expect(agent.curl("GET", "/v1/status").status == 200)

        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(stopped.stderr.contains("SIGTERM: stopping"), "\(stopped.stderr)")
    }

    @Test func aDeletedSocketIsPutBackAndOneReplacedByAFileStopsTheAgentNamingIt() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        // The socket in a folder of its own, as under systemd's RuntimeDirectory=.
        let folder = workspace.folder + "/run"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        chmod(folder, 0o750)
        try workspace.writeConfig(
            #"{"socket": "run/agent.sock", "resources": [\#(upstream.resource("items", style: "page"))]}"#)
        let agent = try await RunningAgent.start(in: workspace, socket: "run/agent.sock")
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        let follower = try RawConnection(path: agent.socketPath)
        follower.send("GET /v1/events HTTP/1.1\r\nHost: agent\r\n\r\n")
        #expect(try await eventually { follower.read(for: .zero).text.contains("event: resource") })

        // The socket file, then its folder: each is put back, and the agent answers there.
        try FileManager.default.removeItem(atPath: agent.socketPath)
        #expect(try await eventually(timeout: .seconds(10)) { agent.curl("GET", "/v1/status").status == 200 })
        try FileManager.default.removeItem(atPath: folder)
        #expect(try await eventually(timeout: .seconds(10)) { agent.curl("GET", "/v1/status").status == 200 })
        let attributes = try FileManager.default.attributesOfItem(atPath: folder)
        #expect((attributes[.posixPermissions] as? Int) == 0o750)
        #expect(
            agent.process.stderrSoFar.components(separatedBy: "the socket \(agent.socketPath) was removed: a new one")
                .count == 3, "\(agent.process.stderrSoFar)")
        // A client of the first socket was never cut off.
        #expect(!follower.read(for: .zero).closed)

        // A file in its place is not the agent's to remove: it stops, naming the path.
        try FileManager.default.removeItem(atPath: agent.socketPath)
        _ = FileManager.default.createFile(atPath: agent.socketPath, contents: Data("mine".utf8))
        let stopped = try await agent.process.finish(timeout: .seconds(20))
        #expect(stopped.status == 1, "\(stopped.stderr)")
        #expect(
            stopped.stderr.contains(
                "the socket \(agent.socketPath) was removed or replaced and cannot be put back "
                    + "(\(agent.socketPath) was replaced by a file that is not a socket)"), "\(stopped.stderr)")
        #expect(try String(contentsOfFile: agent.socketPath, encoding: .utf8) == "mine")
        try FileManager.default.removeItem(atPath: agent.socketPath)
        // The lock went with the process: a new agent starts and answers.
        let again = try await RunningAgent.start(in: workspace, socket: "run/agent.sock")
        #expect(again.curl("GET", "/v1/status").status == 200)
        _ = try await again.stop()
    }

    @Test func aFullDiskIsRetriedAndLoggedOnceAndTheResourceSyncsOnceThereIsRoom() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 200])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        // The database on a tmpfs of 1 MiB: room for 200 items, not for 20,000.
        let disk = workspace.folder + "/disk"
        try FileManager.default.createDirectory(atPath: disk, withIntermediateDirectories: false)
        try Self.mount(["-t", "tmpfs", "-o", "size=1M", "tmpfs", disk])
        defer { try? Self.mount([disk], command: "/usr/bin/umount") }
        try workspace.writeConfig(
            #"""
            {"database": "disk/agent.db",
             "defaults": {"interval": "1s", "retry": {"maxAttempts": 2, "initialDelay": "100ms", "jitter": 0}},
             "resources": [\#(upstream.resource("items", style: "page", size: 1000))]}
            """#)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        let full = "items: disk full: \(disk)"

        upstream.setCollection("items", count: 20000)
        upstream.clearRequests()
        // Sync after sync fails on the full disk; none makes the resource failed.
        #expect(
            try await eventually {
                upstream.requestCount(path: "/page/items") >= 3 * 20
                    && agent.curl("GET", "/v1/resources/items").body.contains(full)
            })
        #expect(try await eventually { agent.state(of: "items") == "idle" })
        #expect(
            agent.process.stderrSoFar.components(separatedBy: "disk full").count == 2, "\(agent.process.stderrSoFar)")

        try Self.mount(["-o", "remount,size=64M", disk])
        #expect(
            try await eventually { agent.curl("GET", "/v1/resources/items").json["items"] as? Int == 20000 })
        #expect(try await eventually { agent.process.stderrSoFar.contains("syncs are applied again") })
        _ = try await agent.stop()
    }

    /// Runs `mount` (or `command`) with `arguments`.
    static func mount(_ arguments: [String], command: String = "/usr/bin/mount") throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(command) \(arguments)")
    }

    @Test func anAgentWhoseDatabaseIsDeletedOrReplacedStopsNamingItAndANewOneSyncsAgain() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream, interval: "1s")
        for replace in [false, true] {
            let agent = try await RunningAgent.start(in: workspace)
            #expect(try await eventually { agent.state(of: "items") == "idle" })
            if replace {
                // Another copy put in its place, as a restore from a backup would.
                try FileManager.default.copyItem(atPath: workspace.databasePath, toPath: workspace.folder + "/copy")
                _ = rename(workspace.folder + "/copy", workspace.databasePath)
            } else {
                try FileManager.default.removeItem(atPath: workspace.databasePath)
            }

            let stopped = try await agent.process.finish(timeout: .seconds(20))

            #expect(stopped.status == 1, "\(stopped.stderr)")
            #expect(
                stopped.stderr.contains("the database \(workspace.databasePath) was deleted or replaced"),
                "\(stopped.stderr)")
        }
        // The next agent opens the file at its path, and syncs into it.
        let again = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { (try? workspace.records("items").count) == 50 })
        _ = try await again.stop()
    }

    @Test func aCorruptDatabaseIsMovedAsideAndRebuiltOrRefusedAsConfigured() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 2000])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        let first = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { first.state(of: "items") == "idle" })
        _ = try await first.stop()
        _ = try workspace.query("PRAGMA wal_checkpoint(TRUNCATE)")
        try Self.damage(workspace.databasePath)
        let damaged = try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath))

        // Refused when the configuration says so: the file stays as it is.
        let config = try String(contentsOfFile: workspace.configPath, encoding: .utf8)
        try workspace.writeConfig(
            config.replacingOccurrences(of: #"{"defaults""#, with: #"{"corruptDatabase": "refuse", "defaults""#))
        let refused = try await workspace.run(["run"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("The database \(workspace.databasePath) is corrupt"), "\(refused.stderr)")
        #expect(refused.stderr.contains(#""corruptDatabase": "refuse""#), "\(refused.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath)) == damaged)

        // By default: moved aside, and everything synced again into a new file.
        try workspace.writeConfig(config)
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { (try? workspace.records("items").count) == 2000 })
        let log = agent.process.stderrSoFar
        #expect(log.contains("is corrupt"), "\(log)")
        let aside = try FileManager.default.contentsOfDirectory(atPath: workspace.folder).filter {
            $0.hasPrefix("sync-agent.db.corrupt-") && $0.hasSuffix("Z")
        }
        #expect(aside.count == 1, "\(aside)")
        #expect(log.contains("Moved it aside to \(workspace.folder)/\(aside.first ?? "?")"), "\(log)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.folder + "/" + (aside.first ?? ""))) == damaged)
        _ = try await agent.stop()
    }

    /// Overwrites every third page in the second half of the database at
    /// `path` with noise, leaving its header and schema intact.
    static func damage(_ path: String) throws {
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? file.close() }
        let size = try file.seekToEnd()
        let pageSize: UInt64 = 4096
        var page = size / pageSize / 2
        while page < size / pageSize - 1 {
            try file.seek(toOffset: page * pageSize)
            try file.write(contentsOf: Data(repeating: 0xA5, count: Int(pageSize)))
            page += 3
        }
    }

    @Test func sigtermMidSyncKeepsThePreviousSnapshotAndExits0() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, workspace, snapshot) = try await agentMidSync(upstream)
        let signalled = ContinuousClock.now
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(ContinuousClock.now - signalled < .seconds(10))
        #expect(try workspace.records("items") == snapshot)
        #expect(try workspace.value("SELECT outcome FROM sync_runs ORDER BY id DESC LIMIT 1") == "cancelled")
        #expect(!FileManager.default.fileExists(atPath: agent.socketPath))
    }

    @Test func sigkillMidSyncKeepsThePreviousSnapshotAndTheNextStartWorks() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let (agent, workspace, snapshot) = try await agentMidSync(upstream)
        agent.process.send(SIGKILL)
        _ = try await agent.process.finish()
        #expect(try workspace.records("items") == snapshot)
        #expect(try workspace.value("PRAGMA integrity_check") == "ok")
        // The crash left its socket and its lock file behind.
        #expect(FileManager.default.fileExists(atPath: agent.socketPath))

        upstream.clearFaults()
        let restarted = try await RunningAgent.start(in: workspace)
        let changed = try #require(upstream.item("items", id: 150))
        #expect(try await eventually { try workspace.records("items")["150"] == changed })
        #expect(try workspace.records("items").count == 250)
        let stopped = try await restarted.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }

    @Test func systemdHearsReadyOnceStatusWatchdogPingsAndStopping() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 10])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        let notify = try NotifyReceiver(address: workspace.folder + "/notify.sock")
        let agent = try await RunningAgent.start(
            in: workspace,
            environment: ["NOTIFY_SOCKET": notify.address, "WATCHDOG_USEC": "400000", "JOURNAL_STREAM": "8:12345"])

        #expect(try await eventually { notify.count("WATCHDOG=1") >= 8 })
        #expect(try await eventually { notify.messages.contains { $0.text == "STATUS=1 resource: 1 idle" } })
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(try await eventually { notify.count("STOPPING=1") == 1 })

        let messages = notify.messages
        #expect(notify.count("READY=1") == 1)
        let ready = try #require(messages.firstIndex { $0.text == "READY=1" })
        let stopping = try #require(messages.firstIndex { $0.text == "STOPPING=1" })
        #expect(ready < stopping)
        #expect(!messages[stopping...].contains { $0.text == "READY=1" })
        // WATCHDOG_USEC = 400 ms: a ping every 200 ms.
        let pings = messages.filter { $0.text == "WATCHDOG=1" }.map(\.at)
        let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
        let mean = gaps.reduce(Duration.zero, +) / gaps.count
        #expect(mean > .milliseconds(150) && mean < .milliseconds(400), "mean gap \(mean)")
        // Under journald, each line starts with its syslog priority.
        let lines = stopped.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.wholeMatch(of: /<[0-7]>.*/) != nil }, "\(stopped.stderr)")
    }

    @Test func notifiesAnAbstractSocketToo() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 10])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        let notify = try NotifyReceiver(address: "@sync-agent-test-\(UUID().uuidString)")
        let agent = try await RunningAgent.start(in: workspace, environment: ["NOTIFY_SOCKET": notify.address])
        #expect(try await eventually { notify.count("READY=1") == 1 })
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(try await eventually { notify.count("STOPPING=1") == 1 })
    }
}

/// Binds a Unix socket at `path` and closes it without removing it, as a crashed process leaves it.
func leaveStaleSocket(at path: String) throws {
    let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
    let bound = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
        }
    }
    try #require(bound == 0)
}
