import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// What the API said holds across processes (docs/configuration.md#across-processes),
/// through the real binary: a quota at 0 until its reset, and a `Retry-After` on a 429,
/// that one `sync-agent` process was told are kept in its database, so that the next
/// process (a `refresh` from cron, a restarted agent) waits for the reset instead of
/// spending a request the API would refuse. The upstream's clock and log say when each
/// request came and whether any was refused.
@Suite(.serialized, .timeLimit(.minutes(3))) struct SharedRateLimitsEndToEndTests {
    /// Okta's quota window: long enough that a first `refresh` and the start of a second
    /// both fall inside it, as in the report (3.8 s before the reset).
    static let window = 8 * Sanitizer.slowdown

    /// Okta's users, 12 of them in pages of 4: one walk is three requests.
    func oktaUsers(_ upstream: TestUpstream, extra: String = "") -> String {
        #"""
        {"name": "users", "url": "\#(upstream.baseURL)/okta/users", "query": {"limit": 4}, "key": "/id",
         "pagination": {"style": "link"}\#(extra)}
        """#
    }

    /// An upstream whose Okta answers allow three requests a window, and a workspace of its users.
    func oktaWithAQuotaOfThree() async throws -> (TestUpstream, Workspace) {
        let upstream = try await TestUpstream.start(collections: ["users": 12])
        upstream.setRateLimit(.fixedWindow(requests: 3, window: .seconds(Self.window)), for: .okta)
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [oktaUsers(upstream)])
        return (upstream, workspace)
    }

    /// When the window of `first` (a request to Okta) ends: its whole epoch second plus the
    /// window, as the upstream's limit counts it.
    func windowEnd(after first: SeenRequest) -> Date {
        Date(timeIntervalSince1970: first.receivedAt.timeIntervalSince1970.rounded(.down) + Double(Self.window))
    }

    func succeeded(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains(#""outcome": "success""#), "\(result.stdout)", sourceLocation: sourceLocation)
    }

    /// A refresh of what did not change since the last: Okta's pages revalidate (ETag).
    func unchanged(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)", sourceLocation: sourceLocation)
        #expect(
            result.stdout.contains(#""outcome": "notModified""#), "\(result.stdout)", sourceLocation: sourceLocation)
    }

    @Test func aSecondRefreshWaitsForTheResetOfAQuotaTheFirstUsedUp() async throws {
        let (upstream, workspace) = try await oktaWithAQuotaOfThree()
        defer { Task { await upstream.stop() } }

        // The first refresh's third answer says X-Rate-Limit-Remaining: 0, and when it resets.
        succeeded(try await workspace.run(["refresh", "--json"]))
        let first = upstream.requests
        #expect(first.count == 3)
        let reset = windowEnd(after: try #require(first.first))
        #expect(try workspace.query("SELECT scope, kind FROM rate_limit_holds") == [["127.0.0.1", "quota"]])

        // Another process, started before the reset: it waits for it, then asks.
        let started = Date()
        try #require(started < reset, "the first refresh took the whole window")
        upstream.clearRequests()
        let second = try await workspace.run(["refresh", "--json"])

        unchanged(second)
        let asked = upstream.requests
        #expect(asked.count == 3)
        let early = asked.filter { $0.receivedAt < reset }
        #expect(early.isEmpty, "\(early.count) requests before the reset at \(reset): \(early.map(\.receivedAt))")
        #expect(upstream.rateLimitLog.limitedAnswers == 0, "\(upstream.rateLimitLog.entries.map(\.request.query))")
        #expect(try workspace.records("users").count == 12)
    }

    @Test func aRestartedAgentWaitsForTheResetARefreshWasTold() async throws {
        let (upstream, workspace) = try await oktaWithAQuotaOfThree()
        defer { Task { await upstream.stop() } }
        succeeded(try await workspace.run(["refresh", "--json"]))
        let reset = windowEnd(after: try #require(upstream.requests.first))
        try #require(Date() < reset, "the refresh took the whole window")
        upstream.clearRequests()

        // The agent's first poll (its last success is older than no interval) waits too.
        try workspace.writeConfig(resources: [oktaUsers(upstream, extra: #", "interval": "1s""#)])
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually(timeout: .seconds(3 * Self.window)) { upstream.requests.count >= 3 })
        _ = try await agent.stop()

        let early = upstream.requests.filter { $0.receivedAt < reset }
        #expect(early.isEmpty, "\(early.count) requests before the reset at \(reset)")
        #expect(upstream.rateLimitLog.limitedAnswers == 0, "\(upstream.rateLimitLog.entries.map(\.request.query))")
    }

    @Test func aSecondRefreshWaitsOutTheRetryAfterOfA429TheFirstGaveUpOn() async throws {
        let upstream = try await TestUpstream.start(collections: ["alpha": 30, "beta": 30])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        // Two resources of one scope (the host); `alpha` waits no rate limit out.
        try workspace.writeConfig(resources: [
            upstream.resource("alpha", style: "page", collection: "alpha", extra: #""rateLimit": {"maxWait": "0s"}"#),
            upstream.resource("beta", style: "page", collection: "beta"),
        ])
        let wait = 4 * Sanitizer.slowdown
        upstream.inject(Fault(path: "/page", times: 1, action: .status(429, retryAfter: "\(wait)")))

        // The first refresh meets the 429 and ends rateLimited at once: nothing is waited out.
        let first = try await workspace.run(["refresh", "alpha", "--json"])
        #expect(first.status == 75, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains(#""outcome": "rateLimited""#), "\(first.stdout)")
        let refusal = try #require(upstream.rateLimitLog.entries.first)
        let allowed = try #require(refusal.allowedAt)
        #expect(try workspace.query("SELECT scope, kind FROM rate_limit_holds") == [["127.0.0.1", "wait"]])

        // A refresh of another resource of the scope, in another process: it waits, then asks.
        try #require(Date() < allowed, "the first refresh took longer than the wait")
        let second = try await workspace.run(["refresh", "beta", "--json"])

        succeeded(second)
        #expect(upstream.rateLimitLog.premature.isEmpty, "\(upstream.rateLimitLog.premature.map(\.receivedAt))")
        let beta = upstream.requests.filter { $0.path == "/page/beta" }
        #expect(beta.count == 1)
        #expect(beta.allSatisfy { $0.receivedAt >= allowed }, "\(beta.map(\.receivedAt)) before \(allowed)")
        #expect(try workspace.records("beta").count == 30)
    }
}
