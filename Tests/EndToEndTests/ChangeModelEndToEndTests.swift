import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Every API's way of saying what changed, through the real binary, against the test
/// upstream's imitations of Jira, Microsoft Graph, Shopify's GraphQL Admin API, CouchDB and
/// GitHub's search, configured as docs/recipes.md says (placeholders, kept tokens and links,
/// stated totals and capped queries: docs/configuration.md#incremental-resources): for
/// each, a complete, exact copy; the next sync asking
/// only for what changed (the value inside a query string, an opaque token, the delta
/// link); deletions applied; the kept state read back by a new process (each `refresh`
/// is one, with no agent running) or by a restarted agent. And never a short copy called
/// complete: Jira's capped project pages.
@Suite(.serialized, .timeLimit(.minutes(5))) struct ChangeModelEndToEndTests {
    /// The change feed as `op key` lines, after `seq`.
    func feed(_ workspace: Workspace, after seq: Int = 0) throws -> [String] {
        try workspace.query("SELECT op, key FROM changes WHERE seq > \(seq) ORDER BY seq").map {
            $0.joined(separator: " ")
        }
    }

    func lastSeq(_ workspace: Workspace) throws -> Int {
        Int(try workspace.value("SELECT coalesce(max(seq), 0) FROM changes") ?? "") ?? 0
    }

    /// The resource's records are exactly what the imitation serves now: the same keys,
    /// and each record the same JSON.
    func expectExactCopy(
        _ workspace: Workspace, _ resource: String, of api: ImitatedAPI, _ collection: String,
        in upstream: TestUpstream,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let records = try workspace.records(resource)
        let expected = upstream.imitatedRecords(api, collection: collection)
        #expect(
            Set(records.keys) == Set(expected.keys),
            "\(records.count) records for \(expected.count) items; missing \(Set(expected.keys).subtracting(records.keys).sorted().prefix(5)), extra \(Set(records.keys).subtracting(expected.keys).sorted().prefix(5))",
            sourceLocation: sourceLocation)
        for (key, json) in expected.sorted(by: { $0.key < $1.key }) where !sameJSON(records[key], json) {
            Issue.record("record \(key) is \(records[key] ?? "missing"), not \(json)", sourceLocation: sourceLocation)
            break
        }
    }

    /// The decoded query parameter `name` of each request to `path`, oldest first.
    func asked(_ upstream: TestUpstream, _ path: String, _ name: String) -> [String] {
        upstream.requests.filter { $0.path == path }.map { Routes.parameters($0.query)[name] ?? "" }
    }

    func succeeded(_ result: ProcessResult, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.contains(#""outcome": "success""#), "\(result.stdout)", sourceLocation: sourceLocation)
    }

    /// Long enough that the first syncs of a test are not full ones, short enough to wait
    /// (longer under a sanitizer, where a first sync alone can take 5 s).
    static let fullResyncEvery = "\(5 * Sanitizer.slowdown)s"

    /// Waits until the last full sync is more than `fullResyncEvery` ago.
    func waitForTheNextFullSync() async throws {
        try await Task.sleep(for: .milliseconds(5200) * Sanitizer.slowdown)
    }

    // MARK: Jira

    /// The recipe of docs/recipes.md#jira-cloud, pointed at the upstream.
    func jiraIssues(_ upstream: TestUpstream) -> String {
        #"""
        {"name": "jira-issues", "url": "\#(upstream.baseURL)/rest/api/3/search/jql",
         "query": {"jql": "project = OPS AND updated >= \"{since:yyyy-MM-dd HH:mm}\" ORDER BY updated ASC",
                   "fields": "summary,status,created,updated,customfield_10010", "maxResults": 100},
         "items": "/issues", "key": "/id",
         "pagination": {"style": "cursor", "param": "nextPageToken", "next": "/nextPageToken",
                        "stopWhen": {"pointer": "/isLast", "equals": true}},
         "mode": "incremental", "since": {"field": "/fields/updated", "timeZone": "UTC"},
         "fullResyncEvery": "\#(Self.fullResyncEvery)"}
        """#
    }

    @Test func jiraAsksWithTheTimeInsideItsJQLAndFindsDeletionsInAFullSync() async throws {
        let upstream = try await TestUpstream.start(collections: ["jira-issues": 230])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [jiraIssues(upstream)])

        let first = try await workspace.run(["refresh", "--json"])

        succeeded(first)
        try expectExactCopy(workspace, "jira-issues", of: .jira, "jira-issues", in: upstream)
        let jql = asked(upstream, "/rest/api/3/search/jql", "jql")
        #expect(jql.count == 3, "\(jql)")
        #expect(
            jql.allSatisfy { $0 == #"project = OPS AND updated >= "1970-01-01 00:00" ORDER BY updated ASC"# }, "\(jql)")
        #expect(asked(upstream, "/rest/api/3/search/jql", "nextPageToken").filter(\.isEmpty).count == 1)

        // The next sync (another process: the value comes from the database) asks from
        // the minute of the largest `updated` seen (issue 230's, 00:03:50): one page.
        upstream.clearRequests()
        upstream.changeItems("jira-issues", ids: [200, 5])
        let seq = try lastSeq(workspace)
        let second = try await workspace.run(["refresh", "--json"])

        succeeded(second)
        #expect(
            asked(upstream, "/rest/api/3/search/jql", "jql")
                == [#"project = OPS AND updated >= "2026-01-01 00:03" ORDER BY updated ASC"#])
        #expect(try feed(workspace, after: seq) == ["update 10005", "update 10200"])
        try expectExactCopy(workspace, "jira-issues", of: .jira, "jira-issues", in: upstream)
        let status = try await workspace.run(["status", "jira-issues", "--json"])
        #expect(status.stdout.contains(#""since": "2026-01-12T13:46:41"#), "\(status.stdout)")

        // Jira lists no deleted issue: the full sync finds it gone.
        upstream.removeItems("jira-issues", ids: [7])
        try await waitForTheNextFullSync()
        upstream.clearRequests()
        let full = try await workspace.run(["refresh", "--json"])

        succeeded(full)
        #expect(
            asked(upstream, "/rest/api/3/search/jql", "jql").first
                == #"project = OPS AND updated >= "1970-01-01 00:00" ORDER BY updated ASC"#)
        #expect(try feed(workspace, after: seq + 2) == ["delete 10007"])
        try expectExactCopy(workspace, "jira-issues", of: .jira, "jira-issues", in: upstream)
    }

    /// Jira's project search, in offset pages of `startAt` and `maxResults`, with `extra`
    /// pagination keys.
    func jiraProjects(_ upstream: TestUpstream, _ extra: String) -> String {
        #"""
        {"name": "jira-projects", "url": "\#(upstream.baseURL)/rest/api/3/project/search",
         "items": "/values", "key": "/id",
         "pagination": {"style": "offset", "param": "startAt", "limitParam": "maxResults", "limit": 100\#(extra)}}
        """#
    }

    @Test func jirasCappedProjectPagesGiveACompleteCopyWhenTheTotalIsFollowed() async throws {
        let upstream = try await TestUpstream.start(collections: ["jira-projects": 180])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [jiraProjects(upstream, #", "total": "/total""#)])

        let result = try await workspace.run(["refresh", "--json"])

        succeeded(result)
        // Asked for 100, given 50: the offset moves by what came, until the total.
        #expect(asked(upstream, "/rest/api/3/project/search", "startAt") == ["0", "50", "100", "150"])
        #expect(asked(upstream, "/rest/api/3/project/search", "maxResults") == ["100", "100", "100", "100"])
        try expectExactCopy(workspace, "jira-projects", of: .jira, "jira-projects", in: upstream)
    }

    @Test func jirasCappedProjectPagesFailWithBothNumbersWhenShortPagesAreTrusted() async throws {
        let upstream = try await TestUpstream.start(collections: ["jira-projects": 180])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [jiraProjects(upstream, "")])

        let result = try await workspace.run(["refresh", "--json"])

        // 50 of 180 is not a copy: never `success`, and nothing is stored.
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(!result.stdout.contains(#""outcome": "success""#), "\(result.stdout)")
        let said = result.stdout + result.stderr
        #expect(said.contains("180") && said.contains("50"), "\(said)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "0")
        #expect(try workspace.query("SELECT outcome FROM sync_runs") == [["failed"]])
    }

    // MARK: Microsoft Graph

    /// The recipe of docs/recipes.md#microsoft-graph-delta-queries, pointed at the upstream.
    func graphUsers(_ upstream: TestUpstream, extra: String = "") -> String {
        #"""
        {"name": "users", "url": "\#(upstream.baseURL)/v1.0/users/delta",
         "headers": {"Prefer": "odata.maxpagesize=100"},
         "items": "/value", "key": "/id",
         "pagination": {"style": "nextUrl", "next": "/@odata.nextLink"},
         "mode": "incremental",
         "since": {"link": "/@odata.deltaLink", "expiredWhen": {"status": 410}},
         "deleted": {"pointer": "/@removed", "present": true},
         "retry": {"maxAttempts": 3, "initialDelay": "100ms", "jitter": 0}\#(extra)}
        """#
    }

    @Test func graphFollowsItsDeltaLinkAcrossRestartsAndStartsAfreshWhenTheTokenIsTooOld() async throws {
        let upstream = try await TestUpstream.start(collections: ["graph-users": 250])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [graphUsers(upstream, extra: #", "interval": "1s""#)])
        // Two requests every 2 s: the third page is refused with 429 and Retry-After.
        upstream.setRateLimit(.fixedWindow(requests: 2, window: .seconds(2)), for: .graph)

        let first = try await workspace.run(["refresh", "--json"])

        succeeded(first)
        try expectExactCopy(workspace, "users", of: .graph, "graph-users", in: upstream)
        let walked = upstream.requests.filter { $0.path == "/v1.0/users/delta" }.map(\.query)
        #expect(walked.first == "", "\(walked)")
        #expect(walked.dropFirst().allSatisfy { $0.hasPrefix("$skiptoken=") }, "\(walked)")
        #expect(!upstream.rateLimitLog.agentRefusals.isEmpty)
        #expect(upstream.rateLimitLog.premature.isEmpty)
        let status = try await workspace.run(["status", "users", "--json"])
        #expect(status.stdout.contains(#""since": "\#(upstream.baseURL)/v1.0/users/delta"#), "\(status.stdout)")
        upstream.setRateLimit(nil, for: .graph)

        // The agent, started afresh, goes on from the delta link: only what changed,
        // deletions (soft and permanent) applied.
        let seq = try lastSeq(workspace)
        upstream.clearRequests()
        upstream.changeItems("graph-users", ids: [3])
        upstream.removeItems("graph-users", ids: [10, 11])
        var agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { try feed(workspace, after: seq).count == 3 })
        _ = try await agent.stop()

        let queries = upstream.requests.filter { $0.path == "/v1.0/users/delta" }.map(\.query)
        #expect(queries.first?.hasPrefix("$deltatoken=") == true, "\(queries)")
        #expect(!queries.contains(""), "\(queries)")
        let keys = upstream.imitatedRecords(.graph, collection: "graph-users").keys
        #expect(keys.count == 248)
        let ids = try workspace.query("SELECT op FROM changes WHERE seq > \(seq) ORDER BY seq").map(\.[0])
        #expect(ids == ["update", "delete", "delete"])
        try expectExactCopy(workspace, "users", of: .graph, "graph-users", in: upstream)

        // Restarted once more, after a change made while it was stopped.
        let again = try lastSeq(workspace)
        upstream.changeItems("graph-users", ids: [4])
        upstream.clearRequests()
        agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { try feed(workspace, after: again).count == 1 })
        _ = try await agent.stop()
        #expect(upstream.requests.first { $0.path == "/v1.0/users/delta" }?.query.hasPrefix("$deltatoken=") == true)

        // Graph forgot the sync's state: 410, and a full sync at once, which also finds
        // the users gone without a word (a hard cut of the collection).
        let beforeReset = try lastSeq(workspace)
        upstream.expireStateTokens(of: .graph)
        upstream.setCollection("graph-users", count: 245)
        upstream.clearRequests()
        let reset = try await workspace.run(["refresh", "--json"])

        succeeded(reset)
        let afresh = upstream.requests.filter { $0.path == "/v1.0/users/delta" }.map(\.query)
        #expect(afresh.first?.hasPrefix("$deltatoken=") == true, "\(afresh)")
        #expect(afresh.dropFirst().first == "", "\(afresh)")
        #expect(afresh.count == 1 + 3, "\(afresh)")
        #expect(try feed(workspace, after: beforeReset).count == 5)
        #expect(try feed(workspace, after: beforeReset).allSatisfy { $0.hasPrefix("delete ") })
        try expectExactCopy(workspace, "users", of: .graph, "graph-users", in: upstream)
        // And the next sync goes on from the new delta link.
        upstream.clearRequests()
        succeeded(try await workspace.run(["refresh", "--json"]))
        #expect(upstream.requests.filter { $0.path == "/v1.0/users/delta" }.count == 1)
    }

    // MARK: Shopify GraphQL

    /// The recipe of docs/recipes.md#shopify-graphql-admin-api, pointed at the upstream.
    func shopifyOrders(_ upstream: TestUpstream) -> String {
        #"""
        {"name": "orders", "url": "\#(upstream.baseURL)/admin/api/2025-01/graphql.json", "method": "POST",
         "body": {
           "query": "query Orders($cursor: String, $search: String) { orders(first: 50, after: $cursor, query: $search, sortKey: UPDATED_AT) { edges { cursor node { id name createdAt updatedAt displayFinancialStatus note } } pageInfo { hasNextPage endCursor } } }",
           "variables": {"cursor": null, "search": "updated_at:>='{since}'"}
         },
         "items": "/data/orders/edges", "key": "/node/id",
         "pagination": {"style": "cursor", "in": "body", "param": "/variables/cursor",
                        "next": "/data/orders/pageInfo/endCursor", "hasMore": "/data/orders/pageInfo/hasNextPage"},
         "mode": "incremental", "since": {"field": "/node/updatedAt"},
         "errorWhen": {"pointer": "/errors", "message": "/errors/0/message"},
         "retry": {"maxAttempts": 3, "initialDelay": "500ms", "maxDelay": "2s", "jitter": 0,
                   "on": [{"pointer": "/errors/0/extensions/code", "equals": "THROTTLED", "as": "rateLimit"}]},
         "fullResyncEvery": "\#(Self.fullResyncEvery)"}
        """#
    }

    @Test func shopifyGraphQLSendsTheTimeInsideItsSearchVariableAndWaitsOutThrottled() async throws {
        let upstream = try await TestUpstream.start(collections: ["shopify-orders": 120])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [shopifyOrders(upstream)])
        // A bucket of two requests leaking one a second: the third page is THROTTLED, in a 200.
        upstream.setRateLimit(.leakyBucket(size: 2, leaksPerSecond: 1), for: .shopifyGraphQL)

        let first = try await workspace.run(["refresh", "--json"])

        succeeded(first)
        try expectExactCopy(workspace, "orders", of: .shopifyGraphQL, "shopify-orders", in: upstream)
        #expect(upstream.rateLimitLog.agentRefusals.count >= 1)
        let bodies = upstream.requests.filter { $0.path.hasSuffix("/graphql.json") }.map(variables)
        #expect(bodies.first?["search"] as? String == "updated_at:>='1970-01-01T00:00:00Z'", "\(bodies)")
        #expect(bodies.first?["cursor"] is NSNull, "\(bodies)")
        #expect(bodies.dropFirst().allSatisfy { $0["cursor"] is String }, "\(bodies)")
        upstream.setRateLimit(nil, for: .shopifyGraphQL)

        // The next sync asks from the largest updatedAt seen, order 120's.
        let seq = try lastSeq(workspace)
        upstream.clearRequests()
        upstream.changeItems("shopify-orders", ids: [7, 80])
        let second = try await workspace.run(["refresh", "--json"])

        succeeded(second)
        let asked = upstream.requests.filter { $0.path.hasSuffix("/graphql.json") }.map(variables)
        #expect(asked.count == 1, "\(asked)")
        #expect(asked.first?["search"] as? String == "updated_at:>='2026-01-01T00:02:00Z'", "\(asked)")
        #expect(
            try feed(workspace, after: seq) == [
                "update gid://shopify/Order/5100000007", "update gid://shopify/Order/5100000080",
            ])
        try expectExactCopy(workspace, "orders", of: .shopifyGraphQL, "shopify-orders", in: upstream)

        // The orders connection lists no deleted order: the full sync finds it gone.
        upstream.removeItems("shopify-orders", ids: [9])
        try await waitForTheNextFullSync()
        let full = try await workspace.run(["refresh", "--json"])
        succeeded(full)
        #expect(try feed(workspace, after: seq + 2) == ["delete gid://shopify/Order/5100000009"])
        try expectExactCopy(workspace, "orders", of: .shopifyGraphQL, "shopify-orders", in: upstream)
    }

    /// The `variables` of a GraphQL request.
    func variables(_ request: SeenRequest) -> [String: Any] {
        let body = (try? JSONSerialization.jsonObject(with: Data(request.body.utf8))) as? [String: Any]
        return body?["variables"] as? [String: Any] ?? [:]
    }

    // MARK: CouchDB

    /// The recipe of docs/recipes.md#couchdb-changes-feed, pointed at the upstream.
    func couchChanges(_ upstream: TestUpstream, extra: String = "") -> String {
        #"""
        {"name": "inventory", "url": "\#(upstream.baseURL)/inventory/_changes",
         "query": {"include_docs": "true", "style": "all_docs", "limit": 50, "since": "{since}"},
         "items": "/results", "key": "/id",
         "pagination": {"style": "cursor", "param": "since", "next": "/last_seq",
                        "stopWhen": {"pointer": "/pending", "equals": 0}},
         "mode": "incremental", "since": {"token": "/last_seq"},
         "deleted": {"pointer": "/deleted"}\#(extra)}
        """#
    }

    @Test func couchDBKeepsItsOpaqueLastSeqAcrossRestartsAndAppliesDeletedRows() async throws {
        let upstream = try await TestUpstream.start(collections: ["inventory": 120])
        defer { Task { await upstream.stop() } }
        upstream.removeItems("inventory", ids: [50])
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [couchChanges(upstream, extra: #", "interval": "1s""#)])

        let first = try await workspace.run(["refresh", "--json"])

        succeeded(first)
        try expectExactCopy(workspace, "inventory", of: .couchdb, "inventory", in: upstream)
        // The first sync sends no `since` (CouchDB starts at 0), then each page's last_seq.
        let since = asked(upstream, "/inventory/_changes", "since")
        #expect(since.count == 3, "\(since)")
        #expect(since.first == "", "\(since)")
        #expect(!(upstream.requests.first?.query.contains("since=") ?? true))
        let lastSeq = "121-g1AAAA"
        let status = try await workspace.run(["status", "inventory", "--json"])
        #expect(status.stdout.contains(#""since": "\#(lastSeq)"#), "\(status.stdout)")

        // A restarted agent sends the kept last_seq, as it was given.
        let seq = try self.lastSeq(workspace)
        upstream.clearRequests()
        upstream.changeItems("inventory", ids: [3])
        upstream.removeItems("inventory", ids: [4])
        let agent = try await RunningAgent.start(in: workspace)
        #expect(try await eventually { try feed(workspace, after: seq).count == 2 })
        _ = try await agent.stop()

        #expect(try feed(workspace, after: seq) == ["update doc-0003", "delete doc-0004"])
        let sent = asked(upstream, "/inventory/_changes", "since")
        #expect(sent.first?.hasPrefix(lastSeq) == true, "\(sent)")
        try expectExactCopy(workspace, "inventory", of: .couchdb, "inventory", in: upstream)
        // Nothing more changed: the next sync sends the newest last_seq and stores nothing.
        upstream.clearRequests()
        succeeded(try await workspace.run(["refresh", "--json"]))
        #expect(asked(upstream, "/inventory/_changes", "since").first?.hasPrefix("123-g1AAAA") == true)
        #expect(try feed(workspace, after: seq).count == 2)
    }

    // MARK: GitHub search

    /// The recipe of docs/recipes.md#github-issue-search, pointed at the upstream.
    func githubSearch(_ upstream: TestUpstream) -> String {
        #"""
        {"name": "issues", "url": "\#(upstream.baseURL)/search/issues",
         "query": {"q": "repo:octo-org/octo-repo is:issue updated:>={since}", "sort": "updated", "order": "asc",
                   "per_page": 100},
         "items": "/items", "key": "/id",
         "pagination": {"style": "link", "cap": 1000},
         "mode": "incremental", "since": {"field": "/updated_at"},
         "fullResyncEvery": "\#(Self.fullResyncEvery)"}
        """#
    }

    @Test func githubSearchIsWalkedInWindowsSoThatNoIssueIsLostPastTheCap() async throws {
        let upstream = try await TestUpstream.start(collections: ["github-issues": 1307])
        defer { Task { await upstream.stop() } }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [githubSearch(upstream)])

        let first = try await workspace.run(["refresh", "--json"])

        succeeded(first)
        try expectExactCopy(workspace, "issues", of: .githubSearch, "github-issues", in: upstream)
        // Ten pages reach the cap; the query again from the largest updated_at seen
        // (issue 1000's) gives the rest in four.
        let q = asked(upstream, "/search/issues", "q")
        #expect(q.count == 14, "\(q)")
        #expect(
            q.prefix(10).allSatisfy { $0 == "repo:octo-org/octo-repo is:issue updated:>=1970-01-01T00:00:00Z" }, "\(q)")
        #expect(q.dropFirst(10).first == "repo:octo-org/octo-repo is:issue updated:>=2026-01-01T00:16:40Z", "\(q)")
        #expect(!upstream.requests.contains { $0.path == "/search/issues" && $0.query.contains("page=11") })

        // Three issues edited: the next sync asks from issue 1307's time only.
        let seq = try lastSeq(workspace)
        upstream.clearRequests()
        upstream.changeItems("github-issues", ids: [2, 500, 999])
        let second = try await workspace.run(["refresh", "--json"])

        succeeded(second)
        #expect(
            asked(upstream, "/search/issues", "q") == [
                "repo:octo-org/octo-repo is:issue updated:>=2026-01-01T00:21:47Z"
            ])
        #expect(try feed(workspace, after: seq) == ["update 2000000002", "update 2000000500", "update 2000000999"])
        try expectExactCopy(workspace, "issues", of: .githubSearch, "github-issues", in: upstream)

        // A full sync, with the edited issues now past the 1,000th: none vanishes, and the
        // one deleted is found gone.
        upstream.removeItems("github-issues", ids: [7])
        try await waitForTheNextFullSync()
        upstream.clearRequests()
        let full = try await workspace.run(["refresh", "--json"])

        succeeded(full)
        #expect(try feed(workspace, after: seq + 3) == ["delete 2000000007"])
        try expectExactCopy(workspace, "issues", of: .githubSearch, "github-issues", in: upstream)
        #expect(try workspace.value("SELECT count(*) FROM records") == "1306")
        #expect(asked(upstream, "/search/issues", "q").filter { $0.hasSuffix("1970-01-01T00:00:00Z") }.count == 10)
    }
}
