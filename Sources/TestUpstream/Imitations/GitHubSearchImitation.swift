import DemoUpstream
import Foundation
import NIOCore

/// GitHub's issue search: `GET /search/issues?q=&sort=&order=&per_page=&page=` over the
/// collection `github-issues`.
///
/// - Search (https://docs.github.com/rest/search/search#search-issues-and-pull-requests,
///   https://docs.github.com/rest/search/search#about-search): `q` is required (422
///   "Validation Failed" without it); `sort` is `updated`, `created` or `comments` (none:
///   best match, here newest id first) and `order` `desc` (the default) or `asc`;
///   `per_page` defaults to 30 and is at most 100, `page` starts at 1. The answer is
///   `{"total_count", "incomplete_results": false, "items": [...]}`, with `Link` as for
///   GitHub's other lists (`next`, `last`, `prev`, `first`, absolute).
/// - At most **1,000 results of one query**: `total_count` tells every match, but the
///   pages stop at the 1,000th (`last` points at the page that holds it), and a page that
///   starts past it is 422 `{"message": "Only the first 1000 search results are
///   available", …}`, as GitHub answers.
/// - Qualifiers (https://docs.github.com/search-github/searching-on-github/searching-issues-and-pull-requests#search-by-when-an-issue-or-pull-request-was-created-or-last-updated,
///   https://docs.github.com/search-github/getting-started-with-searching-on-github/understanding-the-search-syntax#query-for-dates):
///   `updated:>=TIME`, `updated:>TIME`, `updated:<=TIME`, `updated:<TIME` and
///   `updated:FROM..TO` (`*` for an open end), where a time is `YYYY-MM-DD` or
///   `YYYY-MM-DDTHH:MM:SS` with `Z` or an offset, filter by update time; the other terms
///   (`repo:`, `is:issue`) are not read. A time that is not one of those is 422 here
///   (GitHub would search it as text), so that a test sees a filter written wrong.
/// - Issues: `{"url", "html_url", "id", "node_id", "number", "title", "state",
///   "comments", "created_at", "updated_at", "score"}`; `comments` counts the item's changes.
/// - Rate limit (https://docs.github.com/rest/search/search#rate-limit): as GitHub's
///   (``GitHubImitation``), with `x-ratelimit-resource: search`; no limit by default
///   (GitHub's is 30 requests a minute).
enum GitHubSearchImitation: Imitation {
    static let issuesCollection = "github-issues"
    static let defaultPageSize = 30
    static let maximumPageSize = 100
    static let resultCap = 1000

    static func collection(in path: String) -> String? { issuesCollection }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        guard let q = query["q"], !q.trimmingCharacters(in: .whitespaces).isEmpty else {
            return .answer(
                validationFailed(#"{"resource":"Search","field":"q","code":"missing"}"#))
        }
        var low = 0
        var high = Int.max
        for match in q.matches(of: #/\bupdated:(>=|>|<=|<)?(\S+)/#) {
            let value = String(match.2)
            let bounds: (Date?, Bool, Date?, Bool)
            if let range = value.firstRange(of: "..") {
                let from = String(value[..<range.lowerBound])
                let to = String(value[range.upperBound...])
                bounds = (
                    from == "*" ? .distantPast : QueryTime.date(from), true,
                    to == "*" ? .distantFuture : QueryTime.date(to), true
                )
            } else {
                let date = QueryTime.date(value)
                switch match.1 {
                case ">=": bounds = (date, true, .distantFuture, true)
                case ">": bounds = (date, false, .distantFuture, true)
                case "<=": bounds = (.distantPast, true, date, true)
                case "<": bounds = (.distantPast, true, date, false)
                default: bounds = (date, true, date.map { $0.addingTimeInterval(86_399) }, true)
                }
            }
            guard let from = bounds.0, let to = bounds.2 else {
                return .answer(
                    validationFailed(
                        #"{"message":"The updated qualifier's value \#(Routes.quote(value).dropFirst().dropLast()) is not a date.","#
                            + #""resource":"Search","field":"q","code":"invalid"}"#))
            }
            low = max(low, QueryTime.firstStamp(after: from, inclusive: bounds.1))
            if to < .distantFuture {
                high = min(high, QueryTime.firstStamp(after: to, inclusive: !bounds.3) - 1)
            }
        }
        var issues = QueryTime.changed(in: dataset, since: low).filter { $0.stamp <= high }
        let ascending = query["order"] == "asc"
        switch query["sort"] {
        case "updated": break
        case "created", "comments": issues.sort { $0.id < $1.id }
        default: issues.sort { $0.id > $1.id }
        }
        if ["updated", "created", "comments"].contains(query["sort"] ?? ""), !ascending { issues.reverse() }
        let perPage = min(max(query["per_page"].flatMap(Int.init) ?? defaultPageSize, 1), maximumPageSize)
        let page = max(query["page"].flatMap(Int.init) ?? 1, 1)
        let offset = (page - 1) * perPage
        guard offset < resultCap else {
            return .answer(
                Routes.json(
                    status: 422,
                    #"{"message":"Only the first 1000 search results are available","#
                        + #""documentation_url":"https://docs.github.com/v3/search/","status":"422"}"#))
        }
        let reachable = min(issues.count, resultCap)
        let items = issues.dropFirst(offset).prefix(min(perPage, reachable - min(offset, reachable)))
        let lastPage = max(1, (reachable + perPage - 1) / perPage)
        let unreserved = CharacterSet(charactersIn: "-._~").union(.alphanumerics)
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
        let kept = query.filter { $0.key != "page" }.sorted { $0.key < $1.key }
        let base =
            "\(origin)/search/issues?" + kept.map { "\(encoded($0.key))=\(encoded($0.value))" }.joined(separator: "&")
        func link(_ page: Int, _ relation: String) -> String { "<\(base)&page=\(page)>; rel=\"\(relation)\"" }
        var links: [String] = []
        if page > 1 { links.append(link(min(page - 1, lastPage), "prev")) }
        if page < lastPage { links += [link(page + 1, "next"), link(lastPage, "last")] }
        if page > 1 { links.append(link(1, "first")) }
        let body =
            #"{"total_count":\#(issues.count),"incomplete_results":false,"items":["#
            + items.map { issue($0.id, stamp: $0.stamp, dataset: dataset, origin: origin) }.joined(separator: ",")
            + "]}"
        return .page(
            headers: links.isEmpty ? [] : [("Link", links.joined(separator: ", "))], body: ByteBuffer(string: body))
    }

    /// Issue number `id` as the search answers it.
    static func issue(_ id: Int, stamp: Int, dataset: Dataset, origin: String) -> String {
        let api = "\(origin)/repos/octo-org/octo-repo/issues/\(id)"
        return #"{"url":"\#(api)","html_url":"https://github.com/octo-org/octo-repo/issues/\#(id)","#
            + #""id":\#(2_000_000_000 + id),"node_id":"I_kwDO\#(base64("issue\(id)", urlSafe: true, padded: false))","#
            + #""number":\#(id),"title":"Item \#(id)","state":"\#(id % 4 == 0 ? "closed" : "open")","#
            + #""comments":\#(dataset.revision(of: id) - 1),"created_at":"\#(Dataset.time(0))","#
            + #""updated_at":"\#(Dataset.time(stamp))","score":1.0}"#
    }

    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        return Dictionary(
            uniqueKeysWithValues: ids.map {
                ("\(2_000_000_000 + $0)", issue($0, stamp: dataset.stamp(of: $0)!, dataset: dataset, origin: origin))
            })
    }

    private static func validationFailed(_ error: String) -> ResponsePlan.Outcome {
        Routes.json(
            status: 422,
            #"{"message":"Validation Failed","errors":[\#(error)],"#
                + #""documentation_url":"https://docs.github.com/v3/search","status":"422"}"#)
    }

    // MARK: Limits and tokens

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        GitHubImitation.quotaHeaders(quota).map { $0.0 == "x-ratelimit-resource" ? ($0.0, "search") : $0 }
    }

    static let refusalStatus = GitHubImitation.refusalStatus

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        guard case .answer(let status, let headers, let body) = GitHubImitation.refusal(quota, to: request) else {
            return GitHubImitation.refusal(quota, to: request)
        }
        return .answer(
            status: status,
            headers: headers.map { $0.0 == "x-ratelimit-resource" ? ($0.0, "search") : $0 },
            body: body)
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        GitHubImitation.allowedAt(after: quota, answeredAt: answeredAt)
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        GitHubImitation.presentedToken(request)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        GitHubImitation.unauthorized(presented: token)
    }
}
