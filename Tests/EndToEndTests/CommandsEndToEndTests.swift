import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// `validate`, `status` and `history` through the real binary.
@Suite(.timeLimit(.minutes(5))) struct CommandsEndToEndTests {
    @Test func validateSummarizesAValidConfiguration() async throws {
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"{"name": "users", "url": "https://api.example.com/v1/users", "key": "/id", "interval": "5m", "items": "/data", "pagination": {"style": "page", "size": 100}}"#
        ])
        let result = try await workspace.run(["validate"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("\(workspace.configPath) is valid."))
        #expect(result.stdout.contains("database  \(workspace.databasePath)"))
        #expect(result.stdout.contains("users     5m     page (100)"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: workspace.databasePath))
    }

    @Test func aBadConfigurationListsEveryProblemAndCreatesNothing() async throws {
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"""
            {"socketMode": "0606",
             "resources": [
               {"name": "users", "url": "https://api.example.com/users", "key": "/id", "pagination": {"style": "page", "size": 0}},
               {"name": "users", "url": "https://api.example.com/other", "key": "/id", "timeout": "forever"}
             ]}
            """#)

        for command in [["validate"], ["refresh"], ["status"], ["history"]] {
            let result = try await workspace.run(command)
            #expect(result.status == 78, "\(command)")
            #expect(result.stderr.contains("config.json: 4 problems:"), "\(result.stderr)")
            #expect(result.stderr.contains("socketMode: must not give others any access"))
            #expect(result.stderr.contains("resources[0].pagination.size: must be between 1 and 10000"))
            #expect(result.stderr.contains(#"resources[1].name: "users" is already the name of resources[0]"#))
            #expect(result.stderr.contains("resources[1].timeout: must be a duration"))
        }
        let created = try FileManager.default.contentsOfDirectory(atPath: workspace.folder).filter {
            !$0.hasPrefix(".")
        }
        #expect(created == ["config.json"])
    }

    @Test func aMissingConfigurationIsAConfigurationError() async throws {
        let workspace = try Workspace()
        let result = try await workspace.run(["refresh"])
        #expect(result.status == 78)
        #expect(result.stderr.contains("cannot read the configuration: no such file"))
    }

    @Test func statusShowsTheStoredStateAndSaysTheAgentIsNotRunning() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            upstream.resource("items", style: "page"),
            #"{"name": "broken", "url": "\#(upstream.baseURL)/page/nothing", "key": "/id"}"#,
            #"{"name": "later", "url": "\#(upstream.baseURL)/page/items", "key": "/id"}"#,
        ])

        let before = try await workspace.run(["status"])
        #expect(before.status == 3)
        #expect(before.stdout.contains("items     never synced"), "\(before.stdout)")

        _ = try await workspace.run(["refresh", "items", "broken"])
        let table = try await workspace.run(["status"])
        #expect(table.status == 3)
        #expect(table.stderr.contains("the agent is not running"))
        let lines = table.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("RESOURCE  STATE") == true)
        #expect(lines.contains { $0.hasPrefix("items") && $0.contains("idle") && $0.contains("30") })
        #expect(lines.contains { $0.hasPrefix("broken") && $0.contains("failed") && $0.contains("404 Not Found") })
        #expect(lines.contains { $0.hasPrefix("later") && $0.contains("never synced") && $0.contains("never") })

        let json = try await workspace.run(["status", "items", "--json"])
        #expect(json.status == 3)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let resources = try #require(object["resources"] as? [[String: Any]])
        #expect(resources.count == 1)
        #expect(resources.first?["state"] as? String == "idle")
        #expect(resources.first?["items"] as? Int == 30)
        #expect((resources.first?["lastSuccessAt"] as? String)?.hasSuffix("Z") == true)
    }

    @Test func historyListsRecentSyncsNewestFirst() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            upstream.resource("items", style: "page"), upstream.resource("all", style: "none"),
        ])

        let empty = try await workspace.run(["history"])
        #expect(empty.status == 0)
        #expect(empty.stdout.contains("No syncs recorded yet."))

        _ = try await workspace.run(["refresh"])
        _ = try await workspace.run(["refresh", "items"])
        let table = try await workspace.run(["history"])
        #expect(table.status == 0)
        #expect(table.stdout.split(separator: "\n").count == 4)
        let json = try await workspace.run(["history", "items", "--limit", "1", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let runs = try #require(object["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        #expect(runs.first?["outcome"] as? String == "notModified")
        #expect(runs.first?["resource"] as? String == "items")
        let bad = try await workspace.run(["history", "--limit", "0"])
        #expect(bad.status == 64)
    }

    @Test func anotherProgramsDatabaseOrAFileThatIsNoneIsRefusedAndLeftAsItIs() async throws {
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"{"name": "users", "url": "http://127.0.0.1:9/users", "key": "/id"}"#
        ])
        // Another program's SQLite file at the configured path.
        _ = try workspace.query("CREATE TABLE customers (id INTEGER PRIMARY KEY); INSERT INTO customers VALUES (1)")
        let before = try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath))
        for command in [["refresh"], ["run"], ["status"]] {
            let result = try await workspace.run(command)
            #expect(result.status != 0, "\(command)")
            #expect(
                result.stderr.contains("\(workspace.databasePath) is another program's database (tables customers)"),
                "\(command): \(result.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: workspace.databasePath)) == before)
        #expect(try workspace.value("PRAGMA journal_mode") == "delete")
        #expect(!FileManager.default.fileExists(atPath: workspace.databasePath + "-wal"))

        // A file that is no database at all.
        try Data("name,email\n".utf8).write(to: URL(fileURLWithPath: workspace.databasePath))
        let refused = try await workspace.run(["refresh"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is not an SQLite database"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: workspace.databasePath, encoding: .utf8) == "name,email\n")
    }

    @Test func secretsAppearInNoOutputErrorOrStoredMessage() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let credential = "cred-9f8e7d6c5b4a"
        let token = "tok-1a2b3c4d5e6f"
        let credentials = try workspace.writeCredential("api-token", credential)
        try workspace.writeConfig(resources: [
            #"""
            {"name": "items", "url": "\#(upstream.baseURL)/page/items", "items": "/data", "key": "/id",
             "headers": {"Authorization": "Bearer ${credential:api-token}"}, "query": {"token": "${API_TOKEN}"},
             "pagination": {"style": "page", "size": 10}}
            """#,
            #"{"name": "circle", "url": "\#(upstream.baseURL)/redirect?t=${API_TOKEN}", "key": "/id"}"#,
        ])
        let environment = ["API_TOKEN": token, "CREDENTIALS_DIRECTORY": credentials]
        // The upstream echoes both secrets in its error body, as real APIs do.
        upstream.inject(
            Fault(
                path: "/page/items", query: "page=2",
                action: .status(500, body: #"{"error": "bad token \#(token) for Bearer \#(credential)"}"#)))

        var outputs: [String] = []
        for command in [
            ["validate"], ["refresh"], ["refresh", "--json", "--log-level", "debug"], ["status", "--json"],
            ["history", "--json"],
        ] {
            let result = try await workspace.run(command, environment: environment)
            outputs.append(result.stdout + result.stderr)
        }
        let stored = try workspace.query(
            "SELECT coalesce(last_error, '') FROM resources UNION ALL SELECT coalesce(error, '') FROM sync_runs"
        )
        .flatMap { $0 }.joined(separator: "\n")
        outputs.append(stored)

        // The secrets did reach the upstream…
        let sent = try #require(upstream.requests.first { $0.path == "/page/items" })
        #expect(sent.headers["authorization"] == "Bearer \(credential)")
        #expect(sent.query.contains("token=\(token)"))
        // …and appear nowhere a person or program reads.
        for output in outputs {
            #expect(!output.contains(token), "\(output)")
            #expect(!output.contains(credential), "\(output)")
        }
        #expect(stored.contains("token=${API_TOKEN}"), "\(stored)")
        #expect(outputs[1].contains("500 Internal Server Error"))
        #expect(outputs[1].contains("bad token ${API_TOKEN} for Bearer ${credential:api-token}"), "\(outputs[1])")
        #expect(outputs[1].contains("the redirects go in a circle back to"))

        // Each page's request is kept for the next sync to revalidate it,
        // its secrets sealed; and sealed, it still leads the walk.
        upstream.clearFaults()
        #expect(try await workspace.run(["refresh", "items"], environment: environment).status == 0)
        let kept = try workspace.query("SELECT coalesce(next, '') FROM pages").flatMap { $0 }.joined(separator: "\n")
        #expect(!kept.contains(token), "\(kept)")
        #expect(kept.contains("token=${sealed|${API_TOKEN}|"), "\(kept)")
        upstream.clearRequests()
        let again = try await workspace.run(["refresh", "items", "--json"], environment: environment)
        #expect(again.stdout.contains(#""outcome": "notModified""#), "\(again.stdout)")
        #expect(upstream.requests.count == 4)
        #expect(upstream.requests.allSatisfy { $0.query.contains("token=\(token)") })
    }
}
