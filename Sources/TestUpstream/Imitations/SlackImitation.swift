import DemoUpstream
import Foundation
import NIOCore

/// Slack's Web API, as `users.list`: `GET /slack/NAME?limit=&cursor=`.
///
/// - Pagination (https://docs.slack.dev/apis/web-api/pagination): `limit` (here 100 by
///   default and at most 1,000, the documented maximum; `users.list` itself sends
///   everything when no limit is given) and an opaque `cursor`; the answer is
///   `{"ok": true, "members": [...], "response_metadata": {"next_cursor": "…"}}`, with
///   `next_cursor` an empty string on the last page. A cursor is base64 of `user:ID`
///   like Slack's (`dXNlcjpVMDYxTkZUVDI=`).
/// - Errors: HTTP 200 with `{"ok": false, "error": "invalid_cursor"}` (or `not_authed`,
///   `invalid_auth` when a token is required:
///   https://docs.slack.dev/authentication/tokens, sent as `Authorization: Bearer`).
/// - Rate limit (https://docs.slack.dev/apis/web-api/rate-limits): 429 with
///   `Retry-After` in whole seconds and `{"ok": false, "error": "ratelimited"}`; no quota
///   headers.
enum SlackImitation: Imitation {
    static let defaultPageSize = 100
    static let maximumPageSize = 1000

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        let limit = min(max(query["limit"].flatMap(Int.init) ?? defaultPageSize, 1), maximumPageSize)
        var offset = 0
        if let cursor = query["cursor"], !cursor.isEmpty {
            guard let text = unbase64(cursor), text.hasPrefix("user:"), let id = Int(text.dropFirst(5)) else {
                return .answer(Routes.json(status: 200, #"{"ok":false,"error":"invalid_cursor"}"#))
            }
            offset = dataset.offset(of: id)
        }
        let ids = dataset.ids(offset: offset, limit: limit)
        let next = offset + ids.count < dataset.liveCount ? base64("user:\(ids.last! + 1)") : ""
        return .page(
            headers: [],
            body: body(
                #"{"ok":true,"members":"#, ids, of: dataset, #","response_metadata":{"next_cursor":"\#(next)"}}"#))
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        Routes.json(
            status: refusalStatus, #"{"ok":false,"error":"ratelimited"}"#,
            headers: [("Retry-After", "\(quota.waitSeconds)")])
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        afterRetryAfterSeconds(quota, answeredAt: answeredAt)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        Routes.json(status: 200, #"{"ok":false,"error":"\#(token == nil ? "not_authed" : "invalid_auth")"}"#)
    }
}
