import Foundation
import TestUpstream
import Testing

/// The test upstream's imitations of the ways APIs tell what changed (Jira's JQL, Microsoft
/// Graph's delta links, Shopify's GraphQL search, CouchDB's changes feed, GitHub's capped
/// search), read over loopback with curl as any client would: what the end-to-end tests
/// of ChangeModelEndToEndTests rely on.
@Suite(.timeLimit(.minutes(2))) struct ChangeQueryImitationTests {
    // MARK: Jira

    func jiraSearch(_ upstream: TestUpstream, jql: String, extra: String = "") throws -> PlainHTTP {
        try PlainHTTP.request("\(upstream.baseURL)/rest/api/3/search/jql?jql=\(PlainHTTP.encode(jql))\(extra)")
    }

    @Test func jiraSearchFiltersByTheUpdatedConditionOfItsJQLAndPagesWithTokens() async throws {
        let upstream = try await TestUpstream.start(collections: ["jira-issues": 230])
        defer { Task { await upstream.stop() } }
        let jql = #"project = OPS AND updated >= "2026-01-01 00:02" ORDER BY updated ASC"#

        let first = try jiraSearch(upstream, jql: jql, extra: "&maxResults=100&fields=summary,updated")

        #expect(first.status == 200, "\(first.body)")
        let issues = try #require(first.json["issues"] as? [[String: Any]])
        // Issue n was updated n seconds after 2026-01-01T00:00:00Z: 120…230 match.
        #expect(issues.count == 100)
        #expect(issues.first?["key"] as? String == "OPS-120")
        #expect(issues.first?["id"] as? String == "10120")
        #expect((issues.first?["fields"] as? [String: Any])?.keys.sorted() == ["summary", "updated"])
        #expect((issues.first?["fields"] as? [String: Any])?["updated"] as? String == "2026-01-01T00:02:00.000+0000")
        #expect(first.json["isLast"] as? Bool == false)
        let token = try #require(first.json["nextPageToken"] as? String)

        let second = try jiraSearch(
            upstream, jql: jql, extra: "&maxResults=100&fields=summary,updated&nextPageToken=\(PlainHTTP.encode(token))"
        )
        #expect(
            (second.json["issues"] as? [[String: Any]])?.compactMap { $0["key"] as? String }
                == (220...230).map { "OPS-\($0)" })
        #expect(second.json["isLast"] as? Bool == true)
        #expect(second.json["nextPageToken"] == nil)

        // A token belongs to its query.
        let other = try jiraSearch(
            upstream, jql: "project = OPS", extra: "&nextPageToken=\(PlainHTTP.encode(token))")
        #expect(other.status == 400, "\(other.body)")

        // Changed issues are updated later, and come last in updated order; `>` is strict.
        upstream.changeItems("jira-issues", ids: [200, 5])
        let changed = try jiraSearch(
            upstream, jql: #"updated > "2026-01-12 13:45" order by updated"#, extra: "&fields=*all")
        let found = try #require(changed.json["issues"] as? [[String: Any]])
        #expect(found.compactMap { $0["key"] as? String } == ["OPS-5", "OPS-200"])
        let fields = try #require(found.first?["fields"] as? [String: Any])
        #expect(fields["updated"] as? String == "2026-01-12T13:46:41.000+0000")
        #expect(fields["customfield_10010"] as? Int == 2)
        // What a complete copy holds is what the search answers.
        let records = upstream.imitatedRecords(.jira, collection: "jira-issues")
        #expect(records.count == 230)
        #expect(sameJSON(records["10005"], jsonText(found.first)), "\(records["10005"] ?? "")")
        let none = try jiraSearch(upstream, jql: #"updated > "2026-01-12 13:47""#)
        #expect((none.json["issues"] as? [Any])?.isEmpty == true)
        #expect(none.json["isLast"] as? Bool == true)
        // Without fields, ids only; without a bound, no search; a time Jira cannot read is 400.
        let ids = try jiraSearch(upstream, jql: "project = OPS ORDER BY key", extra: "&maxResults=1000")
        #expect((ids.json["issues"] as? [[String: Any]])?.count == 230)
        #expect(((ids.json["issues"] as? [[String: Any]])?.first?["fields"] as? [String: Any])?.isEmpty == true)
        let many = try jiraSearch(upstream, jql: "project = OPS", extra: "&maxResults=1000&fields=summary")
        #expect((many.json["issues"] as? [Any])?.count == 100)
        #expect(try jiraSearch(upstream, jql: " ").status == 400)
        let bad = try jiraSearch(upstream, jql: #"updated >= "2026-01-01T00:02:00Z""#)
        #expect(bad.status == 400)
        #expect(bad.body.contains("for field 'updated' is invalid"), "\(bad.body)")
        #expect(upstream.requests.last?.query.contains("jql=") == true)
    }

    @Test func jiraProjectSearchCapsMaxResultsAtFiftyWhateverIsAsked() async throws {
        let upstream = try await TestUpstream.start(collections: ["jira-projects": 180])
        defer { Task { await upstream.stop() } }

        let first = try PlainHTTP.request("\(upstream.baseURL)/rest/api/3/project/search?startAt=0&maxResults=100")

        #expect(first.status == 200)
        #expect((first.json["values"] as? [Any])?.count == 50)
        #expect(first.json["maxResults"] as? Int == 50)
        #expect(first.json["total"] as? Int == 180)
        #expect(first.json["isLast"] as? Bool == false)
        #expect(
            first.json["nextPage"] as? String
                == "\(upstream.baseURL)/rest/api/3/project/search?maxResults=50&startAt=50")
        let last = try PlainHTTP.request("\(upstream.baseURL)/rest/api/3/project/search?startAt=150&maxResults=100")
        let values = try #require(last.json["values"] as? [[String: Any]])
        #expect(values.count == 30)
        #expect(last.json["isLast"] as? Bool == true)
        #expect(last.json["nextPage"] == nil)
        #expect(values.last?["key"] as? String == "P0180")
        let records = upstream.imitatedRecords(.jira, collection: "jira-projects")
        #expect(records.count == 180)
        #expect(sameJSON(records["10180"], jsonText(values.last)))
    }

    // MARK: Microsoft Graph

    /// The users of a walk from `url` along `@odata.nextLink`, and its `@odata.deltaLink`.
    func graphWalk(_ url: String, pageSize: Int = 100) throws -> (values: [[String: Any]], pages: Int, delta: String?) {
        var values: [[String: Any]] = []
        var next: String? = url
        var pages = 0
        while let url = next {
            let page = try PlainHTTP.request(url, headers: ["Prefer: odata.maxpagesize=\(pageSize)"])
            guard page.status == 200 else { throw Unexpected(answer: page) }
            #expect(page.headers["preference-applied"] == "odata.maxpagesize=\(pageSize)")
            pages += 1
            values += page.json["value"] as? [[String: Any]] ?? []
            next = page.json["@odata.nextLink"] as? String
            if next == nil { return (values, pages, page.json["@odata.deltaLink"] as? String) }
            #expect(page.json["@odata.deltaLink"] == nil)
        }
        return (values, pages, nil)
    }

    struct Unexpected: Error {
        var answer: PlainHTTP
    }

    @Test func graphDeltaPagesToADeltaLinkThatAnswersOnlyChangesAndRemovals() async throws {
        let upstream = try await TestUpstream.start(collections: ["graph-users": 250])
        defer { Task { await upstream.stop() } }

        let initial = try graphWalk("\(upstream.baseURL)/v1.0/users/delta")

        #expect(initial.pages == 3)
        #expect(initial.values.count == 250)
        let records = upstream.imitatedRecords(.graph, collection: "graph-users")
        #expect(Set(records.keys) == Set(initial.values.compactMap { $0["id"] as? String }))
        #expect(sameJSON(records[initial.values[7]["id"] as! String], jsonText(initial.values[7])))
        let delta = try #require(initial.delta)
        #expect(delta.hasPrefix("\(upstream.baseURL)/v1.0/users/delta?$deltatoken="))

        upstream.changeItems("graph-users", ids: [3])
        upstream.removeItems("graph-users", ids: [10, 11])
        let round = try graphWalk(delta)

        #expect(round.pages == 1)
        #expect(round.values.count == 3)
        #expect(round.values.first?["displayName"] as? String == "User 3")
        #expect(round.values.first?["jobTitle"] as? String == "Revision 2")
        #expect(
            round.values.dropFirst().compactMap { ($0["@removed"] as? [String: Any])?["reason"] as? String }
                == ["changed", "deleted"])
        #expect(round.values.last?["id"] as? String == "6e3b2f1a-0c4d-4e5f-8a9b-00000000000b")
        #expect(upstream.imitatedRecords(.graph, collection: "graph-users").count == 248)
        let quiet = try graphWalk(try #require(round.delta))
        #expect(quiet.values.isEmpty)
        #expect(quiet.delta != nil)

        // $select is kept in the tokens; the first round lists no deleted user.
        let selected = try graphWalk("\(upstream.baseURL)/v1.0/users/delta?$select=displayName,mail", pageSize: 200)
        #expect(selected.pages == 2)
        #expect(selected.values.count == 248)
        #expect(selected.values.allSatisfy { Set($0.keys) == ["displayName", "mail", "id"] })
        let latest = try PlainHTTP.request("\(upstream.baseURL)/v1.0/users/delta?$deltatoken=latest")
        #expect((latest.json["value"] as? [Any])?.isEmpty == true)
        #expect(latest.json["@odata.deltaLink"] is String)
        let unknown = try PlainHTTP.request("\(upstream.baseURL)/v1.0/users/delta?$select=nickname")
        #expect(unknown.status == 400)
    }

    @Test func graphAnswersAStaleOrUnknownTokenWith410AndThrottlesWith429() async throws {
        let upstream = try await TestUpstream.start(collections: ["graph-users": 30])
        defer { Task { await upstream.stop() } }
        let delta = try #require(try graphWalk("\(upstream.baseURL)/v1.0/users/delta").delta)

        upstream.expireStateTokens(of: .graph)
        let stale = try PlainHTTP.request(delta)

        #expect(stale.status == 410)
        #expect(stale.headers["location"] == "\(upstream.baseURL)/v1.0/users/delta")
        let error = try #require(stale.json["error"] as? [String: Any])
        #expect(error["code"] as? String == "syncStateNotFound")
        #expect((error["message"] as? String)?.contains("The delta token is expired") == true)
        let unknown = try PlainHTTP.request("\(upstream.baseURL)/v1.0/users/delta?$deltatoken=c29tZXRoaW5n")
        #expect(unknown.status == 410)
        // Tokens issued from now on are good.
        let fresh = try graphWalk("\(upstream.baseURL)/v1.0/users/delta")
        #expect(fresh.values.count == 30)
        #expect(try PlainHTTP.request(try #require(fresh.delta)).status == 200)

        upstream.setRateLimit(.fixedWindow(requests: 1, window: .seconds(5)), for: .graph)
        #expect(try PlainHTTP.request("\(upstream.baseURL)/v1.0/users/delta").status == 200)
        let throttled = try PlainHTTP.request("\(upstream.baseURL)/v1.0/users/delta")
        #expect(throttled.status == 429)
        #expect(Int(throttled.headers["retry-after"] ?? "") ?? 0 >= 1)
        #expect((throttled.json["error"] as? [String: Any])?["code"] as? String == "TooManyRequests")
        #expect(upstream.rateLimitLog.limitedAnswers == 1)
    }

    // MARK: Shopify GraphQL

    static let ordersQuery =
        "query Orders($cursor: String, $search: String) { orders(first: 50, after: $cursor, query: $search, "
        + "sortKey: UPDATED_AT) { edges { cursor node { id name updatedAt } } pageInfo { hasNextPage endCursor } } }"

    func orders(
        _ upstream: TestUpstream, search: String, cursor: String? = nil, query: String = ordersQuery
    ) throws
        -> PlainHTTP
    {
        let variables: [String: Any] = ["search": search, "cursor": cursor.map { $0 as Any } ?? NSNull()]
        let body = try JSONSerialization.data(withJSONObject: ["query": query, "variables": variables])
        return try PlainHTTP.request(
            "\(upstream.baseURL)/admin/api/2025-01/graphql.json", method: "POST",
            headers: ["Content-Type: application/json"], body: String(decoding: body, as: UTF8.self))
    }

    @Test func shopifyGraphQLReadsTheSearchStringAndTheCursorFromItsVariables() async throws {
        let upstream = try await TestUpstream.start(collections: ["shopify-orders": 120])
        defer { Task { await upstream.stop() } }

        let first = try orders(upstream, search: "status:any updated_at:>='2026-01-01T00:01:00Z'")

        #expect(first.status == 200, "\(first.body)")
        let connection = try #require((first.json["data"] as? [String: Any])?["orders"] as? [String: Any])
        let edges = try #require(connection["edges"] as? [[String: Any]])
        #expect(edges.count == 50)
        #expect((edges.first?["node"] as? [String: Any])?["updatedAt"] as? String == "2026-01-01T00:01:00Z")
        let pageInfo = try #require(connection["pageInfo"] as? [String: Any])
        #expect(pageInfo["hasNextPage"] as? Bool == true)
        let cost = try #require((first.json["extensions"] as? [String: Any])?["cost"] as? [String: Any])
        #expect(cost["requestedQueryCost"] as? Int == 52)
        #expect((cost["throttleStatus"] as? [String: Any])?["maximumAvailable"] as? Double == 2000)
        let records = upstream.imitatedRecords(.shopifyGraphQL, collection: "shopify-orders")
        #expect(records.count == 120)
        let firstID = try #require((edges.first?["node"] as? [String: Any])?["id"] as? String)
        #expect(sameJSON(records[firstID], jsonText(edges.first)), "\(records[firstID] ?? "")")

        let second = try orders(
            upstream, search: "updated_at:>='2026-01-01T00:01:00Z'", cursor: pageInfo["endCursor"] as? String)
        let rest = try #require(
            ((second.json["data"] as? [String: Any])?["orders"] as? [String: Any])?["edges"] as? [[String: Any]])
        #expect(rest.count == 11)
        #expect((rest.last?["node"] as? [String: Any])?["name"] as? String == "#1120")
        #expect(
            (((second.json["data"] as? [String: Any])?["orders"] as? [String: Any])?["pageInfo"] as? [String: Any])?[
                "hasNextPage"] as? Bool == false)

        // `>` is strict; a changed order comes last.
        upstream.changeItems("shopify-orders", ids: [7])
        let changed = try orders(upstream, search: "updated_at:>'2026-01-01T00:02:00Z'")
        let after = try #require(
            ((changed.json["data"] as? [String: Any])?["orders"] as? [String: Any])?["edges"] as? [[String: Any]])
        #expect(after.compactMap { ($0["node"] as? [String: Any])?["name"] as? String } == ["#1007"])
        #expect((after.first?["node"] as? [String: Any])?["note"] as? String == "revision 2")
        let bad = try orders(upstream, search: "updated_at:>'yesterday'")
        #expect(bad.status == 200)
        #expect(bad.json["errors"] != nil && bad.json["data"] == nil)
        let nodes = try orders(
            upstream, search: "",
            query: "{ orders(first: 250, sortKey: UPDATED_AT) { nodes { id } pageInfo { hasNextPage endCursor } } }")
        #expect(
            (((nodes.json["data"] as? [String: Any])?["orders"] as? [String: Any])?["nodes"] as? [Any])?.count == 120)
        #expect(
            try PlainHTTP.request("\(upstream.baseURL)/admin/api/2025-01/graphql.json", method: "POST", body: "{}")
                .status
                == 400)
    }

    @Test func shopifyGraphQLAnswersThrottledInA200WhenItsBucketIsEmpty() async throws {
        let upstream = try await TestUpstream.start(collections: ["shopify-orders": 10])
        defer { Task { await upstream.stop() } }
        upstream.setRateLimit(.leakyBucket(size: 1, leaksPerSecond: 0.2), for: .shopifyGraphQL)

        #expect(try orders(upstream, search: "").json["data"] != nil)
        let throttled = try orders(upstream, search: "")

        #expect(throttled.status == 200)
        let errors = try #require(throttled.json["errors"] as? [[String: Any]])
        #expect(errors.first?["message"] as? String == "Throttled")
        #expect((errors.first?["extensions"] as? [String: Any])?["code"] as? String == "THROTTLED")
        #expect(throttled.json["data"] == nil)
        #expect(throttled.headers["retry-after"] == nil)
        #expect(upstream.rateLimitLog.limitedAnswers == 1)
    }

    // MARK: CouchDB

    @Test func couchDBChangesPageWithOpaqueSequencesAndTellDeletions() async throws {
        let upstream = try await TestUpstream.start(collections: ["inventory": 120])
        defer { Task { await upstream.stop() } }
        func changes(_ query: String) throws -> PlainHTTP {
            try PlainHTTP.request("\(upstream.baseURL)/inventory/_changes?\(query)")
        }
        var since = "0"
        var rows: [[String: Any]] = []
        var pending: [Int] = []
        for _ in 0..<3 {
            let page = try changes("since=\(PlainHTTP.encode(since))&limit=50&include_docs=true&style=all_docs")
            #expect(page.status == 200, "\(page.body)")
            rows += page.json["results"] as? [[String: Any]] ?? []
            pending.append(page.json["pending"] as? Int ?? -1)
            since = try #require(page.json["last_seq"] as? String)
        }

        #expect(pending == [70, 20, 0])
        #expect(rows.count == 120)
        #expect(since.hasPrefix("120-g1AAAA"), "\(since)")
        #expect(rows.first?["id"] as? String == "doc-0001")
        #expect(((rows.first?["doc"] as? [String: Any])?["_rev"] as? String)?.hasPrefix("1-") == true)
        let records = upstream.imitatedRecords(.couchdb, collection: "inventory")
        #expect(records.count == 120)
        #expect(sameJSON(records["doc-0042"], jsonText(rows[41])))

        upstream.changeItems("inventory", ids: [3])
        upstream.removeItems("inventory", ids: [4])
        let later = try changes("since=\(PlainHTTP.encode(since))&include_docs=true")
        let changed = try #require(later.json["results"] as? [[String: Any]])
        #expect(changed.compactMap { $0["id"] as? String } == ["doc-0003", "doc-0004"])
        #expect(((changed[0]["changes"] as? [[String: Any]])?.first?["rev"] as? String)?.hasPrefix("2-") == true)
        #expect(changed[1]["deleted"] as? Bool == true)
        #expect((changed[1]["doc"] as? [String: Any])?["_deleted"] as? Bool == true)
        #expect(later.json["pending"] as? Int == 0)
        let last = try #require(later.json["last_seq"] as? String)
        #expect(last.hasPrefix("122-g1AAAA"), "\(last)")
        let quiet = try changes("since=\(PlainHTTP.encode(last))")
        #expect((quiet.json["results"] as? [Any])?.isEmpty == true)
        #expect(quiet.json["last_seq"] as? String == last)
        // From 0, a deleted document is listed as deleted; without include_docs, no doc.
        let all = try changes("since=0")
        let listed = try #require(all.json["results"] as? [[String: Any]])
        #expect(listed.count == 120)
        #expect(listed.contains { $0["id"] as? String == "doc-0004" && $0["deleted"] as? Bool == true })
        #expect(listed.allSatisfy { $0["doc"] == nil })
        let malformed = try changes("since=12-abc")
        #expect(malformed.status == 400)
        #expect(malformed.json["reason"] as? String == "Malformed sequence supplied in 'since' parameter.")
    }

    // MARK: GitHub search

    func search(_ upstream: TestUpstream, _ q: String, page: Int = 1) throws -> PlainHTTP {
        try PlainHTTP.request(
            "\(upstream.baseURL)/search/issues?q=\(PlainHTTP.encode(q))&sort=updated&order=asc&per_page=100&page=\(page)"
        )
    }

    @Test func githubSearchReadsUpdatedFromQAndPagesThroughTheFirstThousandResultsOnly() async throws {
        let upstream = try await TestUpstream.start(collections: ["github-issues": 1307])
        defer { Task { await upstream.stop() } }
        let q = "repo:octo-org/octo-repo is:issue updated:>=1970-01-01T00:00:00Z"

        let tenth = try search(upstream, q, page: 10)

        #expect(tenth.status == 200, "\(tenth.body)")
        #expect(tenth.json["total_count"] as? Int == 1307)
        #expect(tenth.json["incomplete_results"] as? Bool == false)
        let items = try #require(tenth.json["items"] as? [[String: Any]])
        #expect(items.count == 100)
        #expect(items.last?["number"] as? Int == 1000)
        #expect(tenth.link("next") == nil)
        #expect(tenth.link("last") == nil)
        #expect(tenth.link("prev")?.hasSuffix("&page=9") == true)
        let first = try search(upstream, q)
        #expect(first.link("last")?.hasSuffix("&page=10") == true)
        let next = try #require(first.link("next"))
        #expect(try PlainHTTP.request(next).json["total_count"] as? Int == 1307)
        let past = try search(upstream, q, page: 11)
        #expect(past.status == 422)
        #expect(past.json["message"] as? String == "Only the first 1000 search results are available")

        // From the largest updated_at seen, the rest.
        let rest = try search(upstream, "repo:octo-org/octo-repo is:issue updated:>=2026-01-01T00:16:40Z")
        #expect(rest.json["total_count"] as? Int == 308)
        #expect((rest.json["items"] as? [[String: Any]])?.first?["number"] as? Int == 1000)
        upstream.changeItems("github-issues", ids: [2, 500, 999])
        let changed = try search(upstream, "updated:>2026-01-12T13:46:40+00:00")
        let found = try #require(changed.json["items"] as? [[String: Any]])
        #expect(found.compactMap { $0["number"] as? Int } == [2, 500, 999])
        #expect(found.first?["updated_at"] as? String == "2026-01-12T13:46:41Z")
        let records = upstream.imitatedRecords(.githubSearch, collection: "github-issues")
        #expect(records.count == 1307)
        #expect(sameJSON(records["2000000002"], jsonText(found.first)))
        #expect(try search(upstream, "updated:2026-01-12..*").json["total_count"] as? Int == 3)
        // Issues 1 and 3…10 (2 was edited since).
        #expect(try search(upstream, "updated:<2026-01-01T00:00:11Z").json["total_count"] as? Int == 9)
        #expect(try search(upstream, "updated:>=last-week").status == 422)
        #expect(try PlainHTTP.request("\(upstream.baseURL)/search/issues").status == 422)
    }
}
