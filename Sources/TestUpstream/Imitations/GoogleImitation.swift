import DemoUpstream
import Foundation
import NIOCore

/// A Google API list method (Calendar's `events.list` for its numbers):
/// `GET /google/NAME?maxResults=&pageToken=`.
///
/// - Pagination (https://developers.google.com/calendar/api/guides/pagination,
///   https://developers.google.com/calendar/api/v3/reference/events/list): `maxResults`
///   defaults to 250 and a larger one is cut to 2,500; the answer is
///   `{"kind": "sync#itemList", "items": [...], "nextPageToken": "…"}`, and the last page
///   has no `nextPageToken`. A token is opaque (URL-safe base64 without padding).
/// - Errors (https://developers.google.com/calendar/api/guides/errors):
///   `{"error": {"code", "message", "errors": [{"domain", "reason", "message"}], "status"}}`:
///   400 `invalid` for a bad `maxResults` or `pageToken`, 401 `authError` when a token is
///   required (`Authorization: Bearer`) and missing or wrong.
/// - Rate limit: 403 `userRateLimitExceeded` (domain `usageLimits`) without
///   `Retry-After`, so no wait is logged; no quota headers. (Google also answers 429
///   `rateLimitExceeded` for project-wide limits: inject it as a ``Fault``.)
enum GoogleImitation: Imitation {
    static let defaultPageSize = 250
    static let maximumPageSize = 2500

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        guard let maxResults = Int(query["maxResults"] ?? "\(defaultPageSize)"), maxResults >= 1 else {
            return .answer(error(400, "INVALID_ARGUMENT", domain: "global", reason: "invalid", "Invalid Value"))
        }
        var offset = 0
        if let token = query["pageToken"] {
            guard let text = unbase64(token), text.hasPrefix("next:"), let id = Int(text.dropFirst(5)) else {
                return .answer(
                    error(400, "INVALID_ARGUMENT", domain: "global", reason: "invalid", "Invalid pageToken value"))
            }
            offset = dataset.offset(of: id)
        }
        let ids = dataset.ids(offset: offset, limit: min(maxResults, maximumPageSize))
        var suffix = "}"
        if offset + ids.count < dataset.liveCount {
            suffix = #","nextPageToken":"\#(base64("next:\(ids.last! + 1)", urlSafe: true, padded: false))"}"#
        }
        return .page(headers: [], body: body(#"{"kind":"sync#itemList","items":"#, ids, of: dataset, suffix))
    }

    static let refusalStatus = 403

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        error(
            refusalStatus, "PERMISSION_DENIED", domain: "usageLimits", reason: "userRateLimitExceeded",
            "User Rate Limit Exceeded")
    }

    /// Google tells no wait.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(
            401, "UNAUTHENTICATED", domain: "global", reason: "authError",
            "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or "
                + "other valid authentication credential.")
    }

    private static func error(
        _ code: Int, _ status: String, domain: String, reason: String, _ message: String
    ) -> ResponsePlan.Outcome {
        let text = Routes.quote(message)
        return Routes.json(
            status: code,
            #"{"error":{"code":\#(code),"message":\#(text),"#
                + #""errors":[{"domain":"\#(domain)","reason":"\#(reason)","message":\#(text)}],"#
                + #""status":"\#(status)"}}"#)
    }
}
