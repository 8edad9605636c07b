import DemoUpstream
import Foundation
import NIOCore

/// Stripe's list API: `GET /stripe/NAME?limit=&starting_after=ID&ending_before=ID`.
///
/// - Pagination (https://docs.stripe.com/api/pagination): `limit` defaults to 10 and
///   must be between 1 and 100; `starting_after` is the id of the last item seen and
///   `ending_before` the id of the first (only one of them); the answer is
///   `{"object": "list", "url": "/v1/NAME", "has_more", "data": [...]}`. Items come in the
///   collection's order (ids growing), where Stripe lists the newest first, and their ids
///   are the collection's numbers, where Stripe's are strings such as `cus_4QFJ…`.
/// - Errors (https://docs.stripe.com/api/errors): `{"error": {"type", "message", "param",
///   "code"}}`; 400 for a bad parameter.
/// - Rate limit (https://docs.stripe.com/rate-limits): 429 with code `rate_limit` and no
///   `Retry-After`, so no wait is logged; no quota headers.
/// - Token (https://docs.stripe.com/api/authentication): `Authorization: Bearer KEY`, or
///   the key as the Basic user name; 401 otherwise.
enum StripeImitation: Imitation {
    static let defaultPageSize = 10
    static let maximumPageSize = 100

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        let limitText = query["limit"] ?? "\(defaultPageSize)"
        guard let limit = Int(limitText) else {
            return .answer(error(400, "Invalid integer: \(limitText)", param: "limit"))
        }
        guard (1...maximumPageSize).contains(limit) else {
            let bound = limit < 1 ? "greater than or equal to 1" : "less than or equal to \(maximumPageSize)"
            return .answer(error(400, "This value must be \(bound) (it currently is '\(limit)').", param: "limit"))
        }
        if query["starting_after"] != nil && query["ending_before"] != nil {
            return .answer(
                error(400, "You may only specify one of these parameters: ending_before, starting_after."))
        }
        let offset: Int
        let count: Int
        let hasMore: Bool
        if let before = query["ending_before"] {
            guard let id = Int(before) else {
                return .answer(
                    error(400, "No such object: '\(before)'", param: "ending_before", code: "resource_missing"))
            }
            let end = dataset.offset(of: id)
            (offset, count, hasMore) = (max(0, end - limit), min(end, limit), end > limit)
        } else {
            let after = query["starting_after"]
            guard let id = Int(after ?? "0") else {
                return .answer(
                    error(400, "No such object: '\(after ?? "")'", param: "starting_after", code: "resource_missing"))
            }
            offset = dataset.offset(of: id + 1)
            count = limit
            hasMore = offset + limit < dataset.liveCount
        }
        let ids = dataset.ids(offset: offset, limit: count)
        let prefix = #"{"object":"list","url":"/v1/\#(name)","has_more":\#(hasMore),"data":"#
        return .page(headers: [], body: body(prefix, ids, of: dataset, "}"))
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        Routes.json(
            status: refusalStatus,
            #"{"error":{"code":"rate_limit","doc_url":"https://stripe.com/docs/error-codes/rate-limit","#
                + #""message":"Request rate limit exceeded. You can learn more about rate limits here "#
                + #"https://stripe.com/docs/rate-limits.","type":"invalid_request_error"}}"#)
    }

    /// Stripe tells no wait.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"] else { return nil }
        if authorization.hasPrefix("Bearer ") { return String(authorization.dropFirst("Bearer ".count)) }
        guard authorization.hasPrefix("Basic "),
            let credentials = unbase64(String(authorization.dropFirst("Basic ".count)))
        else { return nil }
        return String(credentials.prefix { $0 != ":" })
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        let message =
            token == nil
            ? "You did not provide an API key. You need to provide your API key in the Authorization header, "
                + "using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY')."
            : "Invalid API Key provided: \(String(token!.prefix(8)))****"
        return error(401, message)
    }

    private static func error(
        _ status: Int, _ message: String, param: String? = nil, code: String? = nil
    ) -> ResponsePlan.Outcome {
        var fields = [#""type":"invalid_request_error""#, #""message":\#(Routes.quote(message))"#]
        if let param { fields.append(#""param":"\#(param)""#) }
        if let code { fields.append(#""code":"\#(code)""#) }
        return Routes.json(status: status, #"{"error":{\#(fields.joined(separator: ","))}}"#)
    }
}
