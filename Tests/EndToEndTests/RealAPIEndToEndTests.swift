import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// The agent against imitations of the APIs people sync from (their
/// pagination, envelopes, errors and rate limits as documented; see the
/// test upstream's `Routes`), with the configurations of docs/recipes.md:
/// each one syncs a complete, correct copy, waits out the rate limits
/// without sending a request before it is allowed and without ever ending
/// `failed`, and picks up a change on any page.
@Suite(.timeLimit(.minutes(5))) struct RealAPIEndToEndTests {
    /// One API's case: the resource (the recipe, pointed at the upstream), the
    /// collection it reads, and the rate limit the upstream enforces.
    struct APICase: Sendable, CustomTestStringConvertible {
        var api: ImitatedAPI
        var resource: @Sendable (_ baseURL: String) -> String
        var limit: UpstreamRateLimit?
        /// Whether its answers tell the quota left (x-ratelimit-remaining and
        /// kin): the agent then slows down before the limit and is refused no more.
        var toldQuota = false
        /// The first page, as `curl` arguments after the origin: how another
        /// client of the same account uses up the quota.
        var firstPage: [String] = []
        var testDescription: String { api.rawValue }
    }

    static let retry = #""retry": {"maxAttempts": 3, "initialDelay": "100ms", "maxDelay": "2s", "jitter": 0.1}"#

    static let cases: [APICase] = [
        APICase(
            api: .github,
            resource: { base in
                #"""
                {"name": "issues", "url": "\#(base)/github/issues", "query": {"per_page": 50}, "key": "/id",
                 "pagination": {"style": "link"}, \#(retry)}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)), toldQuota: true,
            firstPage: ["/github/issues?per_page=50"]),
        APICase(
            api: .stripe,
            resource: { base in
                #"""
                {"name": "customers", "url": "\#(base)/stripe/customers", "query": {"limit": 50}, "items": "/data",
                 "key": "/id", "pagination": {"style": "cursor", "cursorFromLastItem": "/id", "param": "starting_after",
                 "hasMore": "/has_more"}, \#(retry)}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)),
            firstPage: ["/stripe/customers?limit=50"]),
        APICase(
            api: .slack,
            resource: { base in
                #"""
                {"name": "members", "url": "\#(base)/slack/members", "query": {"limit": 50}, "items": "/members",
                 "key": "/id", "pagination": {"style": "cursor", "next": "/response_metadata/next_cursor"},
                 "errorWhen": {"pointer": "/ok", "equals": false, "message": "/error"},
                 "retry": {"maxAttempts": 3, "initialDelay": "100ms", "jitter": 0,
                           "on": [{"pointer": "/error", "equals": "ratelimited", "as": "rateLimit"}]}}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)),
            firstPage: ["/slack/members?limit=50"]),
        APICase(
            api: .notion,
            resource: { base in
                #"""
                {"name": "tasks", "url": "\#(base)/notion/tasks/query", "method": "POST", "body": {"page_size": 50},
                 "items": "/results", "key": "/id",
                 "pagination": {"style": "cursor", "param": "start_cursor", "in": "body", "next": "/next_cursor",
                                "hasMore": "/has_more"}, \#(retry)}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)),
            firstPage: [
                "/notion/tasks/query", "-X", "POST", "-H", "Content-Type: application/json", "-d",
                #"{"page_size": 50}"#,
            ]),
        APICase(
            api: .google,
            resource: { base in
                #"""
                {"name": "events", "url": "\#(base)/google/events", "query": {"maxResults": 50}, "items": "/items",
                 "key": "/id", "pagination": {"style": "cursor", "param": "pageToken", "next": "/nextPageToken"},
                 "retry": {"maxAttempts": 3, "initialDelay": "200ms", "jitter": 0.1,
                           "on": [{"status": 403, "bodyContains": "RateLimitExceeded", "as": "rateLimit"},
                                  {"status": 429, "bodyContains": "RateLimitExceeded", "as": "rateLimit"}]}}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)),
            firstPage: ["/google/events?maxResults=50"]),
        APICase(
            api: .shopify,
            resource: { base in
                #"""
                {"name": "products", "url": "\#(base)/shopify/products.json", "query": {"limit": 50},
                 "items": "/products", "key": "/id", "pagination": {"style": "link"}, \#(retry)}
                """#
            },
            limit: .leakyBucket(size: 3, leaksPerSecond: 1), toldQuota: true,
            firstPage: ["/shopify/products.json?limit=50"]),
        APICase(
            api: .zendesk,
            resource: { base in
                #"""
                {"name": "users", "url": "\#(base)/zendesk/users", "query": {"per_page": 50}, "items": "/users",
                 "key": "/id", "pagination": {"style": "nextUrl", "next": "/after_url",
                                              "stopWhen": {"pointer": "/end_of_stream", "equals": true}}, \#(retry)}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)), toldQuota: true,
            firstPage: ["/zendesk/users?per_page=50"]),
        APICase(
            api: .salesforce,
            resource: { base in
                #"""
                {"name": "accounts", "url": "\#(base)/salesforce/accounts/query",
                 "headers": {"Sforce-Query-Options": "batchSize=50"}, "items": "/records", "key": "/id",
                 "pagination": {"style": "nextUrl", "next": "/nextRecordsUrl"},
                 "retry": {"maxAttempts": 3, "initialDelay": "200ms", "jitter": 0.1,
                           "on": [{"status": 403, "bodyContains": "REQUEST_LIMIT_EXCEEDED", "as": "rateLimit"}]}}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)),
            firstPage: ["/salesforce/accounts/query"]),
        APICase(
            api: .okta,
            resource: { base in
                #"""
                {"name": "users", "url": "\#(base)/okta/users", "query": {"limit": 50}, "key": "/id",
                 "pagination": {"style": "link"}, \#(retry)}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)), toldQuota: true,
            firstPage: ["/okta/users?limit=50"]),
        APICase(
            api: .linear,
            resource: { base in
                #"""
                {"name": "issues", "url": "\#(base)/linear/issues", "method": "POST",
                 "body": {"query": "query Issues($first: Int, $after: String) { issues(first: $first, after: $after) { nodes { id } pageInfo { hasNextPage endCursor } } }",
                          "variables": {"first": 50}},
                 "items": "/data/issues/nodes", "key": "/id",
                 "pagination": {"style": "cursor", "in": "body", "param": "/variables/after",
                                "next": "/data/issues/pageInfo/endCursor", "hasMore": "/data/issues/pageInfo/hasNextPage"},
                 "rateLimit": {"headers": {"remaining": "X-RateLimit-Requests-Remaining",
                                           "reset": "X-RateLimit-Requests-Reset", "limit": "X-RateLimit-Requests-Limit"}},
                 "retry": {"maxAttempts": 3, "initialDelay": "100ms", "jitter": 0.1,
                           "on": [{"pointer": "/errors/0/extensions/code", "equals": "RATELIMITED", "as": "rateLimit"}]}}
                """#
            },
            limit: .fixedWindow(requests: 3, window: .seconds(2)), toldQuota: true,
            firstPage: [
                "/linear/issues", "-X", "POST", "-H", "Content-Type: application/json", "-d",
                #"{"query": "{ issues { nodes { id } } }", "variables": {"first": 50}}"#,
            ]),
    ]

    /// The collection a resource of `apiCase` reads: its name is the second path component.
    func collection(_ apiCase: APICase) -> String {
        switch apiCase.api {
        case .github: "issues"
        case .stripe: "customers"
        case .slack: "members"
        case .notion: "tasks"
        case .google: "events"
        case .shopify: "products"
        case .zendesk: "users"
        case .salesforce: "accounts"
        case .okta: "users"
        case .linear: "issues"
        // Their collections are fixed (ChangeModelEndToEndTests): none is a case here.
        case .jira, .graph, .shopifyGraphQL, .couchdb, .githubSearch, .drive, .gitlab: ""
        }
    }

    @Test(arguments: cases)
    func syncsACompleteCopyWaitsOutRateLimitsAndFollowsChanges(_ apiCase: APICase) async throws {
        let collection = collection(apiCase)
        let upstream = try await TestUpstream.start(collections: [collection: 230])
        defer { Task { await upstream.stop() } }
        upstream.setRateLimit(apiCase.limit, for: apiCase.api)
        // Another client has just used up the quota: the agent's first request is refused.
        for _ in 0..<3 { try curl(upstream.baseURL + apiCase.firstPage[0], Array(apiCase.firstPage.dropFirst())) }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [apiCase.resource(upstream.baseURL)])
        let name = try #require(workspace.resourceNames.first)

        let first = try await workspace.run(["refresh", "--json"])

        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(first.stdout.contains(#""outcome": "success""#), "\(first.stdout)")
        try expectCopy(of: collection, in: upstream, as: name, workspace)
        // Five pages of 50 against a limit of 3 every 2 s, already spent:
        // refused and waited out, and when the answers tell the quota left,
        // refused only that once (the agent slows down before the limit);
        // nothing sent before it was allowed.
        let log = upstream.rateLimitLog
        let refused = log.agentRefusals
        #expect(!refused.isEmpty, "\(apiCase.api) was never rate limited")
        if apiCase.toldQuota { #expect(refused.count == 1, "\(refused.map(\.request.query))") }
        #expect(log.premature.isEmpty, "\(log.premature.map { "\($0.receivedAt) \($0.path)?\($0.query)" })")
        #expect(try workspace.query("SELECT state FROM resources") == [["idle"]])

        // A change on a middle page and on the last one reaches the copy.
        upstream.changeItems(collection, ids: [120, 229])
        upstream.removeItems(collection, ids: [230])
        let second = try await workspace.run(["refresh", "--json"])
        #expect(second.status == 0, "\(second.stdout)\n\(second.stderr)")
        #expect(second.stdout.contains(#""outcome": "success""#), "\(second.stdout)")
        try expectCopy(of: collection, in: upstream, as: name, workspace, removed: [230])
        #expect(try workspace.records(name)["120"]?.contains(#""revision":2"#) == true)
        #expect(upstream.rateLimitLog.premature.isEmpty)
        #expect(
            try workspace.query("SELECT outcome FROM sync_runs ORDER BY id") == [["success"], ["success"]])
    }

    /// A GitHub resource of `issues` in pages of 50 (five pages for 230 items).
    func github(_ upstream: TestUpstream, _ extra: String = "") -> String {
        #"""
        {"name": "issues", "url": "\#(upstream.baseURL)/github/issues", "query": {"per_page": 50}, "key": "/id",
         "pagination": {"style": "link"}, "retry": {"maxAttempts": 2, "initialDelay": "100ms", "jitter": 0}\#(extra)}
        """#
    }

    /// An upstream of 230 issues whose GitHub window of `requests` per `window`
    /// another client of the same account has just spent, and a workspace that
    /// syncs them (``github(_:_:)`` with `extra`). Stop the upstream when done.
    func spentGitHub(
        _ requests: Int, per window: Duration, _ extra: String = ""
    ) async throws -> (TestUpstream, Workspace) {
        let upstream = try await TestUpstream.start(collections: ["issues": 230])
        upstream.setRateLimit(.fixedWindow(requests: requests, window: window), for: .github)
        for _ in 0..<requests { try curl("\(upstream.baseURL)/github/issues?per_page=50") }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [github(upstream, extra)])
        return (upstream, workspace)
    }

    /// `curl URL OPTIONS`, its answer dropped: another client of the same account.
    func curl(_ url: String, _ options: [String] = []) throws {
        let curl = Process()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
        curl.arguments = ["-s", "-o", "/dev/null"] + options + [url]
        try curl.run()
        curl.waitUntilExit()
    }

    @Test func shopifysFullBucketIsWaitedOutForItsDecimalRetryAfter() async throws {
        let upstream = try await TestUpstream.start(collections: ["products": 120])
        defer { Task { await upstream.stop() } }
        // A bucket of 4 leaking one request every 2 s, filled by another client.
        upstream.setRateLimit(.leakyBucket(size: 4, leaksPerSecond: 0.5), for: .shopify)
        for _ in 0..<4 { try curl("\(upstream.baseURL)/shopify/products.json?limit=50") }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "products", "url": "\#(upstream.baseURL)/shopify/products.json", "query": {"limit": 50},
             "items": "/products", "key": "/id", "pagination": {"style": "link"},
             "retry": {"maxAttempts": 2, "initialDelay": "100ms", "jitter": 0}}
            """#
        ])

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "120")
        let log = upstream.rateLimitLog
        let refused = log.agentRefusals
        #expect(!refused.isEmpty)
        #expect(refused.allSatisfy { $0.status == 429 })
        #expect(log.premature.isEmpty, "\(log.premature.map { "\($0.receivedAt) \($0.query)" })")
        // Its waits are told in tenths of a second (Retry-After: 1.8): none was cut short.
        #expect(result.stderr.contains("the server answered 429 Too Many Requests: Exceeded"), "\(result.stderr)")
    }

    @Test func githubsPrimaryLimitIsWaitedOutUntilItsResetWithoutUsingAnAttempt() async throws {
        let (upstream, workspace) = try await spentGitHub(4, per: .seconds(2))
        defer { Task { await upstream.stop() } }

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(#""attempts": 1"#), "\(result.stdout)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "230")
        let log = upstream.rateLimitLog
        #expect(log.agentRefusals.contains { $0.status == 403 })
        #expect(log.premature.isEmpty, "\(log.premature.map { "\($0.receivedAt) \($0.query)" })")
        #expect(result.stderr.contains("rate limited until"), "\(result.stderr)")
        #expect(
            result.stderr.contains("the server answered 403 Forbidden: API rate limit exceeded"), "\(result.stderr)")
    }

    @Test func githubsSecondaryLimitIsWaitedOutForItsRetryAfter() async throws {
        let upstream = try await TestUpstream.start(collections: ["issues": 230])
        defer { Task { await upstream.stop() } }
        upstream.inject(
            Fault(
                path: "/github/issues", query: "page=3", times: 1,
                action: .status(
                    403, retryAfter: "1",
                    body:
                        #"{"message": "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.", "documentation_url": "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api"}"#
                )))
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [github(upstream)])

        let result = try await workspace.run(["refresh", "--json"])

        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains(#""attempts": 1"#), "\(result.stdout)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "230")
        let pageThree = upstream.requests.filter { $0.query.contains("page=3") }
        #expect(pageThree.count == 2)
        #expect(pageThree.count == 2 && pageThree[1].arrived - pageThree[0].arrived >= .seconds(1))
        #expect(upstream.rateLimitLog.limitedAnswers == 1)
        #expect(upstream.rateLimitLog.premature.isEmpty)
    }

    @Test func aLimitLongerThanMaxWaitEndsRateLimitedAndTheNextSyncCompletesIt() async throws {
        // Six requests per 3 s, all spent: the next sync's five pages fit in the next window.
        // (A longer window under a sanitizer, where the agent can take 3 s to start.)
        let window = Duration.seconds(3) * Sanitizer.slowdown
        let (upstream, workspace) = try await spentGitHub(6, per: window, #", "rateLimit": {"maxWait": "200ms"}"#)
        defer { Task { await upstream.stop() } }

        let limited = try await workspace.run(["refresh", "--json"])

        // 75: try again later. Nothing is lost, nothing is failed.
        #expect(limited.status == 75, "\(limited.stdout)\n\(limited.stderr)")
        #expect(limited.stdout.contains(#""outcome": "rateLimited""#), "\(limited.stdout)")
        #expect(try workspace.query("SELECT state FROM resources") == [["idle"]])
        #expect(try workspace.query("SELECT outcome FROM sync_runs") == [["rateLimited"]])
        let status = try await workspace.run(["status"])
        #expect(status.stdout.contains("issues    idle "), "\(status.stdout)")

        try await Task.sleep(for: window)
        let later = try await workspace.run(["refresh", "--json"])
        #expect(later.status == 0, "\(later.stdout)\n\(later.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "230")
        #expect(upstream.rateLimitLog.premature.isEmpty)
    }

    @Test func theRunningAgentShowsAResourceWaitingForItsResetAndNeverFailsIt() async throws {
        let (upstream, workspace) = try await spentGitHub(4, per: .seconds(4), #", "interval": "1h""#)
        defer { Task { await upstream.stop() } }
        let agent = try await RunningAgent.start(in: workspace)

        #expect(
            try await eventually {
                let resource = agent.curl("GET", "/v1/resources/issues").json
                return resource["state"] as? String == "waiting"
                    && (resource["message"] as? String)?.hasPrefix("rate limited until ") == true
            })
        #expect(try await eventually(timeout: .seconds(30)) { agent.state(of: "issues") == "idle" })
        #expect(try workspace.value("SELECT count(*) FROM records") == "230")
        #expect(try workspace.query("SELECT outcome, attempts FROM sync_runs") == [["success", "1"]])
        #expect(upstream.rateLimitLog.premature.isEmpty)
        let metrics = agent.curl("GET", "/metrics").body
        #expect(
            metrics.contains(#"sync_agent_rate_limit_waits_total{resource="issues",reason="server"} 1"#), "\(metrics)")
        _ = try await agent.stop()
    }

    @Test func stripesSecretKeyGoesAsBasicAuthFromACredentialAndIsNeverShown() async throws {
        let upstream = try await TestUpstream.start(collections: ["customers": 230])
        defer { Task { await upstream.stop() } }
        let key = "sk_test_51HabcDEFghiJKL"
        upstream.requireToken(key, for: .stripe)
        let workspace = try Workspace()
        let credentials = try workspace.writeCredential("stripe-key", key)
        try workspace.writeConfig(resources: [
            #"""
            {"name": "customers", "url": "\#(upstream.baseURL)/stripe/customers", "query": {"limit": 50},
             "items": "/data", "key": "/id", "pagination": {"style": "cursor", "cursorFromLastItem": "/id",
             "param": "starting_after", "hasMore": "/has_more"},
             "auth": {"type": "basic", "username": "${credential:stripe-key}", "password": ""}}
            """#
        ])

        let synced = try await workspace.run(
            ["refresh", "--json"], environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(synced.status == 0, "\(synced.stdout)\n\(synced.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "230")
        // As `curl -u sk_test_…:` sends it.
        let sent = try #require(upstream.requests.first?.headers["authorization"])
        #expect(sent == "Basic " + Data("\(key):".utf8).base64EncodedString())

        // A wrong key: the API's own message, and the key in no output.
        _ = try workspace.writeCredential("stripe-key", "sk_test_51HwrongKEYxyz")
        let refused = try await workspace.run(
            ["refresh", "--json"], environment: ["CREDENTIALS_DIRECTORY": credentials])
        #expect(refused.status == 1)
        #expect(refused.stdout.contains("the server answered 401"), "\(refused.stdout)")
        for output in [synced.stdout, synced.stderr, refused.stdout, refused.stderr] {
            #expect(!output.contains("51Habc") && !output.contains("wrongKEY"), "\(output)")
        }
        let stored = try workspace.query("SELECT error FROM sync_runs").flatMap { $0 }.joined(separator: "\n")
        #expect(
            !stored.contains("wrongKEY") && !stored.contains(Data("sk_test_51HwrongKEYxyz:".utf8).base64EncodedString())
        )
    }

    @Test func resourcesOfOneHostShareABudgetThatIsNeverExceeded() async throws {
        // Stripe's answers tell nothing of the quota: only the budget keeps
        // two resources of one host under the limit, together.
        let upstream = try await TestUpstream.start(collections: ["customers": 230, "charges": 230])
        defer { Task { await upstream.stop() } }
        // The budget (2 a second, one at a time) stays under the server's 3 a
        // second even when a request leaves a little after its slot.
        upstream.setRateLimit(.fixedWindow(requests: 3, window: .seconds(1)), for: .stripe)
        let workspace = try Workspace()
        let resources = ["customers", "charges"].map { name in
            #"""
            {"name": "\#(name)", "url": "\#(upstream.baseURL)/stripe/\#(name)", "query": {"limit": 50}, "items": "/data",
             "key": "/id", "pagination": {"style": "cursor", "cursorFromLastItem": "/id", "param": "starting_after",
             "hasMore": "/has_more"}, "rateLimit": {"requests": 2, "per": "1s", "burst": 1}, "interval": "1h"}
            """#
        }
        try workspace.writeConfig(resources: resources)
        let agent = try await RunningAgent.start(in: workspace)

        #expect(
            try await eventually(timeout: .seconds(30)) {
                try workspace.value("SELECT count(*) FROM sync_runs WHERE outcome = 'success'") == "2"
            })
        #expect(try workspace.value("SELECT count(*) FROM records") == "460")
        #expect(upstream.rateLimitLog.limitedAnswers == 0, "\(upstream.rateLimitLog.entries)")
        // Ten pages at 2 a second: the budget held most of them back.
        let metrics = agent.curl("GET", "/metrics").body
        let held = ["customers", "charges"].compactMap { name in
            metrics.split(separator: "\n").first {
                $0.hasPrefix(#"sync_agent_rate_limit_waits_total{resource="\#(name)",reason="budget"}"#)
            }.flatMap { Int($0.split(separator: " ").last ?? "") }
        }
        #expect(held.reduce(0, +) >= 4, "\(metrics)")
        _ = try await agent.stop()
    }

    @Test func slacksErrorsInsideA200FailWithSlacksOwnWordOrWaitWhenRateLimited() async throws {
        let upstream = try await TestUpstream.start(collections: ["members": 120])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        let resource = Self.cases.first { $0.api == .slack }!.resource(upstream.baseURL)
        try workspace.writeConfig(resources: [resource])
        upstream.inject(
            Fault(
                path: "/slack/members", times: 1,
                action: .status(200, retryAfter: "1", body: #"{"ok": false, "error": "ratelimited"}"#)))

        let waited = try await workspace.run(["refresh", "--json"])

        #expect(waited.status == 0, "\(waited.stdout)\n\(waited.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "120")
        #expect(upstream.rateLimitLog.premature.isEmpty)

        upstream.requireToken("xoxb-right", for: .slack)
        let refused = try await workspace.run(["refresh", "--json"])
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(refused.stdout.contains("the server answered 200 OK with an error: not_authed"), "\(refused.stdout)")
        #expect(try workspace.query("SELECT state FROM resources") == [["failed"]])
        // The error body was not stored as data: the copy is whole.
        #expect(try workspace.value("SELECT count(*) FROM records") == "120")
    }

    /// The copy holds exactly the upstream's items 1…230 but the `removed` ones, as served.
    func expectCopy(
        of collection: String, in upstream: TestUpstream, as name: String, _ workspace: Workspace,
        removed: Set<Int> = []
    ) throws {
        let records = try workspace.records(name)
        let live = (1...230).filter { !removed.contains($0) }
        #expect(Set(records.keys) == Set(live.map(String.init)), "\(records.count) records")
        for id in live where records["\(id)"] != upstream.item(collection, id: id) {
            Issue.record(
                "record \(id) is \(records["\(id)"] ?? "missing"), not \(upstream.item(collection, id: id) ?? "")")
            break
        }
    }
}

extension Workspace {
    /// The names of the resources in the configuration.
    var resourceNames: [String] {
        get throws {
            let text = try String(contentsOfFile: configPath, encoding: .utf8)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
            return (object?["resources"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
    }
}

extension RateLimitLog {
    /// The rate-limit answers given to the agent (not to the test's other clients).
    var agentRefusals: [Entry] {
        entries.filter { $0.request.headers["user-agent"]?.hasPrefix("sync-agent") == true }
    }
}
