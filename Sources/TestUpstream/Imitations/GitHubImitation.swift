import DemoUpstream
import Foundation
import NIOCore

/// GitHub's REST API: `GET /github/NAME?per_page=&page=`.
///
/// - Pagination (https://docs.github.com/rest/using-the-rest-api/using-pagination-in-the-rest-api):
///   `per_page` defaults to 30 and is at most 100, `page` starts at 1; the body is a JSON
///   array; `Link` holds absolute URLs with `rel="prev"`, `"next"`, `"last"` and
///   `"first"` (no `prev`/`first` on the first page, no `next`/`last` on the last), and is
///   left out when every item fits on one page. A page past the end is `[]`.
/// - Rate limit (https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api):
///   every answer carries `x-ratelimit-limit`, `-remaining`, `-used`, `-reset` (epoch
///   seconds of the window's end) and `-resource: core`; over the primary limit the answer
///   is 403 with `x-ratelimit-remaining: 0` and GitHub's message, and no `retry-after`.
///   Secondary limits (403 or 429 with `retry-after`) are injected as a ``Fault``.
/// - Conditional requests
///   (https://docs.github.com/rest/using-the-rest-api/best-practices-for-using-the-rest-api#use-conditional-requests-if-appropriate):
///   a 304 does not count against the limit; here it is answered even when no request is
///   left, since it costs nothing.
/// - Token (https://docs.github.com/rest/authentication/authenticating-to-the-rest-api):
///   `Authorization: Bearer TOKEN` or `token TOKEN`; without it 401 "Requires
///   authentication", with a wrong one 401 "Bad credentials".
enum GitHubImitation: Imitation {
    static let defaultPageSize = 30
    static let maximumPageSize = 100

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        // GitHub ignores a size it cannot read and caps one that is too large.
        let perPage = min(max(query["per_page"].flatMap(Int.init) ?? defaultPageSize, 1), maximumPageSize)
        let page = max(query["page"].flatMap(Int.init) ?? 1, 1)
        let lastPage = max(1, (dataset.liveCount + perPage - 1) / perPage)
        let ids = dataset.ids(offset: (page - 1) * perPage, limit: perPage)
        func link(_ page: Int, _ relation: String) -> String {
            "<\(origin)/github/\(name)?per_page=\(perPage)&page=\(page)>; rel=\"\(relation)\""
        }
        var links: [String] = []
        if page > 1 { links.append(link(min(page - 1, lastPage), "prev")) }
        if page < lastPage { links += [link(page + 1, "next"), link(lastPage, "last")] }
        if page > 1 { links.append(link(1, "first")) }
        let headers = links.isEmpty ? [] : [("Link", links.joined(separator: ", "))]
        return .page(headers: headers, body: body("", ids, of: dataset, ""))
    }

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        [
            ("x-ratelimit-limit", "\(quota.limit)"), ("x-ratelimit-remaining", "\(quota.remaining)"),
            ("x-ratelimit-reset", "\(resetEpochSecond(quota))"), ("x-ratelimit-used", "\(quota.used)"),
            ("x-ratelimit-resource", "core"),
        ]
    }

    static let refusalStatus = 403

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        let who =
            request.headers["authorization"] == nil
            ? "127.0.0.1. (But here's the good news: Authenticated requests get a higher rate limit. "
                + "Check out the documentation for more details.)"
            : "user ID 1."
        return Routes.json(
            status: refusalStatus,
            #"{"message":"API rate limit exceeded for \#(who)","#
                + #""documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api"}"#,
            headers: quotaHeaders(quota))
    }

    /// The reset second: a request at or after it is allowed.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        Date(timeIntervalSince1970: TimeInterval(resetEpochSecond(quota)))
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"] else { return nil }
        for scheme in ["Bearer ", "token "] where authorization.hasPrefix(scheme) {
            return String(authorization.dropFirst(scheme.count))
        }
        return nil
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        Routes.json(
            status: 401,
            #"{"message":"\#(token == nil ? "Requires authentication" : "Bad credentials")","#
                + #""documentation_url":"https://docs.github.com/rest","status":"401"}"#)
    }

    /// `resetAt` as whole epoch seconds, rounded up (a window's end is whole already).
    private static func resetEpochSecond(_ quota: RateLimitDecision) -> Int {
        Int(quota.resetAt.timeIntervalSince1970.rounded(.up))
    }
}
