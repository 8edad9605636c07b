import DemoUpstream
import Foundation
import NIOCore

/// Shopify's REST Admin API: `GET /shopify/NAME.json?limit=&page_info=` (where Shopify
/// has `/admin/api/VERSION/NAME.json`).
///
/// - Pagination (https://shopify.dev/docs/api/admin-rest/usage/pagination): `limit`
///   defaults to 50 and is at most 250; the answer is `{"NAME": [...]}`; `Link` holds
///   absolute URLs with an opaque `page_info` and the `limit`, `rel="previous"` and
///   `rel="next"`, and is left out when there is no other page. `page_info` is base64 of
///   `{"direction": "next" or "prev", "last_id": ID}`, like Shopify's; a bad one is 400.
/// - Rate limit (https://shopify.dev/docs/api/admin-rest/usage/rate-limits): a leaky
///   bucket of 40 leaking 2 a second by default (``UpstreamRateLimit/shopify``);
///   `X-Shopify-Shop-Api-Call-Limit: USED/SIZE` on every answer; over the limit, 429 with
///   `Retry-After` in decimal seconds ("2.0" after a full bucket at 2 a second: the time
///   until one request has leaked, rounded up to a tenth) and
///   `{"errors": "Exceeded 2 calls per second for api client. …"}`.
/// - Token (https://shopify.dev/docs/api/admin-rest#authentication):
///   `X-Shopify-Access-Token`; 401 otherwise.
enum ShopifyImitation: Imitation {
    static let defaultPageSize = 50
    static let maximumPageSize = 250

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let parts = request.path.split(separator: "/")
        guard parts.count == 2, parts[1].hasSuffix(".json") else {
            return .answer(Routes.json(status: 404, #"{"errors":"Not Found"}"#))
        }
        let query = Routes.parameters(request.query)
        let limit = min(max(query["limit"].flatMap(Int.init) ?? defaultPageSize, 1), maximumPageSize)
        var (offset, count) = (0, limit)
        if let pageInfo = query["page_info"] {
            guard let (direction, id) = decode(pageInfo) else {
                return .answer(Routes.json(status: 400, #"{"errors":{"page_info":"Invalid value."}}"#))
            }
            if direction == "next" {
                offset = dataset.offset(of: id + 1)
            } else {
                let end = dataset.offset(of: id)
                (offset, count) = (max(0, end - limit), min(end, limit))
            }
        }
        let ids = dataset.ids(offset: offset, limit: count)
        func link(_ direction: String, _ id: Int, _ relation: String) -> String {
            let pageInfo = base64(
                #"{"direction":"\#(direction)","last_id":\#(id)}"#, urlSafe: true, padded: false)
            return "<\(origin)/shopify/\(name).json?limit=\(limit)&page_info=\(pageInfo)>; rel=\"\(relation)\""
        }
        var links: [String] = []
        if offset > 0, let first = ids.first { links.append(link("prev", first, "previous")) }
        if offset + ids.count < dataset.liveCount, let last = ids.last { links.append(link("next", last, "next")) }
        let headers = links.isEmpty ? [] : [("Link", links.joined(separator: ", "))]
        return .page(headers: headers, body: body(#"{"\#(name)":"#, ids, of: dataset, "}"))
    }

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        [("X-Shopify-Shop-Api-Call-Limit", "\(quota.used)/\(quota.limit)")]
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        Routes.json(
            status: refusalStatus,
            #"{"errors":"Exceeded 2 calls per second for api client. "#
                + #"Reduce request rates to resume uninterrupted service."}"#,
            headers: quotaHeaders(quota) + [("Retry-After", String(format: "%.1f", retryAfter(quota)))])
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        answeredAt.addingTimeInterval(retryAfter(quota))
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        request.headers["x-shopify-access-token"]
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        Routes.json(
            status: 401, #"{"errors":"[API] Invalid API key or access token (unrecognized login or wrong password)"}"#)
    }

    /// The wait in seconds rounded up to a tenth, so that waiting what `Retry-After` says
    /// is never too early.
    private static func retryAfter(_ quota: RateLimitDecision) -> Double {
        max(0.1, (quota.wait * 10).rounded(.up) / 10)
    }

    private static func decode(_ pageInfo: String) -> (String, Int)? {
        guard let text = unbase64(pageInfo),
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let direction = object["direction"] as? String, ["next", "prev"].contains(direction),
            let id = object["last_id"] as? Int
        else { return nil }
        return (direction, id)
    }
}
