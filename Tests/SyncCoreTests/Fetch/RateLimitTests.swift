import Foundation
import NIOHTTP1
import Streams
import StreamsTesting
import Testing

@testable import SyncCore

/// How answers are told apart (rate limit, transient, unrecoverable, an error
/// inside a 200), what wait they ask for, and how a scope's budget spaces requests.
@Suite(.timeLimit(.minutes(1))) struct ResponseVerdictTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    func verdict(
        _ status: Int, _ body: String = "{}", headers: [(String, String)] = [], settings: SyncSettings = SyncSettings()
    ) -> ResponseVerdict? {
        let bytes = Array(body.utf8)
        return ResponseVerdict.failure(
            status: status, headers: HTTPHeaders(headers), body: bytes, document: try? JSONDocument(validating: bytes),
            settings: settings, now: Self.now)
    }

    func settings(_ resourceMembers: String) throws -> SyncSettings {
        let text =
            #"{"resources": [{"name": "r", "url": "https://api.example.com/r", "key": "/id", \#(resourceMembers)}]}"#
        return try ConfigLoader.decode(Array(text.utf8), file: "/etc/sync-agent/config.json", environment: [:])
            .resources[0].settings
    }

    @Test func githubsPrimaryLimitWaitsForTheResetEpoch() throws {
        let answer = try #require(
            verdict(
                403,
                #"{"message": "API rate limit exceeded for 203.0.113.7.", "documentation_url": "https://docs.github.com"}"#,
                headers: [("x-ratelimit-remaining", "0"), ("x-ratelimit-reset", "1795000042")]))
        #expect(answer.kind == .rateLimited)
        #expect(answer.wait == .seconds(42))
        #expect(answer.cause == "the server answered 403 Forbidden: API rate limit exceeded for 203.0.113.7.")
    }

    @Test func githubsSecondaryLimitWaitsForRetryAfter() {
        let answer = verdict(
            403, #"{"message": "You have exceeded a secondary rate limit"}"#, headers: [("retry-after", "60")])
        #expect(answer?.kind == .rateLimited)
        #expect(answer?.wait == .seconds(60))
    }

    @Test func aPlain403IsUnrecoverableAndQuotesTheAPI() {
        let answer = verdict(403, #"{"error": {"message": "Resource not accessible by integration"}}"#)
        #expect(answer?.kind == .unrecoverable)
        #expect(answer?.cause == "the server answered 403 Forbidden: Resource not accessible by integration")
        #expect(answer?.wait == nil)
    }

    @Test func a429IsARateLimitWithDecimalOrDateRetryAfterOrResetOrNone() {
        #expect(verdict(429, headers: [("Retry-After", "2.0")])?.wait == .seconds(2))
        #expect(verdict(429, headers: [("Retry-After", "0.25")])?.wait == .milliseconds(250))
        #expect(verdict(429, headers: [("Retry-After", "Wed, 18 Nov 2026 11:07:00 GMT")])?.wait == .seconds(20))
        // IETF ratelimit-reset is a delta; with no Retry-After it is the wait.
        #expect(verdict(429, headers: [("ratelimit-remaining", "0"), ("ratelimit-reset", "7")])?.wait == .seconds(7))
        let stripe = verdict(
            429, #"{"error": {"message": "Request rate limit exceeded.", "type": "invalid_request_error"}}"#)
        #expect(stripe?.kind == .rateLimited)
        #expect(stripe?.wait == nil)
        #expect(stripe?.cause == "the server answered 429 Too Many Requests: Request rate limit exceeded.")
    }

    @Test func retryOnRulesMakeAnAnswerTransientOrARateLimit() throws {
        let settings = try settings(
            #""retry": {"on": [{"status": 403, "bodyContains": "userRateLimitExceeded", "as": "rateLimit"}, {"status": 400, "pointer": "/code", "equals": "lock_timeout"}], "never": [503]}"#
        )
        let google = verdict(
            403,
            #"{"error": {"code": 403, "message": "User Rate Limit Exceeded", "errors": [{"reason": "userRateLimitExceeded"}]}}"#,
            settings: settings)
        #expect(google?.kind == .rateLimited)
        #expect(google?.cause == "the server answered 403 Forbidden: User Rate Limit Exceeded")
        #expect(
            verdict(403, #"{"error": {"errors": [{"reason": "forbidden"}]}}"#, settings: settings)?.kind
                == .unrecoverable)
        #expect(verdict(400, #"{"code": "lock_timeout"}"#, settings: settings)?.kind == .transient)
        #expect(verdict(503, settings: settings)?.kind == .unrecoverable)
        #expect(verdict(502, settings: settings)?.kind == .transient)
    }

    @Test func errorWhenMakesA200AFailureClassifiedByTheRules() throws {
        let settings = try settings(
            #""errorWhen": {"pointer": "/ok", "equals": false, "message": "/error"}, "retry": {"on": [{"status": 200, "pointer": "/error", "equals": "ratelimited", "as": "rateLimit"}]}"#
        )
        #expect(verdict(200, #"{"ok": true, "members": []}"#, settings: settings) == nil)
        let auth = verdict(200, #"{"ok": false, "error": "invalid_auth"}"#, settings: settings)
        #expect(auth?.kind == .unrecoverable)
        #expect(auth?.cause == "the server answered 200 OK with an error: invalid_auth")
        let limited = verdict(
            200, #"{"ok": false, "error": "ratelimited"}"#, headers: [("Retry-After", "3")], settings: settings)
        #expect(limited?.kind == .rateLimited)
        #expect(limited?.wait == .seconds(3))
    }

    @Test func theAPIsMessageIsFoundWhereAPIsPutItAndCut() {
        #expect(
            verdict(404, #"{"errors": [{"message": "Not found", "code": 34}]}"#)?.cause
                == "the server answered 404 Not Found: Not found")
        #expect(
            verdict(401, #"{"error": "invalid_grant", "error_description": "expired"}"#)?.cause
                == "the server answered 401 Unauthorized: invalid_grant")
        #expect(
            verdict(401, #"{"error_description": "Token expired"}"#)?.cause
                == "the server answered 401 Unauthorized: Token expired")
        #expect(
            verdict(429, #"{"errors": "Exceeded 2 calls per second for api client."}"#)?.cause
                == "the server answered 429 Too Many Requests: Exceeded 2 calls per second for api client.")
        #expect(
            verdict(400, "bad request: no such field")?.cause
                == "the server answered 400 Bad Request: bad request: no such field")
        #expect(
            verdict(500, "<html><body>oops</body></html>")?.cause == "the server answered 500 Internal Server Error")
        let long = String(repeating: "x", count: 300)
        #expect(
            verdict(400, #"{"message": "\#(long)"}"#)?.cause == "the server answered 400 Bad Request: "
                + String(repeating: "x", count: 200) + "…")
    }

    @Test func quotaHeadersAreReadInEveryDialect() {
        func quota(_ headers: [String: String]) -> QuotaHeaders {
            QuotaHeaders({ headers[$0] }, now: Self.now)
        }
        let github = quota([
            "x-ratelimit-remaining": "12", "x-ratelimit-limit": "5000", "x-ratelimit-reset": "1795000600",
        ])
        #expect(github == QuotaHeaders(remaining: 12, limit: 5000, resetIn: .seconds(600)))
        let ietf = quota(["ratelimit-remaining": "3", "ratelimit-limit": "100", "ratelimit-reset": "30"])
        #expect(ietf == QuotaHeaders(remaining: 3, limit: 100, resetIn: .seconds(30)))
        let combined = quota(["ratelimit": "limit=10, remaining=0, reset=5"])
        #expect(combined == QuotaHeaders(remaining: 0, limit: 10, resetIn: .seconds(5)))
        let milliseconds = quota(["x-ratelimit-remaining": "0", "x-ratelimit-reset": "1795000001500"])
        #expect(milliseconds.resetIn == .milliseconds(1500))
        let shopify = quota(["x-shopify-shop-api-call-limit": "39/40"])
        #expect(shopify == QuotaHeaders(remaining: 1, limit: 40, resetIn: nil))
        #expect(quota([:]) == QuotaHeaders(remaining: nil, limit: nil, resetIn: nil))
        // Okta: X-Rate-Limit-*, the reset in epoch seconds.
        let okta = quota([
            "x-rate-limit-limit": "600", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "1795000060",
        ])
        #expect(okta == QuotaHeaders(remaining: 0, limit: 600, resetIn: .seconds(60)))
    }

    /// Found by the `ratelimit` fuzz target (fuzz/regressions/ratelimit): a reset beyond
    /// Int64's milliseconds trapped, and a negative count was taken as one.
    @Test func aCountIsNeverNegativeAndAResetNeverOverflows() {
        let quota = QuotaHeaders(
            { ["x-ratelimit-remaining": "-5", "x-ratelimit-limit": "-1", "x-ratelimit-reset": "1e300"][$0] },
            now: Self.now)
        #expect(quota == QuotaHeaders(remaining: nil, limit: nil, resetIn: RetryAfter.longest))
        #expect(QuotaHeaders({ ["x-shopify-shop-api-call-limit": "-3/40"][$0] }, now: Self.now).limit == nil)
    }

    @Test func headersTheResourceNamesComeBeforeTheUsualOnes() throws {
        let names = try settings(
            #"""
            "rateLimit": {"headers": {"remaining": "X-RateLimit-Requests-Remaining", "reset": "X-RateLimit-Requests-Reset",
                                      "limit": "X-RateLimit-Requests-Limit"}}
            """#
        ).rateLimit.headers
        #expect(names.remaining == "X-RateLimit-Requests-Remaining")
        // Linear: its requests' quota, the reset in epoch milliseconds, beside
        // another quota under the usual names.
        let linear: [String: String] = [
            "x-ratelimit-requests-remaining": "0", "x-ratelimit-requests-limit": "5000",
            "x-ratelimit-requests-reset": "1795000002500", "x-ratelimit-remaining": "240000",
            "x-ratelimit-limit": "250000", "x-ratelimit-reset": "1795003600",
        ]
        #expect(
            QuotaHeaders({ linear[$0] }, names: names, now: Self.now)
                == QuotaHeaders(remaining: 0, limit: 5000, resetIn: .milliseconds(2500)))
        #expect(
            QuotaHeaders({ linear[$0] }, now: Self.now)
                == QuotaHeaders(remaining: 240_000, limit: 250_000, resetIn: .seconds(3600)))
        // A header named but not sent leaves its field to the usual names.
        let some = QuotaHeaderNames(remaining: "X-Left")
        let sent = ["x-left": "3", "x-ratelimit-remaining": "9", "ratelimit-reset": "5"]
        #expect(
            QuotaHeaders({ sent[$0] }, names: some, now: Self.now)
                == QuotaHeaders(remaining: 3, limit: nil, resetIn: .seconds(5)))
        #expect(QuotaHeaders({ ["x-ratelimit-remaining": "9"][$0] }, names: some, now: Self.now).remaining == 9)
    }

    @Test func aForbiddenAnswerWithNoneLeftUnderTheNamedHeadersIsARateLimit() throws {
        let named = try settings(
            #""rateLimit": {"headers": {"remaining": "X-Requests-Left", "reset": "X-Requests-Reset"}}"#)
        let headers = [("X-Requests-Left", "0"), ("X-Requests-Reset", "1795000030000")]
        let answer = try #require(verdict(403, #"{"message": "slow down"}"#, headers: headers, settings: named))
        #expect(answer.kind == .rateLimited)
        #expect(answer.wait == .seconds(30))
        // Unnamed, they mean nothing: a plain 403.
        #expect(verdict(403, headers: headers)?.kind == .unrecoverable)
        // Okta's are read without naming them.
        let okta = verdict(403, headers: [("X-Rate-Limit-Remaining", "0"), ("X-Rate-Limit-Reset", "1795000045")])
        #expect(okta?.kind == .rateLimited)
        #expect(okta?.wait == .seconds(45))
    }

    @Test func aResourcesHeadersReplaceThoseOfDefaults() throws {
        let config = try decodeConfig(
            #"""
            {"defaults": {"rateLimit": {"headers": {"remaining": "X-A-Remaining", "reset": "X-A-Reset"}}},
             "resources": [\#(resource("a")), \#(resource("b", #""rateLimit": {"headers": {"remaining": "X-B-Left"}}"#))]}
            """#)
        #expect(
            config.resources[0].settings.rateLimit.headers
                == QuotaHeaderNames(remaining: "X-A-Remaining", reset: "X-A-Reset"))
        #expect(config.resources[1].settings.rateLimit.headers == QuotaHeaderNames(remaining: "X-B-Left"))
    }
}

@Suite(.timeLimit(.minutes(1))) struct RequestBudgetTests {
    let clock = VirtualClock()

    func budget(_ requests: Int, per: Duration, burst: Int? = nil) -> RequestBudget {
        RequestBudget(
            scope: "api.example.com",
            budget: RateLimitSettings.Budget(requests: requests, per: per, burst: burst ?? requests), clock: clock)
    }

    @Test func aBucketLetsTheBurstGoThenSpacesRequestsAtItsRate() {
        // Shopify: a bucket of 40 that leaks 2 a second.
        let budget = budget(2, per: .seconds(1), burst: 40)
        let waits = (1...44).map { _ in budget.reserve() }
        #expect(waits.prefix(40).allSatisfy { $0 == .zero })
        #expect(Array(waits.suffix(4)) == [.milliseconds(500), .seconds(1), .milliseconds(1500), .seconds(2)])
    }

    @Test func aQuietTimeRefillsTheBucketUpToItsBurst() async {
        let budget = budget(1, per: .seconds(1), burst: 2)
        #expect(budget.reserve() == .zero)
        #expect(budget.reserve() == .zero)
        #expect(budget.reserve() == .seconds(1))
        await clock.advance(by: .seconds(10))
        #expect(budget.reserve() == .zero)
        #expect(budget.reserve() == .zero)
        #expect(budget.reserve() == .seconds(1))
    }

    @Test func aRateLimitBlocksTheWholeScopeUntilItsReset() async {
        let budget = RequestBudget(scope: "api.github.com", budget: nil, clock: clock)
        #expect(budget.reserve() == .zero)
        budget.block(for: .seconds(30))
        await clock.advance(by: .seconds(10))
        #expect(budget.reserve() == .seconds(20))
        #expect(budget.reserve() == .seconds(20))
        await clock.advance(by: .seconds(20))
        #expect(budget.reserve() == .zero)
    }

    @Test func nearlyExhaustedQuotaIsSpreadOverTheTimeLeft() async {
        let budget = RequestBudget(scope: "api.github.com", budget: nil, clock: clock)
        // Plenty left: no pacing.
        budget.learn(QuotaHeaders(remaining: 4000, limit: 5000, resetIn: .seconds(3600)))
        #expect(budget.reserve() == .zero)
        #expect(budget.reserve() == .zero)
        // 100 left for 600 s: one request every 6 s.
        budget.learn(QuotaHeaders(remaining: 100, limit: 5000, resetIn: .seconds(600)))
        #expect(budget.reserve() == .seconds(6))
        #expect(budget.reserve() == .seconds(12))
        // None left: nothing before the reset, even on a success.
        budget.learn(QuotaHeaders(remaining: 0, limit: 5000, resetIn: .seconds(900)))
        #expect(budget.reserve() == .seconds(900))
    }

    @Test func oktasLastRequestOfTheWindowHoldsTheScopeUntilItsReset() async {
        let budget = RequestBudget(scope: "example.okta.com", budget: nil, clock: clock)
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let headers = ["x-rate-limit-limit": "600", "x-rate-limit-remaining": "0", "x-rate-limit-reset": "1795000042"]
        // A 200 that used the window's last request.
        budget.learn(QuotaHeaders({ headers[$0] }, now: now))
        #expect(budget.reserve() == .seconds(42))
        await clock.advance(by: .seconds(42))
        #expect(budget.reserve() == .zero)
    }

    @Test func resourcesOfOneScopeShareABudget() throws {
        let text = #"""
            {"resources": [
              {"name": "a", "url": "https://api.github.com/a", "key": "/id"},
              {"name": "b", "url": "https://api.github.com/b", "key": "/id"},
              {"name": "c", "url": "https://other.example.com/c", "key": "/id", "rateLimit": {"scope": "github"}},
              {"name": "d", "url": "https://api.github.com/d", "key": "/id", "rateLimit": {"scope": "github"}}
            ]}
            """#
        let resources = try ConfigLoader.decode(Array(text.utf8), file: "/etc/sync-agent/config.json", environment: [:])
            .resources
        let budgets = RequestBudgets(resources: resources, clock: clock)
        let scopes = resources.map { budgets.budget(for: $0) }
        #expect(scopes[0] === scopes[1])
        #expect(scopes[2] === scopes[3])
        #expect(scopes[0] !== scopes[2])
        #expect(scopes.map(\.scope) == ["api.github.com", "api.github.com", "github", "github"])
    }

    @Test func rateLimitWaitsAddUpToMaxWait() {
        let waits = RateLimitWaits(maxWait: .seconds(100))
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), maxDelay: .seconds(60), jitter: 0)
        #expect(waits.next(told: .seconds(60), policy: policy, unit: 0.5) == .seconds(60))
        // Without a told wait, the backoff grows with each wait.
        #expect(waits.next(told: nil, policy: policy, unit: 0.5) == .seconds(2))
        #expect(waits.next(told: nil, policy: policy, unit: 0.5) == .seconds(4))
        #expect(waits.next(told: .seconds(40), policy: policy, unit: 0.5) == nil)
    }
}

@Suite(.timeLimit(.minutes(1))) struct BudgetConfigurationTests {
    func problems(_ resources: String) -> [String] {
        let text = #"{"resources": [\#(resources)]}"#
        do {
            _ = try ConfigLoader.decode(Array(text.utf8), file: "/etc/sync-agent/config.json", environment: [:])
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func resourcesOfOneScopeMayNotHaveDifferentBudgets() {
        #expect(
            problems(
                #"""
                {"name": "a", "url": "https://api.github.com/a", "key": "/id", "rateLimit": {"requests": 5000, "per": "1h"}},
                {"name": "b", "url": "https://api.github.com/b", "key": "/id"},
                {"name": "c", "url": "https://api.github.com/c", "key": "/id", "rateLimit": {"requests": 10, "per": "1s"}},
                {"name": "d", "url": "https://api.github.com/d", "key": "/id", "rateLimit": {"requests": 10, "per": "1s", "scope": "search"}}
                """#)
                == [
                    #"resources[2].rateLimit: differs from the budget of resources[0] in the same scope "api.github.com" (5000 per 1h, burst 5000); resources of one scope share one budget: give them the same, or set "scope""#
                ])
    }

    @Test func aResourceWithoutABudgetSharesTheOneItsScopeConfigures() throws {
        let text = #"""
            {"resources": [
              {"name": "a", "url": "https://api.github.com/a", "key": "/id"},
              {"name": "b", "url": "https://api.github.com/b", "key": "/id", "rateLimit": {"requests": 1, "per": "1s", "burst": 1}}
            ]}
            """#
        let resources = try ConfigLoader.decode(Array(text.utf8), file: "/etc/sync-agent/config.json", environment: [:])
            .resources
        let budgets = RequestBudgets(resources: resources, clock: VirtualClock())
        let shared = budgets.budget(for: resources[0])
        #expect(shared.reserve() == .zero)
        #expect(shared.reserve() == .seconds(1))
    }

    @Test func aBudgetWaitLongerThanMaxWaitIsRefusedAndTakesNoSlot() async throws {
        let budget = RequestBudget(
            scope: "s", budget: RateLimitSettings.Budget(requests: 1, per: .seconds(60), burst: 1),
            clock: VirtualClock())
        try await budget.admit(maxWait: .seconds(10))
        await #expect(throws: RequestBudget.TooLong.self) { try await budget.admit(maxWait: .seconds(10)) }
        #expect(budget.reserve() == .seconds(60))
    }
}
