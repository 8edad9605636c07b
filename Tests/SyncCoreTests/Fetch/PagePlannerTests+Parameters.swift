import Foundation
import Store
import Testing

@testable import SyncCore

/// One value per parameter (docs/configuration.md#one-value-per-parameter): whoever sets
/// a parameter (the URL as configured, `query`, `since.param`, a placeholder, the
/// pagination, a URL the API hands over, a pointer into the body), each request carries
/// it once, and the walk's value wins.
extension PagePlannerTests {
    /// The names of a URL's query parameters, in order, each as often as it is sent.
    func parameterNames(_ url: String) -> [String] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        return url[url.index(after: question)...].split(separator: "&").map {
            String($0.split(separator: "=", maxSplits: 1).first ?? "").removingPercentEncoding ?? ""
        }
    }

    /// The value of each parameter of a URL that is sent once; `nil` when one is sent twice.
    func parameters(_ url: String) -> [String: String]? {
        guard let question = url.firstIndex(of: "?") else { return [:] }
        var values: [String: String] = [:]
        for pair in url[url.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            guard values.updateValue(parts.count > 1 ? parts[1] : "", forKey: parts[0]) == nil else { return nil }
        }
        return values
    }

    /// The pages of a walk of `pagination` after its first, each told `bodies` in turn.
    func walk(_ planner: PagePlanner, items: Int, bodies: [String]) throws -> [PageRequest] {
        var requests = [planner.first()]
        for body in bodies {
            guard let next = try planner.next(after: requests.last!, facts(items: items, body: body)) else { break }
            requests.append(next)
        }
        return requests
    }

    @Test func aCursorTheWalkSetsReplacesTheValueQueryGivesTheSameParameter() throws {
        // CouchDB's recipe: `since` in `query` (the kept token) and as the cursor (each page's last_seq).
        let planner = PagePlanner(
            pagination: .cursor(next: try JSONPointer("/last_seq"), param: "since"),
            baseURL: "https://couch.example.com/db/_changes", query: [("limit", "500"), ("since", "2150-g1AAAA")],
            maxPages: 100)
        let requests = try walk(
            planner, items: 500, bodies: [#"{"last_seq": "2653-g1AAAA"}"#, #"{"last_seq": "3153-g1AAAA"}"#])

        #expect(
            requests.map(\.url) == [
                "https://couch.example.com/db/_changes?limit=500&since=2150-g1AAAA",
                "https://couch.example.com/db/_changes?limit=500&since=2653-g1AAAA",
                "https://couch.example.com/db/_changes?limit=500&since=3153-g1AAAA",
            ])
    }

    @Test func pageAndSizeParametersReplaceTheURLsAndTheQuerys() throws {
        // The URL as configured says page 9, size 10, and a tag twice; `query` says size 20.
        let planner = PagePlanner(
            pagination: .page(param: "page", sizeParam: "per_page", size: 2, start: 1),
            baseURL: "https://api.example.com/users?page=9&tag=a&per_page=10&tag=b", query: [("per_page", "20")],
            maxPages: 100)
        let requests = try walk(planner, items: 2, bodies: ["{}", "{}"])

        #expect(requests.count == 3)
        for (index, request) in requests.enumerated() {
            #expect(parameterNames(request.url).sorted() == ["page", "per_page", "tag", "tag"], "\(request.url)")
            #expect(request.url.contains("page=\(index + 1)&per_page=2"), "\(request.url)")
        }
        // A name the URL repeats on purpose, and nobody else sets, stays repeated.
        #expect(requests[0].url == "https://api.example.com/users?tag=a&tag=b&page=1&per_page=2")
    }

    @Test func queryReplacesWhatTheURLSaysAndANameItDoesNotSetStays() {
        let planner = PagePlanner(
            pagination: .none, baseURL: "https://api.example.com/users?status=all&x=1",
            query: [("status", "active")], maxPages: 1)
        #expect(planner.first().url == "https://api.example.com/users?x=1&status=active")
    }

    @Test func aURLTheAPIHandsOverIsSentAsItIsWithNothingAdded() throws {
        // GitHub's Link URLs carry `since` themselves: the agent adds no second one.
        let planner = PagePlanner(
            pagination: .link, baseURL: "https://api.github.com/repos/o/r/issues",
            query: [("since", "2026-01-01T00:00:00Z"), ("per_page", "100")], maxPages: 100)
        let first = planner.first()
        let next = "https://api.github.com/repositories/1/issues?since=2026-01-01T00%3A00%3A00Z&per_page=100&page=2"
        let second = try #require(try planner.next(after: first, facts(items: 100, links: ["<\(next)>; rel=next"])))

        #expect(parameters(first.url) == ["since": "2026-01-01T00:00:00Z", "per_page": "100"])
        #expect(second.url == next)
        #expect(parameters(second.url) == ["since": "2026-01-01T00:00:00Z", "per_page": "100", "page": "2"])
        let nextURL = PagePlanner(
            pagination: .nextURL(next: try JSONPointer("/next")), baseURL: "https://h/a", query: [("since", "1")],
            maxPages: 100)
        let followed = try #require(
            try nextURL.next(after: nextURL.first(), facts(items: 1, body: #"{"next": "https://h/a?since=1&p=2"}"#)))
        #expect(followed.url == "https://h/a?since=1&p=2")
    }

    @Test func aCursorInTheBodyIsSetOnceEvenWhereTheBodyRepeatsItsName() throws {
        var pagination = Pagination.cursor(next: try JSONPointer("/next"), param: "start_cursor")
        pagination.placement = .body
        let planner = PagePlanner(
            pagination: pagination, baseURL: "https://api.example.com/query", query: [("start_cursor", "q")],
            maxPages: 100,
            body: RequestBody(
                text: #"{"start_cursor": "old", "page_size": 10, "start_cursor": "older"}"#,
                contentType: "application/json"))
        let second = try #require(try planner.next(after: planner.first(), facts(items: 10, body: #"{"next": "c2"}"#)))

        #expect(second.body == #"{"page_size":10,"start_cursor":"c2"}"#)
        // The body's place and the query's are not the same parameter: the query keeps its own.
        #expect(second.url == "https://api.example.com/query?start_cursor=q")
    }

    // MARK: Through the request model

    /// The resource of a configuration of one resource.
    func resource(_ text: String) throws -> ResourceConfig {
        try decodeConfig(#"{"resources": [\#(text)]}"#).resources[0]
    }

    /// The URLs of the pages of `resource`'s walk sending `kept`, each page's body one of `bodies`.
    func urls(_ resource: ResourceConfig, kept: SinceState?, items: Int, bodies: [String]) throws -> [String] {
        let plan = ResourceFetch.plan(
            resource, dependencyValues: [:], since: resource.incremental?.value(toSend: kept))
        return try walk(plan.planner, items: items, bodies: bodies).map(\.url)
    }

    @Test func theCouchDBRecipeSendsSinceOnceOnEveryPage() throws {
        let couch = try resource(
            #"""
            {"name": "inventory", "url": "https://couch.example.com/inventory/_changes",
             "query": {"include_docs": "true", "limit": 2, "since": "{since}"}, "items": "/results", "key": "/id",
             "pagination": {"style": "cursor", "param": "since", "next": "/last_seq"},
             "mode": "incremental", "since": {"token": "/last_seq"}}
            """#)
        let pages = [#"{"last_seq": "5-g1AAAA"}"#, #"{"last_seq": "7-g1AAAA"}"#]

        let first = try urls(couch, kept: nil, items: 2, bodies: pages)
        let next = try urls(couch, kept: .token("3-g1AAAA"), items: 2, bodies: pages)

        #expect(first.map { parameters($0)?["since"] } == [nil, "5-g1AAAA", "7-g1AAAA"])
        #expect(next.map { parameters($0)?["since"] } == ["3-g1AAAA", "5-g1AAAA", "7-g1AAAA"])
        #expect(first.allSatisfy { parameters($0)?["limit"] == "2" })
    }

    @Test func aDriveWalkSendsItsPageTokenOnceWhetherSincePlacedItOrAQueryPlaceholder() throws {
        // The kept start token and each page's nextPageToken are both `pageToken`.
        let bySinceParam = try resource(
            #"""
            {"name": "drive", "url": "https://www.googleapis.com/drive/v3/changes?pageToken=0",
             "query": {"pageSize": 2}, "items": "/changes", "key": "/fileId",
             "pagination": {"style": "cursor", "param": "pageToken", "next": "/nextPageToken"},
             "mode": "incremental", "since": {"token": "/newStartPageToken", "param": "pageToken", "initial": "1"}}
            """#)
        let byPlaceholder = try resource(
            #"""
            {"name": "drive", "url": "https://www.googleapis.com/drive/v3/changes?pageToken={since}",
             "query": {"pageSize": 2}, "items": "/changes", "key": "/fileId",
             "pagination": {"style": "cursor", "param": "pageToken", "next": "/nextPageToken"},
             "mode": "incremental", "since": {"token": "/newStartPageToken", "initial": "1"}}
            """#)
        let pages = [#"{"nextPageToken": "p2"}"#, #"{"nextPageToken": "p3"}"#]

        for drive in [bySinceParam, byPlaceholder] {
            let sent = try urls(drive, kept: .token("40"), items: 2, bodies: pages)
            #expect(sent.map { parameters($0)?["pageToken"] } == ["40", "p2", "p3"], "\(sent)")
            #expect(sent.allSatisfy { parameters($0)?["pageSize"] == "2" }, "\(sent)")
        }
    }

    @Test func sinceParamReplacesTheSameNameInTheURLAndInQuery() throws {
        let feed = try resource(
            #"""
            {"name": "feed", "url": "https://api.example.com/feed?updated_since=2000-01-01T00:00:00Z&a=1",
             "query": {"updated_since": "x", "b": 2}, "key": "/id",
             "pagination": {"style": "page", "size": 2},
             "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"}}
            """#)
        let sent = try urls(
            feed, kept: .time(.at(1_790_000_000)), items: 2, bodies: ["{}", "{}"])

        #expect(sent.count == 3)
        for (index, url) in sent.enumerated() {
            #expect(
                parameters(url)
                    == [
                        "a": "1", "b": "2", "updated_since": "2026-09-21T14:13:20Z", "page": "\(index + 1)",
                        "per_page": "2",
                    ], "\(url)")
        }
    }

    @Test func aCursorInTheBodyReplacesTheValueSincePutAtTheSamePointer() throws {
        let search = try resource(
            #"""
            {"name": "search", "url": "https://api.example.com/search", "method": "POST", "key": "/id",
             "body": {"query": {"after": null}}, "items": "/hits",
             "pagination": {"style": "cursor", "in": "body", "param": "/query/after", "next": "/next"},
             "mode": "incremental", "since": {"token": "/next", "bodyField": "/query/after"}}
            """#)
        let plan = ResourceFetch.plan(
            search, dependencyValues: [:], since: search.incremental?.value(toSend: .token("t1")))
        let requests = try walk(plan.planner, items: 1, bodies: [#"{"next": "c2"}"#])

        #expect(requests.map(\.body) == [#"{"query":{"after":"t1"}}"#, #"{"query":{"after":"c2"}}"#])
    }
}
