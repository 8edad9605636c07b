import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Retries as a user sees them: `refresh` against a flaky upstream.
@Suite(.timeLimit(.minutes(5))) struct RetryEndToEndTests {
    /// A workspace syncing the upstream's `items` in pages of 100, retrying quickly.
    func workspace(_ upstream: TestUpstream, maxAttempts: Int = 4) throws -> Workspace {
        let workspace = try Workspace()
        try workspace.writeConfig(
            #"""
            {"defaults": {"timeout": "5s", "retry": {"maxAttempts": \#(maxAttempts), "initialDelay": "50ms", "maxDelay": "200ms", "jitter": 0}},
             "resources": [\#(upstream.resource("items", style: "page"))]}
            """#)
        return workspace
    }

    func requests(_ upstream: TestUpstream, page: Int) -> [SeenRequest] {
        upstream.requests.filter { $0.path == "/page/items" && $0.query.contains("page=\(page)&") }
    }

    @Test func transientFailuresAreRetriedAndTheSyncSucceeds() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        upstream.inject(Fault(path: "/page/items", query: "page=2", times: 2, action: .status(503)))

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains(#""outcome": "success""#))
        #expect(result.stdout.contains(#""attempts": 3"#))
        #expect(requests(upstream, page: 2).count == 3)
        #expect(try workspace.value("SELECT count(*) FROM records") == "250")
        #expect(try workspace.query("SELECT outcome, attempts FROM sync_runs") == [["success", "3"]])
        // Reported as they happened, one line each.
        let retries = result.stderr.split(separator: "\n").filter { $0.contains("retrying GET") }
        #expect(retries.count == 2, "\(result.stderr)")
        #expect(
            retries.first?.contains(
                "items: retrying GET \(upstream.baseURL)/page/items?page=2&per_page=100 in 50ms (attempt 2 of 4): "
                    + "the server answered 503 Service Unavailable") == true, "\(result.stderr)")
    }

    @Test func retryAfterIsHonoured() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 50])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        upstream.inject(Fault(path: "/page/items", times: 1, action: .status(429, retryAfter: "1")))

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 0, "\(result.stdout)")
        let attempts = requests(upstream, page: 1)
        #expect(attempts.count == 2)
        // The backoff is 50 ms; the server asked for a second. A rate limit uses no attempt.
        #expect(attempts[1].arrived - attempts[0].arrived >= .seconds(1))
        #expect(result.stderr.contains("items: rate limited until "), "\(result.stderr)")
        #expect(
            result.stderr.contains(
                " (1s): GET \(upstream.baseURL)/page/items?page=1&per_page=100: the server answered 429 Too Many Requests"
            ),
            "\(result.stderr)")
        #expect(upstream.rateLimitLog.premature.isEmpty)
    }

    @Test func aConnectionCutMidBodyIsRetried() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        upstream.inject(Fault(path: "/page/items", query: "page=2", times: 1, action: .truncate))
        upstream.inject(Fault(path: "/page/items", query: "page=1", times: 1, action: .reset))

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains(#""attempts": 3"#))
        #expect(try workspace.value("SELECT count(*) FROM records") == "150")
    }

    @Test func whatCannotSucceedIsNeverRetried() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream)
        upstream.inject(Fault(path: "/page/items", query: "page=2", action: .status(404)))
        upstream.inject(Fault(path: "/page/items", query: "page=1", times: 1, action: .invalidJSON))

        let invalid = try await workspace.run(["refresh", "--json"])
        #expect(invalid.status == 1)
        #expect(invalid.stdout.contains(#""outcome": "failed""#))
        #expect(invalid.stdout.contains(#""attempts": 1"#))
        #expect(requests(upstream, page: 1).count == 1)

        let missing = try await workspace.run(["refresh", "--json"])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("404 Not Found"))
        #expect(requests(upstream, page: 2).count == 1)
        #expect(!missing.stderr.contains("retrying"))
    }

    @Test func givingUpAfterMaxAttemptsLeavesThePreviousSnapshot() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 150])
        defer { Task { await upstream.stop() } }
        let workspace = try workspace(upstream, maxAttempts: 3)
        #expect(try await workspace.run(["refresh"]).status == 0)
        let before = try workspace.query("SELECT key, data, updated_at FROM records ORDER BY key")
        upstream.changeItems("items", ids: [1])
        upstream.inject(Fault(path: "/page/items", query: "page=2", action: .status(502)))
        upstream.clearRequests()

        let result = try await workspace.run(["refresh"])

        #expect(result.status == 1)
        #expect(result.stdout.contains("items  gave up  items: GET"), "\(result.stdout)")
        #expect(result.stdout.contains("502 Bad Gateway"))
        #expect(result.stdout.contains("3 attempts"))
        #expect(requests(upstream, page: 2).count == 3)
        #expect(try workspace.query("SELECT key, data, updated_at FROM records ORDER BY key") == before)
        #expect(try workspace.query("SELECT state, last_error_kind FROM resources") == [["failed", "transient"]])
        #expect(try workspace.value("SELECT outcome FROM sync_runs ORDER BY id DESC LIMIT 1") == "gaveUp")
    }
}
