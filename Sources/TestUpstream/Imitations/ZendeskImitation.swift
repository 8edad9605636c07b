import DemoUpstream
import Foundation
import NIOCore

/// Zendesk's cursor-based incremental export: `GET /zendesk/NAME?cursor=&per_page=` (where
/// Zendesk has `/api/v2/incremental/NAME/cursor.json?start_time=…`).
///
/// - Export (https://developer.zendesk.com/documentation/ticketing/managing-tickets/using-the-incremental-export-api,
///   https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/):
///   the first page has no `cursor` (a `start_time` is accepted and ignored: every item
///   is exported); up to `per_page` items (1,000 by default and at most); the answer is
///   `{"NAME": [...], "after_cursor", "after_url", "before_cursor": null, "before_url": null,
///   "end_of_stream"}`. `end_of_stream` is true on the last page, whose `after_cursor` and
///   `after_url` are still there (asking with them later returns what came since). A
///   cursor is base64 like Zendesk's (`MTU3NjYxMzUzOS4wfHw0Njd8`, `1576613539.0||467|`);
///   it holds the last id exported, so the export follows ids rather than update times:
///   a changed item is not exported again.
/// - Rate limit (https://developer.zendesk.com/api-reference/introduction/rate-limits,
///   https://developer.zendesk.com/documentation/api-basics/best-practices/best-practices-for-avoiding-rate-limiting):
///   when a limit is set, `x-rate-limit`, `x-rate-limit-remaining`, `ratelimit-limit`,
///   `ratelimit-remaining` and `ratelimit-reset` (seconds until the window resets) on
///   every answer; over it, 429 with `Retry-After` in whole seconds.
/// - Token (https://developer.zendesk.com/api-reference/introduction/security-and-auth/):
///   `Authorization: Bearer TOKEN`, or Basic `EMAIL/token:TOKEN`; 401 otherwise.
///
/// Zendesk's time-based export, at its own path, is
/// ``timeBasedExport(_:collection:dataset:origin:)``.
enum ZendeskImitation: Imitation {
    static let maximumPageSize = 1000

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        guard request.path.split(separator: "/").count == 2 else {
            return .answer(Routes.json(status: 404, #"{"error":"InvalidEndpoint","description":"Not found"}"#))
        }
        let query = Routes.parameters(request.query)
        let perPage = min(max(query["per_page"].flatMap(Int.init) ?? maximumPageSize, 1), maximumPageSize)
        var lastID = 0
        if let cursor = query["cursor"] {
            guard let id = id(in: cursor) else {
                return .answer(
                    Routes.json(
                        status: 400, #"{"error":"InvalidPaginationParameter","description":"cursor is invalid"}"#))
            }
            lastID = id
        }
        let offset = dataset.offset(of: lastID + 1)
        let ids = dataset.ids(offset: offset, limit: perPage)
        let endOfStream = offset + ids.count >= dataset.liveCount
        let after = base64(
            "\(Int(dataset.modified.timeIntervalSince1970)).0||\(ids.last ?? lastID)|", padded: false)
        let afterURL =
            "\(origin)/zendesk/\(name)?cursor=\(after)" + (query["per_page"] != nil ? "&per_page=\(perPage)" : "")
        return .page(
            headers: [],
            body: body(
                #"{"\#(name)":"#, ids, of: dataset,
                #","after_cursor":"\#(after)","after_url":"\#(afterURL)","before_cursor":null,"before_url":null,"#
                    + #""end_of_stream":\#(endOfStream)}"#))
    }

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        [
            ("x-rate-limit", "\(quota.limit)"), ("x-rate-limit-remaining", "\(quota.remaining)"),
            ("ratelimit-limit", "\(quota.limit)"), ("ratelimit-remaining", "\(quota.remaining)"),
            ("ratelimit-reset", "\(quota.waitSeconds)"),
        ]
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        Routes.json(
            status: refusalStatus,
            #"{"error":"APIRateLimitExceeded","description":"Number of allowed API requests per minute exceeded"}"#,
            headers: quotaHeaders(quota) + [("Retry-After", "\(quota.waitSeconds)")])
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        afterRetryAfterSeconds(quota, answeredAt: answeredAt)
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"] else { return nil }
        if authorization.hasPrefix("Bearer ") { return String(authorization.dropFirst("Bearer ".count)) }
        guard authorization.hasPrefix("Basic "),
            let credentials = unbase64(String(authorization.dropFirst("Basic ".count))),
            let separator = credentials.range(of: "/token:")
        else { return nil }
        return String(credentials[separator.upperBound...])
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        Routes.json(status: 401, #"{"error":"Couldn't authenticate you"}"#)
    }

    /// The last id exported, from a cursor.
    private static func id(in cursor: String) -> Int? {
        guard let text = unbase64(cursor), let separator = text.range(of: "||"), text.hasSuffix("|") else {
            return nil
        }
        return Int(text[separator.upperBound...].dropLast())
    }

    /// Zendesk's time-based incremental export, `GET /api/v2/incremental/NAME.json`
    /// (https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/):
    /// `start_time` (Unix seconds) is required; a page holds up to `per_page` (1,000)
    /// items updated at `start_time` or later, oldest first, deleted ones with
    /// `"status": "deleted"`; `end_time` is the last item's update time and `next_page`
    /// asks from there, so the items updated in that second come again (the duplicates
    /// Zendesk warns of); `end_of_stream` is true once a page holds fewer than
    /// `per_page`. Departs from Zendesk: `start_time` may be recent.
    static func timeBasedExport(
        _ request: SeenRequest, collection name: String, dataset: Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        let size = min(max(query["per_page"].flatMap(Int.init) ?? 1000, 1), 1000)
        guard let start = query["start_time"].flatMap(Int.init), start >= 0 else {
            return .answer(
                Routes.json(
                    status: 400, #"{"error":"InvalidValue","description":"start_time is required: a Unix time"}"#))
        }
        let since = Dataset.stamp(Date(timeIntervalSince1970: TimeInterval(start)))
        let changes = dataset.changes(since: since, limit: size)
        let end = changes.last.map { Int(Dataset.epoch.timeIntervalSince1970) + $0.stamp } ?? start
        var body = ByteBuffer()
        body.writeString(#"{"\#(name)":["#)
        for (index, change) in changes.enumerated() {
            if index > 0 { body.writeString(",") }
            body.writeString(dataset.item(change.id, stamp: change.stamp, deleted: change.deleted))
        }
        let next =
            "\(origin)/api/v2/incremental/\(name).json?start_time=\(end)"
            + (query["per_page"] != nil ? "&per_page=\(size)" : "")
        body.writeString(
            #"],"next_page":"\#(next)","count":\#(changes.count),"end_time":\#(end),"#
                + #""end_of_stream":\#(changes.count < size)}"#)
        return .page(headers: [], body: body)
    }
}
