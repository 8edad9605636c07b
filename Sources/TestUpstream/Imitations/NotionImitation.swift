import DemoUpstream
import Foundation
import NIOCore

/// Notion's database query: `POST /notion/NAME/query` with `{"page_size", "start_cursor"}`.
///
/// - Query (https://developers.notion.com/reference/post-database-query) and pagination
///   (https://developers.notion.com/reference/intro#pagination): `page_size` (default
///   100, at most 100) and `start_cursor` go in the JSON body, both optional; the answer
///   is `{"object": "list", "results": [...], "next_cursor": "…" or null, "has_more",
///   "type": "page_or_database", "page_or_database": {}}`. A cursor is a UUID, as Notion's
///   are (the id of the next page).
/// - Errors (https://developers.notion.com/reference/status-codes):
///   `{"object": "error", "status", "code", "message"}`: 400 `invalid_request_url` for
///   another method or path, `invalid_json` for a body that is not a JSON object,
///   `validation_error` for a bad `page_size` or `start_cursor`; 401 `unauthorized` when
///   a token is required (`Authorization: Bearer`) and missing or wrong. The
///   `Notion-Version` header is not required here.
/// - Rate limit (https://developers.notion.com/reference/request-limits): 429
///   `rate_limited` with `Retry-After` in whole seconds; no quota headers.
enum NotionImitation: Imitation {
    static let defaultPageSize = 100
    static let maximumPageSize = 100

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let parts = request.path.split(separator: "/")
        guard request.method == "POST", parts.count == 3, parts[2] == "query" else {
            return .answer(error(400, "invalid_request_url", "Invalid request URL."))
        }
        let text = request.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard let fields = text.isEmpty ? [:] : try? JSONDecoder().decode([String: Field].self, from: Data(text.utf8))
        else {
            return .answer(error(400, "invalid_json", "Error parsing JSON body."))
        }
        var pageSize = defaultPageSize
        switch fields["page_size"] ?? .null {
        case .null:
            break
        case .integer(let size) where size < 1:
            return .answer(invalid("body.page_size should be ≥ `1`, instead was `\(size)`."))
        case .integer(let size) where size > maximumPageSize:
            return .answer(invalid("body.page_size should be ≤ `\(maximumPageSize)`, instead was `\(size)`."))
        case .integer(let size):
            pageSize = size
        case let other:
            return .answer(invalid("body.page_size should be a number, instead was `\(other)`."))
        }
        var offset = 0
        switch fields["start_cursor"] ?? .null {
        case .null:
            break
        case .string(let cursor) where id(in: cursor) != nil:
            offset = dataset.offset(of: id(in: cursor)!)
        case let other:
            return .answer(invalid("body.start_cursor should be a valid uuid, instead was `\(other)`."))
        }
        let ids = dataset.ids(offset: offset, limit: pageSize)
        let hasMore = offset + ids.count < dataset.liveCount
        let next = hasMore ? "\"\(cursor(for: ids.last! + 1))\"" : "null"
        return .page(
            headers: [],
            body: body(
                #"{"object":"list","results":"#, ids, of: dataset,
                #","next_cursor":\#(next),"has_more":\#(hasMore),"type":"page_or_database","page_or_database":{}}"#))
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        error(
            refusalStatus, "rate_limited", "You have been rate limited. Please try again in a few minutes.",
            headers: [("Retry-After", "\(quota.waitSeconds)")])
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        afterRetryAfterSeconds(quota, answeredAt: answeredAt)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(401, "unauthorized", "API token is invalid.")
    }

    /// A member of the request body, as far as validation needs to know.
    private enum Field: Decodable, CustomStringConvertible {
        case null, integer(Int), string(String), other

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let integer = try? container.decode(Int.self) {
                self = .integer(integer)
            } else if let string = try? container.decode(String.self) {
                self = .string(string)
            } else {
                self = .other
            }
        }

        var description: String {
            switch self {
            case .null: "null"
            case .integer(let integer): "\(integer)"
            case .string(let string): Routes.quote(string)
            case .other: "a value of another type"
            }
        }
    }

    /// The cursor that starts at id `id`: a version 4 UUID whose last group is the id.
    static func cursor(for id: Int) -> String {
        let digits = String(id, radix: 16)
        return "00000000-0000-4000-8000-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    private static func id(in cursor: String) -> Int? {
        let prefix = "00000000-0000-4000-8000-"
        guard cursor.count == 36, cursor.lowercased().hasPrefix(prefix) else { return nil }
        return Int(cursor.dropFirst(prefix.count), radix: 16)
    }

    private static func invalid(_ message: String) -> ResponsePlan.Outcome {
        error(400, "validation_error", "body failed validation: " + message)
    }

    private static func error(
        _ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(
            status: status,
            #"{"object":"error","status":\#(status),"code":"\#(code)","message":\#(Routes.quote(message))}"#,
            headers: headers)
    }
}
