import DemoUpstream
import Foundation
import NIOCore

/// CouchDB's changes feed: `GET /DB/_changes`, over the collection `DB`.
///
/// - Feed (https://docs.couchdb.org/en/stable/api/database/changes.html): `since` (`0` by
///   default, `now`, or a sequence this feed gave) lists the changes after it, oldest
///   first; `limit` caps the rows (none by default); `include_docs=true` adds each
///   document; `style` (`main_only` or `all_docs`) is accepted (a document here has one
///   leaf revision); `feed` other than `normal` is 400 here. The answer is `{"results":
///   [{"seq", "id", "changes": [{"rev"}], "doc"?, "deleted"?: true}], "last_seq",
///   "pending"}`: `last_seq` is the last row's `seq` (`since` itself when no row follows
///   it), and `pending` counts the changes left after the last row. Each document appears
///   once, at its latest change; a deleted one as `"deleted": true` with the document
///   `{"_id", "_rev", "_deleted": true}`.
/// - Sequences are opaque strings, as CouchDB 2 and later's are (`"12-g1AAAA…"`): a
///   number, then a base64 part that holds where the change is. One this feed did not
///   give is 400 `{"error": "bad_request", "reason": "Malformed sequence supplied in 'since'
///   parameter."}`.
/// - Documents: `{"_id": "doc-0001", "_rev": "R-HASH", …}` with the item's fields; a
///   change adds one to the revision's number.
/// - Token (https://docs.couchdb.org/en/stable/api/server/authn.html): `Authorization:
///   Bearer` (JWT) or Basic `USER:PASSWORD`; 401 `{"error": "unauthorized", …}` otherwise.
///   CouchDB has no rate limit of its own; one set here answers 429 `too_many_requests`.
enum CouchDBImitation: Imitation {
    static func collection(in path: String) -> String? {
        path.split(separator: "/").first.map(String.init)
    }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        guard request.method == "GET" else {
            return .answer(error(405, "method_not_allowed", "Only GET,POST,HEAD allowed"))
        }
        let query = Routes.parameters(request.query)
        if let feed = query["feed"], feed != "normal" {
            return .answer(error(400, "bad_request", "This imitation answers feed=normal only."))
        }
        if let style = query["style"], !["main_only", "all_docs"].contains(style) {
            return .answer(error(400, "bad_request", "Invalid style: \(style)"))
        }
        var limit = Int.max
        if let text = query["limit"] {
            guard let value = Int(text), value >= 0 else {
                return .answer(error(400, "query_parse_error", "Invalid value for integer: \"\(text)\""))
            }
            limit = value == 0 ? 1 : value
        }
        let all = dataset.changes(since: 0, limit: .max)
        var start = 0
        let since = query["since"] ?? "0"
        switch since {
        case "0":
            break
        case "now":
            start = all.count
        default:
            guard let position = position(in: since) else {
                return .answer(error(400, "bad_request", "Malformed sequence supplied in 'since' parameter."))
            }
            start = all.firstIndex { ($0.stamp, $0.id) > position } ?? all.count
        }
        let includeDocs = query["include_docs"] == "true"
        let rows = all.dropFirst(start).prefix(limit)
        let lastSeq =
            rows.last.map { seq($0.id, stamp: $0.stamp, dataset: dataset) }
            ?? (since == "now" ? latest(all, dataset) : since)
        let pending = all.count - start - rows.count
        let body =
            #"{"results":["#
            + rows.map { row($0.id, stamp: $0.stamp, deleted: $0.deleted, includeDocs: includeDocs, dataset: dataset) }
            .joined(separator: ",") + #"],"last_seq":\#(Routes.quote(lastSeq)),"pending":\#(pending)}"#
        return .page(headers: [], body: ByteBuffer(string: body))
    }

    /// The sequence of the latest change, or `"0"`.
    private static func latest(_ all: [(id: Int, stamp: Int, deleted: Bool)], _ dataset: Dataset) -> String {
        all.last.map { seq($0.id, stamp: $0.stamp, dataset: dataset) } ?? "0"
    }

    /// The sequence of a change: its number (the items made first, then one per later
    /// change), `-g1AAAA`, and base64 of where it is.
    static func seq(_ id: Int, stamp: Int, dataset: Dataset) -> String {
        let number = stamp <= 1_000_000 ? stamp : dataset.idCount + stamp - 1_000_000
        return "\(number)-g1AAAA" + base64("s\(stamp)i\(id)", urlSafe: true, padded: false)
    }

    /// Where a sequence this feed gave is: its change's stamp and id.
    private static func position(in seq: String) -> (Int, Int)? {
        guard let dash = seq.firstIndex(of: "-"), Int(seq[..<dash]) != nil else { return nil }
        let rest = seq[seq.index(after: dash)...]
        guard rest.hasPrefix("g1AAAA"), let text = unbase64(String(rest.dropFirst(6))),
            let match = text.wholeMatch(of: #/s(\d+)i(\d+)/#)
        else { return nil }
        return (Int(match.1)!, Int(match.2)!)
    }

    /// A document's id.
    static func documentID(_ id: Int) -> String {
        "doc-" + String(repeating: "0", count: max(0, 4 - String(id).count)) + String(id)
    }

    /// A revision: its number, and a hash of the document's id and that number.
    static func rev(_ id: Int, _ number: Int) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(id)/\(number)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let digits = String(hash, radix: 16)
        let half = String(repeating: "0", count: 16 - digits.count) + digits
        return "\(number)-\(half)\(String(half.reversed()))"
    }

    /// A row of the feed.
    static func row(_ id: Int, stamp: Int, deleted: Bool, includeDocs: Bool, dataset: Dataset) -> String {
        let number = dataset.revision(of: id) + (deleted ? 1 : 0)
        let revision = rev(id, number)
        var text =
            #"{"seq":"\#(seq(id, stamp: stamp, dataset: dataset))","id":"\#(documentID(id))","#
            + #""changes":[{"rev":"\#(revision)"}]"#
        if deleted { text += #","deleted":true"# }
        if includeDocs {
            let head = #"{"_id":"\#(documentID(id))","_rev":"\#(revision)""#
            text += #","doc":"# + (deleted ? head + #","_deleted":true}"# : head + "," + dataset.item(id).dropFirst())
        }
        return text + "}"
    }

    /// The rows of the live documents, with their documents, by document id: what a copy
    /// of the feed read with `include_docs=true` holds.
    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        return Dictionary(
            uniqueKeysWithValues: ids.map {
                (
                    documentID($0),
                    row($0, stamp: dataset.stamp(of: $0)!, deleted: false, includeDocs: true, dataset: dataset)
                )
            })
    }

    // MARK: Limits and tokens

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        error(refusalStatus, "too_many_requests", "You've exceeded your rate limit allowance. Please try again later.")
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func presentedToken(_ request: SeenRequest) -> String? {
        bearerOrBasicPassword(request)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(
            401, "unauthorized",
            token == nil ? "You are not authorized to access this db." : "Name or password is incorrect.")
    }

    /// CouchDB's error body, `{"error", "reason"}`.
    private static func error(_ status: Int, _ error: String, _ reason: String) -> ResponsePlan.Outcome {
        Routes.json(status: status, #"{"error":"\#(error)","reason":\#(Routes.quote(reason))}"#)
    }
}
