import DemoUpstream
import Foundation
import NIOCore

/// Linear's GraphQL API, as a query of one connection: `POST /linear/NAME` with
/// `{"query", "variables": {"first", "after"}}`.
///
/// - Pagination (https://linear.app/developers/pagination): Relay-style connections;
///   `first` (default 50, at most 250) and the opaque `after` cursor in `variables`;
///   the answer is `{"data": {"NAME": {"nodes": [...], "pageInfo": {"hasNextPage",
///   "endCursor"}}}}`, `endCursor` the last node's cursor even on the last page. The
///   query text is not parsed here: the path names the connection.
/// - Rate limit (https://linear.app/developers/rate-limiting): every answer carries the
///   requests' quota under names of its own, `X-RateLimit-Requests-Limit`,
///   `X-RateLimit-Requests-Remaining` and `X-RateLimit-Requests-Reset` (UTC epoch
///   **milliseconds**); over the limit the answer is 400 with the GraphQL error code
///   `RATELIMITED` (`extensions.statusCode: 429`) and the same headers. Linear's bucket
///   refills steadily; here it is the upstream's window, and the complexity quota is
///   left out.
/// - Token (https://linear.app/developers/graphql#authentication): `Authorization:
///   KEY` (a personal API key) or `Bearer TOKEN` (OAuth2); without a valid one, 400
///   `AUTHENTICATION_ERROR` as Linear answers it.
enum LinearImitation: Imitation {
    static let defaultPageSize = 50
    static let maximumPageSize = 250

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let body = try? JSONSerialization.jsonObject(with: Data(request.body.utf8)) as? [String: Any]
        guard request.method == "POST", let body, body["query"] is String else {
            return .answer(error("Must provide query string.", code: "GRAPHQL_VALIDATION_FAILED"))
        }
        let variables = body["variables"] as? [String: Any] ?? [:]
        var first = defaultPageSize
        if let value = variables["first"], !(value is NSNull) {
            guard let number = (value as? NSNumber)?.intValue, (1...maximumPageSize).contains(number) else {
                return .answer(
                    error("first must be between 1 and \(maximumPageSize)", code: "INVALID_INPUT"))
            }
            first = number
        }
        var offset = 0
        if let value = variables["after"], !(value is NSNull) {
            guard let cursor = value as? String, let id = id(in: cursor) else {
                return .answer(error("Invalid cursor", code: "INVALID_INPUT"))
            }
            offset = dataset.offset(of: id + 1)
        }
        let ids = dataset.ids(offset: offset, limit: first)
        let hasNext = offset + ids.count < dataset.liveCount
        let endCursor = ids.last.map { "\"\(cursor(for: $0))\"" } ?? "null"
        return .page(
            headers: [],
            body: self.body(
                #"{"data":{"\#(name)":{"nodes":"#, ids, of: dataset,
                #","pageInfo":{"hasNextPage":\#(hasNext),"endCursor":\#(endCursor)}}}}"#))
    }

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        [
            ("X-RateLimit-Requests-Limit", "\(quota.limit)"),
            ("X-RateLimit-Requests-Remaining", "\(quota.remaining)"),
            ("X-RateLimit-Requests-Reset", "\(resetEpochMillisecond(quota))"),
        ]
    }

    static let refusalStatus = 400

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        error(
            "Rate limit exceeded", code: "RATELIMITED", statusCode: 429,
            headers: quotaHeaders(quota))
    }

    /// The reset millisecond: a request at or after it is allowed.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        Date(timeIntervalSince1970: TimeInterval(resetEpochMillisecond(quota)) / 1000)
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"] else { return nil }
        return authorization.hasPrefix("Bearer ") ? String(authorization.dropFirst("Bearer ".count)) : authorization
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error("Authentication required, not authenticated", code: "AUTHENTICATION_ERROR", statusCode: 401)
    }

    /// The cursor after node `id`: opaque to clients, as Linear's are.
    static func cursor(for id: Int) -> String {
        base64("node:\(id)", urlSafe: true, padded: false)
    }

    private static func id(in cursor: String) -> Int? {
        guard let text = unbase64(cursor), text.hasPrefix("node:") else { return nil }
        return Int(text.dropFirst("node:".count))
    }

    /// `resetAt` as whole epoch milliseconds, rounded up.
    private static func resetEpochMillisecond(_ quota: RateLimitDecision) -> Int64 {
        Int64((quota.resetAt.timeIntervalSince1970 * 1000).rounded(.up))
    }

    /// Linear's GraphQL error, answered 400: `{"errors": [{"message", "extensions":
    /// {"code", "statusCode", "userPresentableMessage"}}]}`.
    private static func error(
        _ message: String, code: String, statusCode: Int = 400, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(
            status: 400,
            #"{"errors":[{"message":\#(Routes.quote(message)),"extensions":{"code":"\#(code)","#
                + #""statusCode":\#(statusCode),"userPresentableMessage":\#(Routes.quote(message))}}]}"#,
            headers: headers)
    }
}
