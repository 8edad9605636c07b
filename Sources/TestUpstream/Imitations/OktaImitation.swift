import DemoUpstream
import Foundation
import NIOCore

/// Okta's management API, as its users list: `GET /okta/NAME?limit=&after=`.
///
/// - Pagination (https://developer.okta.com/docs/api/#pagination): `limit` (default
///   and most 200 for users) and the opaque `after` cursor; the body is a JSON array;
///   `Link` holds absolute URLs with `rel="self"` and, unless the page is the last,
///   `rel="next"`. A cursor is the id of the page's last item here.
/// - Rate limit (https://developer.okta.com/docs/reference/rl-best-practices/): every
///   answer carries `X-Rate-Limit-Limit`, `X-Rate-Limit-Remaining` and
///   `X-Rate-Limit-Reset`, the window's end in UTC epoch seconds; over the limit the
///   answer is 429 with `errorCode` `E0000047` and the same headers, and no
///   `Retry-After`: the client is to wait for the reset.
/// - Token (https://developer.okta.com/docs/guides/create-an-api-token/): `Authorization:
///   SSWS TOKEN`; without it or with a wrong one, 401 `E0000011`.
enum OktaImitation: Imitation {
    static let defaultPageSize = 200
    static let maximumPageSize = 200

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        guard request.method == "GET" else {
            return .answer(error(405, "E0000022", "The endpoint does not support the provided HTTP method"))
        }
        var limit = defaultPageSize
        if let text = query["limit"] {
            guard let value = Int(text), value >= 1 else {
                return .answer(error(400, "E0000001", "Api validation failed: limit"))
            }
            limit = min(value, maximumPageSize)
        }
        var offset = 0
        if let after = query["after"] {
            guard let id = Int(after) else { return .answer(error(400, "E0000031", "Invalid search criteria.")) }
            offset = dataset.offset(of: id + 1)
        }
        let ids = dataset.ids(offset: offset, limit: limit)
        var links = [#"<\#(origin)/okta/\#(name)?\#(request.query)>; rel="self""#]
        if offset + ids.count < dataset.liveCount, let last = ids.last {
            links.append(#"<\#(origin)/okta/\#(name)?after=\#(last)&limit=\#(limit)>; rel="next""#)
        }
        return .page(headers: [("Link", links.joined(separator: ", "))], body: body("", ids, of: dataset, ""))
    }

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        [
            ("X-Rate-Limit-Limit", "\(quota.limit)"), ("X-Rate-Limit-Remaining", "\(quota.remaining)"),
            ("X-Rate-Limit-Reset", "\(resetEpochSecond(quota))"),
        ]
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        error(
            refusalStatus, "E0000047", "API call exceeded rate limit due to too many requests.",
            headers: quotaHeaders(quota))
    }

    /// The reset second: a request at or after it is allowed.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        Date(timeIntervalSince1970: TimeInterval(resetEpochSecond(quota)))
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("SSWS ") else {
            return nil
        }
        return String(authorization.dropFirst("SSWS ".count))
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(401, "E0000011", "Invalid token provided")
    }

    /// `resetAt` as whole epoch seconds, rounded up (a window's end is whole already).
    private static func resetEpochSecond(_ quota: RateLimitDecision) -> Int {
        Int(quota.resetAt.timeIntervalSince1970.rounded(.up))
    }

    /// Okta's error body: `{"errorCode", "errorSummary", "errorLink", "errorId", "errorCauses"}`.
    private static func error(
        _ status: Int, _ code: String, _ summary: String, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(
            status: status,
            #"{"errorCode":"\#(code)","errorSummary":\#(Routes.quote(summary)),"errorLink":"\#(code)","#
                + #""errorId":"oae\#(code.suffix(4))","errorCauses":[]}"#,
            headers: headers)
    }
}
