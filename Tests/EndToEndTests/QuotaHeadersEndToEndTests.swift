import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Quota headers by any name (docs/configuration.md#what-answers-say-about-the-quota),
/// through the real binary: an answer that says no request is left holds the next
/// one until the reset it tells, so an API that refuses any request sent before
/// then refuses none.
@Suite(.timeLimit(.minutes(3))) struct QuotaHeadersEndToEndTests {
    @Test func oktasQuotaHeadersHoldTheNextRequestUntilTheResetSoNoneIsRefused() async throws {
        let upstream = try await TestUpstream.start(collections: ["users": 40])
        defer { Task { await upstream.stop() } }
        // Three requests a second, and ten pages of four users: four windows.
        upstream.setRateLimit(.fixedWindow(requests: 3, window: .seconds(1)), for: .okta)
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "users", "url": "\#(upstream.baseURL)/okta/users", "query": {"limit": 4}, "key": "/id",
             "pagination": {"style": "link"}}
            """#
        ])

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(#""outcome": "success""#), "\(result.stdout)")
        #expect(try workspace.records("users").count == 40)
        let log = upstream.rateLimitLog
        #expect(log.limitedAnswers == 0, "\(log.entries.map { "\($0.status) \($0.request.query)" })")
        // Each page asked once: no request was spent on a refusal.
        #expect(upstream.requestCount(path: "/okta/users") == 10)
    }

    /// A Linear resource of `issues` in pages of four, with `extra` members.
    func linear(_ upstream: TestUpstream, _ extra: String) -> String {
        #"""
        {"name": "issues", "url": "\#(upstream.baseURL)/linear/issues", "method": "POST",
         "body": {"query": "query Issues($first: Int, $after: String) { issues(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }",
                  "variables": {"first": 4}},
         "items": "/data/issues/nodes", "key": "/id",
         "pagination": {"style": "cursor", "in": "body", "param": "/variables/after",
                        "next": "/data/issues/pageInfo/endCursor", "hasMore": "/data/issues/pageInfo/hasNextPage"},
         "retry": {"maxAttempts": 3, "initialDelay": "100ms", "jitter": 0,
                   "on": [{"pointer": "/errors/0/extensions/code", "equals": "RATELIMITED", "as": "rateLimit"}]}\#(extra)}
        """#
    }

    @Test func anAPIsOwnQuotaHeadersNamedInTheConfigurationDoTheSame() async throws {
        let upstream = try await TestUpstream.start(collections: ["issues": 40])
        defer { Task { await upstream.stop() } }

        // Unnamed, Linear's X-RateLimit-Requests-* tell the agent nothing: it meets the limit.
        upstream.setRateLimit(.fixedWindow(requests: 3, window: .seconds(1)), for: .linear)
        let blindWorkspace = try Workspace()
        try blindWorkspace.writeConfig(resources: [linear(upstream, "")])
        let blind = try await blindWorkspace.run(["refresh", "--json"])
        #expect(blind.status == 0, "\(blind.stdout)\n\(blind.stderr)")
        #expect(upstream.rateLimitLog.limitedAnswers > 0)

        // Named, they hold the next request until the reset (epoch milliseconds).
        upstream.setRateLimit(.fixedWindow(requests: 3, window: .seconds(1)), for: .linear)
        upstream.clearRateLimitLog()
        upstream.clearRequests()
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            linear(
                upstream,
                #"""
                , "rateLimit": {"headers": {"remaining": "X-RateLimit-Requests-Remaining",
                                             "reset": "X-RateLimit-Requests-Reset", "limit": "X-RateLimit-Requests-Limit"}}
                """#)
        ])
        let named = try await workspace.run(["refresh", "--json"])

        #expect(named.status == 0, "\(named.stdout)\n\(named.stderr)")
        #expect(named.stdout.contains(#""outcome": "success""#), "\(named.stdout)")
        #expect(try workspace.records("issues").count == 40)
        let log = upstream.rateLimitLog
        #expect(log.limitedAnswers == 0, "\(log.entries.map { "\($0.status) \($0.request.body)" })")
        #expect(upstream.requestCount(path: "/linear/issues") == 10)
    }
}
