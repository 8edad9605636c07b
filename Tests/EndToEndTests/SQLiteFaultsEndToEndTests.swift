import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// The real binary with its SQLite I/O failing at random and at chosen points:
/// writes that fail with EIO or ENOSPC, short writes, failing fsyncs and reads
/// (docs/testing.md#faults-under-sqlite). Through snapshot syncs,
/// incremental commits, the change feed and migrations at start, the agent
/// never dies, tells every failure as a `storage` condition, never shows a
/// partial snapshot, and heals once the faults stop.
///
/// `SYNC_AGENT_FAULTS=N` sets how many faults it injects (by default a few
/// hundred), `SYNC_AGENT_FAULTS_SEED=S` the seed it prints; `scripts/faults`
/// sets both.
@Suite(.serialized, .timeLimit(.minutes(120))) struct SQLiteFaultsEndToEndTests {
    /// How many faults, from which seed.
    struct Plan {
        var faults: Int
        var seed: UInt64

        static func fromEnvironment() -> Plan {
            let environment = ProcessInfo.processInfo.environment
            let faults = environment["SYNC_AGENT_FAULTS"].flatMap { Int($0) } ?? 200
            let seed = environment["SYNC_AGENT_FAULTS_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 1...99999)
            return Plan(faults: max(4, faults), seed: seed)
        }
    }

    /// What one phase saw.
    struct Figures {
        var faults = SQLiteFaults.Counts()
        var syncs = 0
        var storage = 0
        var integrityChecks = 0
        var integrityPassed = 0
        var snapshotChecks = 0
        var partialSnapshots = 0
        var heals = 0
        var deaths = 0
        var problems: [String] = []
    }

    /// A seeded generator, so that a run can be repeated.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return z ^ (z >> 31)
        }
    }

    static let collections = ["snap": 300, "inc": 400, "feed": 60, "old": 120]

    @Test func theAgentSurvivesFaultsUnderSQLiteTellsThemAsStorageAndHeals() async throws {
        let plan = Plan.fromEnvironment()
        print(
            "SQLite faults: \(plan.faults) faults, seed \(plan.seed) (SYNC_AGENT_FAULTS_SEED=\(plan.seed) repeats it)")
        _ = try SQLiteFaults.library.get()
        let upstream = try await TestUpstream.start(collections: Self.collections)
        defer { Task { await upstream.stop() } }
        let started = ContinuousClock.now
        let quarter = plan.faults / 4
        var phases: [(String, Figures)] = []
        let (snapshot, migrations) = try await snapshotPhase(upstream, faults: quarter, seed: plan.seed)
        phases.append(("snapshot", snapshot))
        phases.append(("incremental", try await incrementalPhase(upstream, faults: quarter, seed: plan.seed &+ 1)))
        phases.append(("change feed", try await feedPhase(upstream, faults: quarter, seed: plan.seed &+ 2)))
        phases.append(
            (
                "migration",
                try await migrationPhase(
                    upstream, faults: plan.faults - 3 * quarter, seed: plan.seed &+ 3, migrations: migrations)
            ))
        let elapsed = ContinuousClock.now - started
        print(Self.report(phases, seed: plan.seed, elapsed: elapsed))
        for (name, figures) in phases {
            #expect(figures.problems.isEmpty, "\(name): \(figures.problems.prefix(10).joined(separator: "\n"))")
            #expect(figures.partialSnapshots == 0, "\(name)")
            #expect(figures.deaths == 0, "\(name)")
            #expect(figures.integrityPassed == figures.integrityChecks, "\(name)")
            #expect(figures.faults.total > 0, "\(name): no fault injected")
            #expect(figures.storage > 0, "\(name): no storage condition told")
        }
        // A phase stops at its deadline on a machine too busy to reach its count.
        let injected = phases.reduce(0) { $0 + $1.1.faults.total }
        #expect(injected >= UInt64(plan.faults / 2), "injected \(injected) of \(plan.faults)")
    }

    // MARK: - Phases

    /// Paginated snapshot syncs, each round of a new size: every snapshot in the
    /// database is whole. Returns the migrations a new database has, for the migration phase.
    func snapshotPhase(_ upstream: TestUpstream, faults target: Int, seed: UInt64) async throws -> (Figures, String) {
        var figures = Figures()
        var random = SplitMix(state: seed)
        let workspace = try Workspace()
        try writeConfig(
            workspace, [upstream.resource("snap", style: "page", collection: "snap", size: 30, extra: hour)])
        upstream.setCollection("snap", count: 300)
        var sizes: Set<Int> = [300]
        let faults = try SQLiteFaults(in: workspace.folder, database: workspace.databasePath)
        let agent = try await RunningAgent.start(
            in: workspace, environment: try faults.environment(seed: seed, rate: 0.02, points: fsyncPoints))
        #expect(try await eventually { (try? workspace.value("SELECT count(*) FROM records")) == "300" })
        try faults.set(on: true, limit: UInt64(target))
        let deadline = ContinuousClock.now + phaseTime(target)
        var size = 300
        while try faults.counts().total < target, ContinuousClock.now < deadline {
            size = Int.random(in: 280...320, using: &random)
            sizes.insert(size)
            upstream.setCollection("snap", count: size)
            upstream.changeItems("snap", ids: [Int.random(in: 1...size, using: &random)])
            judge(agent.curl("POST", "/v1/resources/snap/refresh"), "snap", &figures)
            try checkSnapshot(workspace, "snap", sizes: sizes, &figures)
            try checkWorkspace(workspace, agent, &figures)
        }
        try faults.set(on: false)
        figures.faults = try faults.counts()
        try await heal(agent, workspace, ["snap"], &figures) {
            try workspace.value("SELECT count(*) FROM records WHERE resource = 'snap'") == "\(size)"
        }
        try checkSnapshot(workspace, "snap", sizes: [size], &figures)
        try checkFeed(workspace, resources: ["snap"], &figures)
        try await stop(agent, &figures)
        let migrations = try workspace.value("SELECT group_concat(identifier, '|') FROM grdb_migrations") ?? ""
        return (figures, migrations)
    }

    /// Incremental syncs that commit page by page, with changes, deletions and
    /// new items: each commit holds its records and their changes together.
    func incrementalPhase(_ upstream: TestUpstream, faults target: Int, seed: UInt64) async throws -> Figures {
        var figures = Figures()
        var random = SplitMix(state: seed)
        let workspace = try Workspace()
        try writeConfig(
            workspace,
            [
                #"""
                {"name": "inc", "url": "\#(upstream.baseURL)/incremental/inc", "items": "/data", "key": "/id",
                 "pagination": {"style": "page", "size": 50}, "interval": "1h",
                 "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since", "lookback": "1s"},
                 "deleted": {"pointer": "/deleted"}}
                """#
            ])
        var size = Self.collections["inc"] ?? 0
        var removed: Set<Int> = []
        let faults = try SQLiteFaults(in: workspace.folder, database: workspace.databasePath)
        let agent = try await RunningAgent.start(
            in: workspace, environment: try faults.environment(seed: seed, rate: 0.02, points: fsyncPoints))
        #expect(try await eventually { (try? workspace.value("SELECT count(*) FROM records")) == "\(size)" })
        try faults.set(on: true, limit: UInt64(target))
        let deadline = ContinuousClock.now + phaseTime(target)
        var round = 0
        var walked = true
        while try faults.counts().total < target, ContinuousClock.now < deadline {
            // The upstream changes only between complete walks: a walk that goes on
            // after a failed page asks the pages after it, and a page-numbered API
            // whose changed items moved to its end meanwhile would have it skip some
            // (docs/testing.md#faults-under-sqlite), which is not a fault's doing.
            guard walked else {
                walked = judge(agent.curl("POST", "/v1/resources/inc/refresh"), "inc", &figures)
                try checkFeed(workspace, resources: ["inc"], &figures)
                try checkWorkspace(workspace, agent, &figures)
                continue
            }
            round += 1
            upstream.changeItems("inc", ids: (0..<3).map { _ in Int.random(in: 1...size, using: &random) })
            if round % 3 == 0 {
                let id = Int.random(in: 1...size, using: &random)
                upstream.removeItems("inc", ids: [id])
                removed.insert(id)
            }
            if round % 5 == 0 {
                size += 5
                upstream.setCollection("inc", count: size)
            }
            walked = judge(agent.curl("POST", "/v1/resources/inc/refresh"), "inc", &figures)
            try checkFeed(workspace, resources: ["inc"], &figures)
            try checkWorkspace(workspace, agent, &figures)
        }
        try faults.set(on: false)
        figures.faults = try faults.counts()
        let live = Set(1...size).subtracting(removed)
        try await heal(agent, workspace, ["inc"], &figures) {
            Set(try workspace.records("inc").keys.compactMap { Int($0) }) == live
        }
        try checkFeed(workspace, resources: ["inc"], &figures)
        try await stop(agent, &figures)
        return figures
    }

    /// Syncs that write the change feed while a reader pages through it with
    /// `GET /v1/changes`: what it reads has no gap, and ends as the database's feed.
    func feedPhase(_ upstream: TestUpstream, faults target: Int, seed: UInt64) async throws -> Figures {
        var figures = Figures()
        var random = SplitMix(state: seed)
        let workspace = try Workspace()
        let size = Self.collections["feed"] ?? 0
        try writeConfig(workspace, [upstream.resource("feed", style: "all", collection: "feed", extra: hour)])
        let faults = try SQLiteFaults(in: workspace.folder, database: workspace.databasePath)
        let agent = try await RunningAgent.start(
            in: workspace, environment: try faults.environment(seed: seed, rate: 0.02, points: fsyncPoints))
        #expect(try await eventually { (try? workspace.value("SELECT count(*) FROM records")) == "\(size)" })
        try faults.set(on: true, limit: UInt64(target))
        let reader = Task { () -> FeedReader in
            var reader = FeedReader()
            while !Task.isCancelled { reader.read(agent) }
            return reader
        }
        let deadline = ContinuousClock.now + phaseTime(target)
        var removed: Set<Int> = []
        while try faults.counts().total < target, ContinuousClock.now < deadline {
            upstream.changeItems("feed", ids: (0..<2).map { _ in Int.random(in: 1...size, using: &random) })
            if removed.count < size / 2, Int.random(in: 0..<4, using: &random) == 0 {
                let id = Int.random(in: 1...size, using: &random)
                upstream.removeItems("feed", ids: [id])
                removed.insert(id)
            }
            judge(agent.curl("POST", "/v1/resources/feed/refresh"), "feed", &figures)
            try checkFeed(workspace, resources: ["feed"], &figures)
            try checkWorkspace(workspace, agent, &figures)
        }
        try faults.set(on: false)
        figures.faults = try faults.counts()
        let live = Set(1...size).subtracting(removed)
        try await heal(agent, workspace, ["feed"], &figures) {
            Set(try workspace.records("feed").keys.compactMap { Int($0) }) == live
        }
        reader.cancel()
        var read = await reader.value
        // Healed: the reader reads the rest, and what it read is the database's feed.
        let last = Int(try workspace.value("SELECT coalesce(max(seq), 0) FROM changes") ?? "") ?? 0
        while read.next < last, read.refused < 1000 { read.read(agent) }
        figures.problems += read.problems
        if read.seqs != (0..<last).map({ $0 + 1 }) {
            figures.problems.append("the reader read \(read.seqs.count) changes, not 1…\(last)")
        }
        print("feed reads: \(read.pages) pages, \(read.refused) answered an error")
        try checkFeed(workspace, resources: ["feed"], &figures)
        try await stop(agent, &figures)
        return figures
    }

    /// Agents started on a database of the first schema with faults on: the
    /// opening and the migrations fail, are told and tried again, and the
    /// database ends migrated whole, its records kept.
    func migrationPhase(
        _ upstream: TestUpstream, faults target: Int, seed: UInt64, migrations: String
    ) async throws -> Figures {
        var figures = Figures()
        var random = SplitMix(state: seed)
        let workspace = try Workspace()
        try writeConfig(workspace, [upstream.resource("old", style: "page", collection: "old", size: 50, extra: hour)])
        let template = workspace.folder + "/template.db"
        try Self.makeFirstSchemaDatabase(at: template, records: Self.collections["old"] ?? 0)
        let deadline = ContinuousClock.now + phaseTime(target)
        var injected: UInt64 = 0
        var round = 0
        while injected < target, ContinuousClock.now < deadline {
            round += 1
            for suffix in ["", "-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: workspace.databasePath + suffix)
            }
            try FileManager.default.copyItem(atPath: template, toPath: workspace.databasePath)
            let faults = try SQLiteFaults(in: workspace.folder, database: workspace.databasePath)
            // Fewer faults than the checks a damaged file must fail before it is
            // moved aside (SQLiteStore.staysCorrupt): a sound file never is.
            try faults.set(on: true, limit: min(UInt64(target) - injected, UInt64.random(in: 1...5, using: &random)))
            let agent: RunningAgent
            do {
                agent = try await RunningAgent.start(
                    in: workspace, arguments: ["--log-level", "debug"],
                    environment: try faults.environment(seed: seed &+ UInt64(round), rate: 0.1))
            } catch {
                figures.deaths += 1
                figures.problems.append("round \(round): \(error)")
                break
            }
            let counts = try faults.counts()
            try faults.set(on: false)
            figures.faults = figures.faults + counts
            injected += counts.total
            let log = agent.process.stderrSoFar
            let told = log.components(separatedBy: "; trying again in ").count - 1
            figures.storage += told
            if counts.total > 0, told == 0, !log.contains("storage") {
                figures.problems.append("round \(round): \(counts.total) faults at start, none told:\n\(log)")
            }
            if log.contains("critical") { figures.problems.append("round \(round): \(log)") }
            try checkWorkspace(workspace, agent, &figures)
            let applied = try workspace.value("SELECT group_concat(identifier, '|') FROM grdb_migrations")
            if applied != migrations { figures.problems.append("round \(round): migrations \(applied ?? "none")") }
            try checkSnapshot(workspace, "old", sizes: [Self.collections["old"] ?? 0], &figures, history: false)
            try await stop(agent, &figures)
            try checkIntegrity(workspace, &figures)
        }
        print("migration: \(round) starts")
        return figures
    }

    @Test func aFaultWhileMigratingAtStartIsToldAndTheOpeningTriedAgainUntilItPasses() async throws {
        let upstream = try await TestUpstream.start(collections: ["old": 120])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try writeConfig(workspace, [upstream.resource("old", style: "page", collection: "old", size: 50, extra: hour)])
        try Self.makeFirstSchemaDatabase(at: workspace.databasePath, records: 120)
        let faults = try SQLiteFaults(in: workspace.folder, database: workspace.databasePath)
        try faults.set(on: true)
        // The migrations' first write to the WAL fails, then the next opening's first read of the file.
        let agent = try await RunningAgent.start(
            in: workspace,
            environment: try faults.environment(seed: 1, points: ["wal:write:1:eio-write", "db:read:3:eio-read"]))
        let counts = try faults.counts()
        #expect(counts.total == 2 && counts.byKind[0] == 1 && counts.byKind[4] == 1, "\(counts)")
        let log = agent.process.stderrSoFar
        #expect(
            log.contains("Cannot open the database \(workspace.databasePath): disk I/O error; trying again in"),
            "\(log)")
        #expect(log.contains("the database \(workspace.databasePath) opened"), "\(log)")
        #expect(Int(try workspace.value("SELECT count(*) FROM grdb_migrations") ?? "") ?? 0 > 5)
        #expect(try workspace.value("SELECT count(*) FROM records WHERE resource = 'old'") == "120")
        #expect(try workspace.value("PRAGMA integrity_check") == "ok")
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }

    // MARK: - Checks

    /// A resource's answer to a refresh: a success, or a storage condition.
    /// Returns whether it succeeded.
    @discardableResult
    func judge(_ answer: RunningAgent.Answer, _ resource: String, _ figures: inout Figures) -> Bool {
        figures.syncs += 1
        let json = answer.json
        let error = json["error"] as? [String: Any]
        switch (answer.status, json["outcome"] as? String, error?["kind"] as? String) {
        case (200, "success", _), (200, "notModified", _): return true
        case (200, "gaveUp", "storage"): figures.storage += 1
        default: figures.problems.append("\(resource): refresh answered \(answer.status) \(answer.body)")
        }
        return false
    }

    /// The agent runs and answers, and the database is sound.
    func checkWorkspace(_ workspace: Workspace, _ agent: RunningAgent, _ figures: inout Figures) throws {
        if !agent.process.process.isRunning {
            figures.deaths += 1
            figures.problems.append("the agent died: \(agent.process.stderrSoFar.suffix(2000))")
        } else if agent.curl("GET", "/v1/status").status != 200 {
            figures.problems.append("the status socket did not answer")
        }
        let failed = try workspace.query(
            "SELECT resource, outcome, error_kind, error FROM sync_runs WHERE outcome = 'failed' "
                + "OR error_kind NOT IN ('storage') LIMIT 3")
        if !failed.isEmpty { figures.problems.append("runs told otherwise than storage: \(failed)") }
        let states = try workspace.query("SELECT name FROM resources WHERE state = 'failed'")
        if !states.isEmpty { figures.problems.append("failed resources: \(states)") }
        let aside = try FileManager.default.contentsOfDirectory(atPath: workspace.folder).filter {
            $0.contains(".corrupt-")
        }
        if !aside.isEmpty { figures.problems.append("a sound database moved aside: \(aside)") }
        try checkIntegrity(workspace, &figures)
    }

    func checkIntegrity(_ workspace: Workspace, _ figures: inout Figures) throws {
        figures.integrityChecks += 1
        let result = try workspace.query("PRAGMA integrity_check").map { $0.joined() }
        if result == ["ok"] {
            figures.integrityPassed += 1
        } else {
            figures.problems.append("integrity_check: \(result.prefix(5))")
        }
    }

    /// A snapshot resource holds one whole snapshot: keys 1…N of a size
    /// served, as many as `resources.item_count` and, with `history`, as its last successful run's items.
    func checkSnapshot(
        _ workspace: Workspace, _ resource: String, sizes: Set<Int>, _ figures: inout Figures, history: Bool = true
    ) throws {
        figures.snapshotChecks += 1
        let row =
            try workspace.query(
                """
                SELECT count(*), coalesce(min(CAST(key AS INTEGER)), 0), coalesce(max(CAST(key AS INTEGER)), 0),
                       coalesce((SELECT item_count FROM resources WHERE name = '\(resource)'), -1),
                       coalesce((SELECT items FROM sync_runs WHERE resource = '\(resource)' AND outcome = 'success'
                                 ORDER BY id DESC LIMIT 1), -1)
                FROM records WHERE resource = '\(resource)'
                """
            ).first?.compactMap { Int($0) } ?? []
        guard row.count == 5 else { return figures.problems.append("\(resource): no snapshot row") }
        let (count, low, high, itemCount, lastItems) = (row[0], row[1], row[2], row[3], row[4])
        let whole =
            sizes.contains(count) && low == 1 && high == count && itemCount == count
            && (!history || lastItems == count)
        if !whole {
            figures.partialSnapshots += 1
            figures.problems.append(
                "\(resource): a partial snapshot: \(count) records, keys \(low)…\(high), item_count \(itemCount), "
                    + "last run \(lastItems) items")
        }
    }

    /// The change feed has no gap, and agrees with the records: a key whose
    /// last change is a deletion has no record, any other has one, and every
    /// record has a change.
    func checkFeed(_ workspace: Workspace, resources: [String], _ figures: inout Figures) throws {
        let names = resources.map { "'\($0)'" }.joined(separator: ", ")
        let row =
            try workspace.query(
                """
                WITH last AS (
                    SELECT resource, key, op FROM (
                        SELECT resource, key, op, row_number() OVER (PARTITION BY resource, key ORDER BY seq DESC) AS n
                        FROM changes WHERE resource IN (\(names)))
                    WHERE n = 1)
                SELECT (SELECT count(*) FROM changes), (SELECT coalesce(max(seq) - min(seq) + 1, 0) FROM changes),
                       (SELECT count(*) FROM last LEFT JOIN records r ON r.resource = last.resource AND r.key = last.key
                        WHERE (last.op = 'delete') = (r.key IS NOT NULL)),
                       (SELECT count(*) FROM records r LEFT JOIN last ON last.resource = r.resource AND last.key = r.key
                        WHERE r.resource IN (\(names)) AND last.key IS NULL)
                """
            ).first?.compactMap { Int($0) } ?? []
        guard row.count == 4 else { return figures.problems.append("no feed row") }
        if row[0] != row[1] { figures.problems.append("the feed has gaps: \(row[0]) changes over \(row[1]) seqs") }
        if row[2] != 0 || row[3] != 0 {
            figures.problems.append(
                "the feed and the records disagree: \(row[2]) keys, \(row[3]) records without change")
        }
    }

    /// Faults off: every resource syncs again, and `healed` holds.
    func heal(
        _ agent: RunningAgent, _ workspace: Workspace, _ resources: [String], _ figures: inout Figures,
        healed: () throws -> Bool
    ) async throws {
        for resource in resources {
            var outcome: String?
            for _ in 0..<5 {
                outcome = agent.curl("POST", "/v1/resources/\(resource)/refresh").json["outcome"] as? String
                if outcome == "success" || outcome == "notModified" { break }
            }
            if outcome == "success" || outcome == "notModified" {
                figures.heals += 1
            } else {
                figures.problems.append("\(resource) did not heal: \(outcome ?? "no answer")")
            }
        }
        if try !healed() { figures.problems.append("\(resources): not as the upstream once healed") }
        try checkWorkspace(workspace, agent, &figures)
    }

    /// Stops the agent: it exits cleanly.
    func stop(_ agent: RunningAgent, _ figures: inout Figures) async throws {
        guard agent.process.process.isRunning else {
            figures.deaths += 1
            return figures.problems.append("the agent had died: \(agent.process.stderrSoFar.suffix(2000))")
        }
        let stopped = try await agent.stop()
        if stopped.status != 0 {
            figures.problems.append("stopped with \(stopped.status): \(stopped.stderr.suffix(2000))")
        }
    }

    // MARK: - Setup

    let hour = #""interval": "1h""#

    /// Chosen points besides the random ones: WAL mode syncs files only at
    /// checkpoints, so that few fsyncs come up at random.
    let fsyncPoints = ["wal", "db"].flatMap { file in
        stride(from: 2, through: 20, by: 2).map { "\(file):sync:\($0):eio-fsync" }
    }

    /// How long a phase may take to inject `faults`.
    func phaseTime(_ faults: Int) -> Duration { .seconds(60 + faults) }

    /// A configuration whose storage failures are tried again within milliseconds.
    func writeConfig(_ workspace: Workspace, _ resources: [String]) throws {
        try workspace.writeConfig(
            #"""
            {
              "defaults": {"timeout": "5s", "retry": {"maxAttempts": 1, "initialDelay": "20ms", "maxDelay": "200ms"}},
              "resources": [\#(resources.joined(separator: ",\n"))]
            }
            """#)
    }

    /// A database as the first version of the agent made it (its first
    /// migration, SQLiteStore+Migrations.swift), in WAL mode, holding resource
    /// `old`'s `records` records, written with the sqlite3 shell.
    static func makeFirstSchemaDatabase(at path: String, records: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", path]
        let script = Pipe()
        process.standardInput = script
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        script.fileHandleForWriting.write(
            Data(
                """
                PRAGMA journal_mode = WAL;
                BEGIN;
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('Create records, resources and sync_runs');
                CREATE TABLE records (
                    resource TEXT NOT NULL, key TEXT NOT NULL, data TEXT NOT NULL, updated_at TEXT NOT NULL,
                    PRIMARY KEY (resource, key)
                ) WITHOUT ROWID;
                CREATE INDEX records_by_update ON records (resource, updated_at);
                CREATE TABLE resources (
                    name TEXT PRIMARY KEY NOT NULL,
                    state TEXT NOT NULL DEFAULT 'idle'
                          CHECK (state IN ('idle', 'syncing', 'retrying', 'offline', 'failed')),
                    last_success_at TEXT, last_attempt_at TEXT, last_error TEXT, etag TEXT, last_modified TEXT,
                    item_count INTEGER NOT NULL DEFAULT 0, last_error_kind TEXT, last_error_status INTEGER,
                    validators_scope TEXT
                );
                CREATE TABLE sync_runs (
                    id INTEGER PRIMARY KEY, resource TEXT NOT NULL,
                    trigger TEXT NOT NULL CHECK (trigger IN ('poll', 'refresh', 'startup', 'dependency')),
                    started_at TEXT NOT NULL, finished_at TEXT NOT NULL,
                    outcome TEXT NOT NULL
                            CHECK (outcome IN ('success', 'notModified', 'failed', 'gaveUp', 'offline', 'cancelled')),
                    attempts INTEGER NOT NULL, pages INTEGER NOT NULL, items INTEGER NOT NULL, bytes INTEGER NOT NULL,
                    error TEXT, error_kind TEXT, error_status INTEGER,
                    added INTEGER NOT NULL DEFAULT 0, changed INTEGER NOT NULL DEFAULT 0,
                    removed INTEGER NOT NULL DEFAULT 0
                );
                CREATE INDEX sync_runs_by_resource ON sync_runs (resource, id);
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(records))
                INSERT INTO records SELECT 'old', i, json_object('id', i, 'old', 1), '2026-01-01T00:00:00.000Z' FROM n;
                INSERT INTO resources (name, last_success_at, item_count)
                VALUES ('old', '2026-01-01T00:00:00.000Z', \(records));
                INSERT INTO sync_runs (resource, trigger, started_at, finished_at, outcome, attempts, pages, items,
                                       bytes, added)
                VALUES ('old', 'poll', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 'success', 1, 3,
                        \(records), 1000, \(records));
                COMMIT;
                PRAGMA wal_checkpoint(TRUNCATE);

                """.utf8))
        try script.fileHandleForWriting.close()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Workspace.QueryFailed(message: "sqlite3 failed") }
    }

    /// The figures of a run, as a table.
    static func report(_ phases: [(String, Figures)], seed: UInt64, elapsed: Duration) -> String {
        var lines = ["SQLite faults, seed \(seed), \(elapsed.components.seconds) s:"]
        let kinds = SQLiteFaults.Kind.allCases.map(\.name)
        lines.append(
            "phase        faults "
                + kinds.map { $0.padding(toLength: 11, withPad: " ", startingAt: 0) }.joined(separator: " ")
                + " calls    syncs storage integrity partial heals deaths")
        var total = Figures()
        for (name, figures) in phases + [("total", Figures())] {
            let shown = name == "total" ? total : figures
            let kinds = shown.faults.byKind.map { String($0).padding(toLength: 11, withPad: " ", startingAt: 0) }
            lines.append(
                name.padding(toLength: 12, withPad: " ", startingAt: 0) + " "
                    + String(shown.faults.total).padding(toLength: 6, withPad: " ", startingAt: 0) + " "
                    + kinds.joined(separator: " ") + " "
                    + String(shown.faults.calls).padding(toLength: 8, withPad: " ", startingAt: 0) + " "
                    + String(shown.syncs).padding(toLength: 5, withPad: " ", startingAt: 0) + " "
                    + String(shown.storage).padding(toLength: 7, withPad: " ", startingAt: 0) + " "
                    + "\(shown.integrityPassed)/\(shown.integrityChecks)".padding(
                        toLength: 9, withPad: " ", startingAt: 0) + " "
                    + "\(shown.partialSnapshots)/\(shown.snapshotChecks)".padding(
                        toLength: 7, withPad: " ", startingAt: 0) + " "
                    + String(shown.heals).padding(toLength: 5, withPad: " ", startingAt: 0) + " " + String(shown.deaths)
            )
            if name != "total" {
                total.faults = total.faults + figures.faults
                total.syncs += figures.syncs
                total.storage += figures.storage
                total.integrityChecks += figures.integrityChecks
                total.integrityPassed += figures.integrityPassed
                total.snapshotChecks += figures.snapshotChecks
                total.partialSnapshots += figures.partialSnapshots
                total.heals += figures.heals
                total.deaths += figures.deaths
            }
        }
        lines.append(
            "faults by file: "
                + zip(SQLiteFaults.files, total.faults.byFile).map { "\($0) \($1)" }.joined(separator: ", "))
        return lines.joined(separator: "\n")
    }
}

/// A reader of the change feed through `GET /v1/changes`, as a client keeps it:
/// the last seq it read, and what it read.
struct FeedReader {
    var next = 0
    var seqs: [Int] = []
    var pages = 0
    var refused = 0
    var problems: [String] = []

    mutating func read(_ agent: RunningAgent) {
        let answer = agent.curl("GET", "/v1/changes?after=\(next)&limit=100")
        guard answer.status == 200 else {
            refused += 1
            return
        }
        pages += 1
        let changes = answer.json["changes"] as? [[String: Any]] ?? []
        for change in changes {
            guard let seq = change["seq"] as? Int else { continue }
            if seq != next + 1 { problems.append("the feed went from \(next) to \(seq)") }
            seqs.append(seq)
            next = seq
        }
    }
}
