import DemoUpstream
import Foundation
import NIOCore
import Synchronization

/// The routes `TestUpstream` adds to the demo's upstream (``DemoUpstream``, whose
/// ``Routes`` serve the collections in every pagination style, with ETags and faults),
/// and their state: tokens, rate limits and their log, the OAuth2 server.
///
/// | path | style | body |
/// | --- | --- | --- |
/// | `/api/v2/incremental/NAME.json?start_time=UNIX&per_page=` | nextUrl | Zendesk's time-based incremental export: `{"NAME": [...], "next_page", "count", "end_time", "end_of_stream"}` (``ZendeskImitation/timeBasedExport(_:collection:dataset:origin:)``) |
/// | `/feed/NAME?tombstones=removed&updated_since=ISO&page=&per_page=` | page | `{"value": [...], "page"}`: the incremental route's changes, removed items as `{"id", "@removed": {"reason": "deleted"}}`, or with `tombstones=events` as `{"deleted_id", "type": "deleted"}` (``TombstoneFeed``) |
/// | `/api/v1/accounts/ID/statuses?since_id=&min_id=&max_id=&limit=` | link | Mastodon's account statuses: `[{"id": "113518922052419301", "created_at", …}]`, newest first, IDs of 18 digits as strings, `Link` with `next` and `prev`, of collection `statuses` (``MastodonImitation``) |
/// | `/echo` | none | the request itself: `{"id", "method", "query", "headers", "body"}` |
/// | `/redirect?to=URL&status=302` | | a redirect to `URL` (to itself when `to` is absent) |
/// | `POST /oauth/token` | | an OAuth2 token endpoint, once ``TestUpstream/requireOAuth2(_:)`` sets one (``OAuth2Server``); the collections and the routes above then want its tokens |
///
/// The imitations (``ImitatedAPI``) serve the same collections in each API's envelope and
/// pagination, with its page sizes (the numbers: default and most), its error bodies,
/// and, when ``TestUpstream/requireToken(_:for:)`` asks for one, its 401:
///
/// | path | imitates | body |
/// | --- | --- | --- |
/// | `GET /github/NAME?per_page=&page=` | GitHub REST (30, 100) | `[...]`; `Link` with `prev`, `next`, `last`, `first` (absolute); `x-ratelimit-*` |
/// | `GET /stripe/NAME?limit=&starting_after=ID&ending_before=ID` | Stripe list (10, 1–100) | `{"object": "list", "url": "/v1/NAME", "has_more", "data": [...]}` |
/// | `GET /slack/NAME?limit=&cursor=` | Slack `users.list` (100, 1000) | `{"ok": true, "members": [...], "response_metadata": {"next_cursor": "…" or ""}}` |
/// | `POST /notion/NAME/query` `{"page_size", "start_cursor"}` | Notion database query (100, 100) | `{"object": "list", "results": [...], "next_cursor": "…" or null, "has_more", "type": "page_or_database", "page_or_database": {}}` |
/// | `GET /google/NAME?maxResults=&pageToken=` | Google Calendar-style list (250, 2500) | `{"kind": "sync#itemList", "items": [...], "nextPageToken": "…"}`, no token on the last page |
/// | `GET /shopify/NAME.json?limit=&page_info=` | Shopify REST Admin (50, 250) | `{"NAME": [...]}`; `Link` with `previous`, `next`; `X-Shopify-Shop-Api-Call-Limit` |
/// | `GET /zendesk/NAME?cursor=&per_page=` | Zendesk cursor incremental export (1000, 1000) | `{"NAME": [...], "after_cursor", "after_url", "before_cursor": null, "before_url": null, "end_of_stream"}` |
/// | `GET /salesforce/NAME/query`, then `nextRecordsUrl` | Salesforce query (`Sforce-Query-Options: batchSize=N`, 2000, 2000) | `{"totalSize", "done", "nextRecordsUrl": "/salesforce/NAME/query/LOCATOR-OFFSET", "records": [...]}` |
/// | `GET /okta/NAME?limit=&after=ID` | Okta users list (200, 200) | `[...]`; `Link` with `self` and `next` (absolute) |
/// | `POST /linear/NAME` `{"query", "variables": {"first", "after"}}` | Linear GraphQL connection (50, 250) | `{"data": {"NAME": {"nodes": [...], "pageInfo": {"hasNextPage", "endCursor"}}}}` |
///
/// The imitations of the ways APIs tell what changed live at the APIs' own paths, and read
/// fixed collections (but CouchDB, whose database is the collection):
///
/// | path | imitates | collection | body |
/// | --- | --- | --- | --- |
/// | `GET /rest/api/3/search/jql?jql=&nextPageToken=&maxResults=&fields=` | Jira JQL search (50, 100), `updated >= "yyyy-MM-dd HH:mm"` and `ORDER BY updated` read from the JQL | `jira-issues` | `{"issues": [...], "nextPageToken", "isLast"}` |
/// | `GET /rest/api/3/project/search?startAt=&maxResults=` | Jira project search (50, 50: a larger `maxResults` is capped) | `jira-projects` | `{"self", "nextPage", "maxResults", "startAt", "total", "isLast", "values": [...]}` |
/// | `GET /v1.0/users/delta?$select=`, then `$skiptoken=`, `$deltatoken=` | Microsoft Graph delta query (`Prefer: odata.maxpagesize=N`, 100, 999) | `graph-users` | `{"@odata.context", "@odata.nextLink" or "@odata.deltaLink", "value": [...]}`, deleted users as `{"id", "@removed": {"reason"}}`; a stale token is 410 `syncStateNotFound` |
/// | `POST /admin/api/VERSION/graphql.json` `{"query", "variables"}` | Shopify GraphQL Admin `orders(first:, after:, query:, sortKey:)` (`first` at most 250) | `shopify-orders` | `{"data": {"orders": {"edges": [{"cursor", "node"}], "pageInfo"}}, "extensions": {"cost"}}`; over the limit, `THROTTLED` in a 200 |
/// | `GET /DB/_changes?since=&limit=&include_docs=&style=` | CouchDB changes feed | `DB` | `{"results": [{"seq", "id", "changes", "doc", "deleted"}], "last_seq", "pending"}` |
/// | `GET /search/issues?q=&sort=&order=&per_page=&page=` | GitHub issue search (30, 100), `updated:>=TIME` read from `q`, at most 1,000 results a query | `github-issues` | `{"total_count", "incomplete_results", "items": [...]}`; `Link`; a page past 1,000 is 422 |
/// | `GET /drive/v3/changes?pageToken=&pageSize=`, `GET /drive/v3/changes/startPageToken` | Google Drive changes (100, 1000), `"1"` the oldest token | `drive-files` | `{"kind": "drive#changeList", "changes": [{"kind", "changeType", "time", "removed", "fileId", "file"}], "nextPageToken" or "newStartPageToken"}`, a file deleted as `"removed": true` |
/// | `GET /api/v4/projects/ID/issues?updated_after=ISO&order_by=&sort=&page=&per_page=` | GitLab's project issues (20, 100), on or after `updated_after`; an edited issue moves to the end of `order_by=updated_at&sort=asc` | `gitlab-issues` | `[...]`; `x-page`, `x-next-page`, `x-total`, `x-total-pages`, `Link` |
///
/// ``TestUpstream/expireStateTokens(of:)`` makes the tokens an API issued so far too old
/// (Graph answers them 410), and ``TestUpstream/imitatedRecords(_:collection:)`` tells
/// what a complete copy holds.
///
/// Each imitation answers its rate limit (``UpstreamRateLimit``, set with
/// ``TestUpstream/setRateLimit(_:for:)``; GitHub and Shopify have one from the start) its
/// API's way, and ``RateLimitLog`` records the wait it told:
///
/// | API | over the limit | wait logged | quota headers on every answer |
/// | --- | --- | --- | --- |
/// | GitHub | 403, `{"message": "API rate limit exceeded for …"}` | until `x-ratelimit-reset` | `x-ratelimit-limit`, `-remaining`, `-used`, `-reset`, `-resource` (a 304 does not count) |
/// | Stripe | 429, `{"error": {"code": "rate_limit", …}}` | none told | none |
/// | Slack | 429, `Retry-After: N`, `{"ok": false, "error": "ratelimited"}` | `Retry-After` | none |
/// | Notion | 429, `Retry-After: N`, `{"object": "error", "code": "rate_limited", …}` | `Retry-After` | none |
/// | Google | 403, `userRateLimitExceeded` | none told | none |
/// | Shopify | 429, `Retry-After: 2.0`, `{"errors": "Exceeded 2 calls per second …"}` | `Retry-After` | `X-Shopify-Shop-Api-Call-Limit: USED/SIZE` |
/// | Zendesk | 429, `Retry-After: N`, `ratelimit-remaining: 0` | `Retry-After` | `ratelimit-limit`, `-remaining`, `-reset` (seconds), `x-rate-limit`, `x-rate-limit-remaining` |
/// | Salesforce | 403, `REQUEST_LIMIT_EXCEEDED` | none told | `Sforce-Limit-Info: api-usage=USED/LIMIT` |
/// | Okta | 429, `E0000047` | until `X-Rate-Limit-Reset` | `X-Rate-Limit-Limit`, `-Remaining`, `-Reset` (epoch seconds) |
/// | Linear | 400, `RATELIMITED` | until `X-RateLimit-Requests-Reset` | `X-RateLimit-Requests-Limit`, `-Remaining`, `-Reset` (epoch milliseconds) |
/// | Jira | 429, `Retry-After: N`, `{"errorMessages": ["Rate limit exceeded."]}` | `Retry-After` | `X-RateLimit-Limit`, `-Remaining`, `-Reset` (ISO 8601) |
/// | Graph | 429, `Retry-After: N`, `{"error": {"code": "TooManyRequests", …}}` | `Retry-After` | none |
/// | Shopify GraphQL | 200, `{"errors": [{"message": "Throttled", "extensions": {"code": "THROTTLED"}}]}` | none told (only the cost in the body) | none |
/// | CouchDB | 429, `{"error": "too_many_requests", …}` | none told | none |
/// | Drive | 403, as Google | none told | none |
/// | GitHub search | 403, as GitHub | until `x-ratelimit-reset` | GitHub's, with `x-ratelimit-resource: search` |
/// | GitLab | 429, `{"message": "429 Too Many Requests"}` | none told | none |
///
/// An injected ``Fault`` answering 403, 429 or 503 with a `retryAfter` is logged too.
///
/// Their pages carry the collections' validators (``Routes/outcome(of:modified:request:)``).
/// Each imitation's file tells where its conventions are documented, and how it departs
/// from them. `/_control/` gains, beside the demo upstream's own:
///
/// | request | does |
/// | --- | --- |
/// | `POST /_control/ratelimits/API` `{"requests", "windowSeconds"}` or `{"bucketSize", "leaksPerSecond"}` | sets an API's rate limit |
/// | `DELETE /_control/ratelimits/API` | removes it |
/// | `POST` or `DELETE /_control/tokens/API?token=T` | requires a token, or no more |
/// | `GET` or `DELETE /_control/ratelimit-log` | the rate-limit log (``RateLimitLog/controlJSON``), or forgets it |
///
/// Thread-safety: `Sendable`; its state is behind one `Mutex`.
final class TestRoutes: UpstreamRoutes {
    private struct Contents {
        var limiters: [ImitatedAPI: RateLimiter] = [:]
        var tokens: [ImitatedAPI: String] = [:]
        var oauth2: OAuth2Authority?
        var rateLimited: [RateLimitLog.Entry] = []
        /// Per API, the time before which its state tokens are too old.
        var staleBefore: [ImitatedAPI: Date] = [:]
    }

    private let contents = Mutex(Contents())

    /// Routes whose APIs have their default rate limits (``ImitatedAPI/defaultRateLimit``).
    init() {
        contents.withLock { contents in
            for api in ImitatedAPI.allCases {
                contents.limiters[api] = api.defaultRateLimit.map(RateLimiter.init)
            }
        }
    }

    // MARK: Rate limits and tokens

    func setRateLimit(_ limit: UpstreamRateLimit?, for api: ImitatedAPI) {
        contents.withLock { $0.limiters[api] = limit.map(RateLimiter.init) }
    }

    func rateLimit(for api: ImitatedAPI) -> UpstreamRateLimit? {
        contents.withLock { $0.limiters[api]?.limit }
    }

    func setToken(_ token: String?, for api: ImitatedAPI) {
        contents.withLock { $0.tokens[api] = token }
    }

    /// Makes every state token `api` issued so far too old (``Imitation/staleState(_:issuedBefore:origin:)``).
    func expireStateTokens(of api: ImitatedAPI) {
        contents.withLock { $0.staleBefore[api] = Date() }
    }

    func setOAuth2(_ server: OAuth2Server?) {
        contents.withLock { $0.oauth2 = server.map(OAuth2Authority.init) }
    }

    func revokeOAuth2AccessTokens() {
        contents.withLock { $0.oauth2?.revokeAccessTokens() }
    }

    var oauth2RefreshToken: String? {
        contents.withLock { $0.oauth2?.server.refreshToken }
    }

    /// The rate-limited answers so far, with the requests that came before the time they
    /// allowed among `requests` (read after the answers, so that each one's request is there).
    func rateLimitLog(requests: () -> [SeenRequest]) -> RateLimitLog {
        let entries = contents.withLock { $0.rateLimited }
        return RateLimitLog(entries: entries, requests: requests())
    }

    func clearRateLimitLog() {
        contents.withLock { $0.rateLimited.removeAll() }
    }

    // MARK: Answering

    /// An imitated API's answer (its token checked, its rate limit applied), the OAuth2
    /// token endpoint's, the OAuth2 refusal of a request without a valid token, or the
    /// answer of a route of the first table; `nil` for the collections.
    func answer(
        _ request: SeenRequest, origin: String, answeredAt: Date, state: UpstreamState
    ) -> ResponsePlan.Outcome? {
        if let api = ImitatedAPI(path: request.path) {
            return imitated(api, request, origin: origin, answeredAt: answeredAt, state: state)
        }
        if request.path == OAuth2Authority.tokenPath {
            return contents.withLock { $0.oauth2?.token(request) }
                ?? Routes.json(status: 404, #"{"error":"no token endpoint"}"#)
        }
        if let refusal = contents.withLock({ $0.oauth2?.refusal(request) }) { return refusal }
        let parts = request.path.split(separator: "/").map(String.init)
        if parts == ["echo"] { return Self.echo(request) }
        if parts == ["redirect"] {
            let query = Routes.parameters(request.query)
            let status = query["status"].flatMap(Int.init) ?? 302
            let itself = request.path + (request.query.isEmpty ? "" : "?" + request.query)
            return .answer(status: status, headers: [("Location", query["to"] ?? itself)], body: ByteBuffer())
        }
        if parts.count == 2, parts[0] == "feed" {
            guard let dataset = state.dataset(named: parts[1]) else {
                return Routes.json(status: 404, #"{"error":"no such collection"}"#)
            }
            return Routes.outcome(
                of: TombstoneFeed.page(request, dataset: dataset), modified: dataset.modified, request: request)
        }
        if MastodonImitation.matches(request.path) {
            return MastodonImitation.page(
                request, count: state.dataset(named: "statuses")?.liveCount ?? 0, origin: origin)
        }
        if parts.count == 4, parts[0] == "api", parts[2] == "incremental", parts[3].hasSuffix(".json") {
            let name = String(parts[3].dropLast(5))
            guard let dataset = state.dataset(named: name) else {
                return Routes.json(status: 404, #"{"error":"InvalidEndpoint"}"#)
            }
            let reply = ZendeskImitation.timeBasedExport(request, collection: name, dataset: dataset, origin: origin)
            return Routes.outcome(of: reply, modified: dataset.modified, request: request)
        }
        return nil
    }

    /// An imitated API's quota headers on the answer of a fault (which does not count), and
    /// an injected 403, 429 or 503 with a `retryAfter` logged as rate limited.
    func faulted(
        _ outcome: ResponsePlan.Outcome, by fault: Fault, request: SeenRequest, answeredAt: Date
    ) -> ResponsePlan.Outcome {
        let api = ImitatedAPI(path: request.path)
        switch fault.action {
        case .status(let status, let retryAfter, _):
            if let retryAfter, [403, 429, 503].contains(status) {
                let entry = RateLimitLog.Entry(
                    api: nil, scope: fault.path, request: request, status: status, answeredAt: answeredAt,
                    allowedAt: Self.allowedAt(retryAfter: retryAfter, answeredAt: answeredAt))
                contents.withLock { Self.record(entry, in: &$0) }
            }
            return api.map { outcome.adding(quotaHeaders(of: $0, at: request.receivedAt)) } ?? outcome
        case .invalidJSON:
            return api.map { outcome.adding(quotaHeaders(of: $0, at: request.receivedAt)) } ?? outcome
        case .respond, .truncate, .reset, .contentLength:
            return outcome
        }
    }

    /// The imitated API's answer: its 401 without the token it requires, else its page or
    /// error through its rate limit.
    private func imitated(
        _ api: ImitatedAPI, _ request: SeenRequest, origin: String, answeredAt: Date, state: UpstreamState
    ) -> ResponsePlan.Outcome {
        let token = contents.withLock { $0.tokens[api] }
        let presented = api.imitation.presentedToken(request)
        if let token, presented != token {
            return api.imitation.unauthorized(presented: presented)
                .adding(quotaHeaders(of: api, at: request.receivedAt))
        }
        let name = api.imitation.collection(in: request.path) ?? Self.collectionName(in: request.path)
        let outcome: ResponsePlan.Outcome
        if let cutoff = contents.withLock({ $0.staleBefore[api] }),
            let stale = api.imitation.staleState(request, issuedBefore: cutoff, origin: origin)
        {
            outcome = stale
        } else if var dataset = state.dataset(named: name) {
            let reply = api.imitation.reply(to: request, collection: name, dataset: &dataset, origin: origin)
            outcome = Routes.outcome(of: reply, modified: dataset.modified, request: request)
        } else {
            outcome = Routes.json(status: 404, #"{"error":"no such collection"}"#)
        }
        return limit(outcome, of: api, request: request, answeredAt: answeredAt)
    }

    /// The records a complete copy of an imitation's collection holds now (``Imitation/records(collection:dataset:origin:)``).
    func records(_ api: ImitatedAPI, collection: String, dataset: Dataset, origin: String) -> [String: String] {
        var dataset = dataset
        return api.imitation.records(collection: collection, dataset: &dataset, origin: origin)
    }

    /// The collection an imitation's path names: its second component
    /// (`/github/NAME`, `/salesforce/NAME/query/…`), without Shopify's `.json`.
    static func collectionName(in path: String) -> String {
        let name = Routes.collectionName(in: path)
        return path.hasPrefix("/shopify/") && name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }

    /// Passes `outcome` through the API's rate limit: adds its quota headers, or replaces
    /// it with the API's refusal and logs that. A GitHub 304 does not count.
    private func limit(
        _ outcome: ResponsePlan.Outcome, of api: ImitatedAPI, request: SeenRequest, answeredAt: Date
    ) -> ResponsePlan.Outcome {
        guard case .answer(let status, _, _) = outcome else { return outcome }
        let counts = !(api == .github && status == 304)
        let decision = contents.withLock { contents -> RateLimitDecision? in
            guard var limiter = contents.limiters[api] else { return nil }
            let decision = limiter.admit(at: request.receivedAt, counts: counts)
            contents.limiters[api] = limiter
            if !decision.admitted {
                let entry = RateLimitLog.Entry(
                    api: api, scope: api.pathPrefix, request: request, status: api.imitation.refusalStatus,
                    answeredAt: answeredAt,
                    allowedAt: api.imitation.allowedAt(after: decision, answeredAt: answeredAt))
                Self.record(entry, in: &contents)
            }
            return decision
        }
        guard let decision else { return outcome }
        guard decision.admitted else { return api.imitation.refusal(decision, to: request) }
        return outcome.adding(api.imitation.quotaHeaders(decision))
    }

    /// The API's quota headers for an answer that does not count (an injected fault).
    private func quotaHeaders(of api: ImitatedAPI, at now: Date) -> [(String, String)] {
        let decision = contents.withLock { contents -> RateLimitDecision? in
            guard var limiter = contents.limiters[api] else { return nil }
            defer { contents.limiters[api] = limiter }
            return limiter.admit(at: now, counts: false)
        }
        return decision.map(api.imitation.quotaHeaders) ?? []
    }

    private static func record(_ entry: RateLimitLog.Entry, in contents: inout Contents) {
        if contents.rateLimited.count >= UpstreamState.requestLogLimit { contents.rateLimited.removeFirst(1000) }
        contents.rateLimited.append(entry)
    }

    /// When a `Retry-After` of `value` (seconds, possibly decimal, or an HTTP date) sent at
    /// `answeredAt` allows the next request.
    private static func allowedAt(retryAfter value: String, answeredAt: Date) -> Date? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds >= 0 { return answeredAt.addingTimeInterval(seconds) }
        return Routes.parseHTTPDate(text)
    }

    /// The `/_control/` requests of the table above; `nil` for the others.
    func control(_ request: SeenRequest, state: UpstreamState) -> ResponsePlan.Outcome? {
        let parts = request.path.split(separator: "/").map(String.init)
        let query = Routes.parameters(request.query)
        switch (request.method, parts.dropFirst().first ?? "", parts.count) {
        case ("POST", "ratelimits", 3), ("DELETE", "ratelimits", 3):
            guard let api = ImitatedAPI(rawValue: parts[2]) else {
                return Routes.json(status: 404, #"{"error":"no such API"}"#)
            }
            guard request.method == "POST" else {
                setRateLimit(nil, for: api)
                return Routes.json(status: 200, "{}")
            }
            guard let limit = UpstreamRateLimit(controlBody: request.body), limit.isValid else {
                return Routes.json(
                    status: 400,
                    #"{"error":"a rate limit is {\"requests\", \"windowSeconds\"} or {\"bucketSize\", \"leaksPerSecond\"}"}"#
                )
            }
            setRateLimit(limit, for: api)
            return Routes.json(status: 200, "{}")
        case ("POST", "tokens", 3), ("DELETE", "tokens", 3):
            guard let api = ImitatedAPI(rawValue: parts[2]) else {
                return Routes.json(status: 404, #"{"error":"no such API"}"#)
            }
            setToken(request.method == "POST" ? query["token"] : nil, for: api)
            return Routes.json(status: 200, "{}")
        case ("GET", "ratelimit-log", 2):
            return Routes.json(status: 200, rateLimitLog(requests: { state.requests }).controlJSON)
        case ("DELETE", "ratelimit-log", 2):
            clearRateLimitLog()
            return Routes.json(status: 200, "{}")
        default:
            return nil
        }
    }

    private static func echo(_ request: SeenRequest) -> ResponsePlan.Outcome {
        let headers = request.headers.sorted { $0.key < $1.key }.map {
            "\(Routes.quote($0.key)):\(Routes.quote($0.value))"
        }
        let text = """
            {"id":"echo","method":\(Routes.quote(request.method)),"query":\(Routes.quote(request.query)),\
            "headers":{\(headers.joined(separator: ","))},"body":\(Routes.quote(request.body))}
            """
        return Routes.json(status: 200, text)
    }
}
