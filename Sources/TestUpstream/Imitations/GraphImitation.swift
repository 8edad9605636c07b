import DemoUpstream
import Foundation
import NIOCore

/// Microsoft Graph's delta query of users: `GET /v1.0/users/delta` over the collection
/// `graph-users`.
///
/// - Delta query (https://learn.microsoft.com/graph/delta-query-overview,
///   https://learn.microsoft.com/graph/delta-query-users,
///   https://learn.microsoft.com/graph/api/user-delta): the first request, without a
///   token, starts a round that lists every user as it is now (users deleted before it
///   are not listed). Each page is `{"@odata.context", "@odata.nextLink", "value": [...]}`;
///   the next page is at `@odata.nextLink` (`…/users/delta?$skiptoken=…`), and the last
///   page has `@odata.deltaLink` (`…/users/delta?$deltatoken=…`) instead, never both.
///   Asking at the delta link starts the next round: the users changed since the last
///   one, each whole (Graph promises at least the changed properties), and the users
///   deleted since, as `{"@odata.type": "#microsoft.graph.user", "id", "@removed":
///   {"reason": "changed"}}` for a soft delete (here the even ids: restorable for 30 days)
///   or `"deleted"` for a permanent one (the odd ids). `$deltatoken=latest` answers no
///   user and a delta link from now. Tokens are opaque; they hold the round's `$select`,
///   which is not repeated.
/// - `$select` (a comma list of the user's properties; an unknown one is 400
///   `Request_BadRequest`) picks the properties, `id` always among them; without it,
///   every property. Page size: `Prefer: odata.maxpagesize=N` (1 to 999, 100 by default),
///   answered with `Preference-Applied`.
/// - Synchronization reset (https://learn.microsoft.com/graph/delta-query-overview#synchronization-reset):
///   a token the service no longer knows (one issued before
///   ``TestUpstream/expireStateTokens(of:)``, or one it cannot read) is answered 410 with
///   a `Location` at the initial request, and `{"error": {"code": "syncStateNotFound",
///   "message": "The sync state generation is not found. The delta token is expired and
///   data must be synchronized again.", "innerError": {…}}}` (the code and message Graph
///   gives for an expired token of a directory resource).
/// - Throttling (https://learn.microsoft.com/graph/throttling): over the limit, 429 with
///   `Retry-After` in seconds and `{"error": {"code": "TooManyRequests", …}}`.
/// - Token: `Authorization: Bearer`; 401 `InvalidAuthenticationToken` otherwise.
enum GraphImitation: Imitation {
    static let usersCollection = "graph-users"
    static let defaultPageSize = 100
    static let maximumPageSize = 999
    static let properties = [
        "businessPhones", "displayName", "givenName", "jobTitle", "mail", "mobilePhone", "officeLocation",
        "preferredLanguage", "surname", "userPrincipalName", "id",
    ]

    static func collection(in path: String) -> String? { usersCollection }

    /// Where a round is: what a `$skiptoken` or `$deltatoken` holds.
    struct RoundState: Equatable {
        /// `skip` (a page of a round) or `delta` (the start of the next round).
        var kind: String
        /// The round lists the changes at this stamp or later.
        var since: Int
        /// The clock when the round started: the next round lists the changes after it.
        var upTo: Int
        /// Where the page starts among the round's changes.
        var offset: Int
        /// Whether this is the first round, which lists no deleted user.
        var initial: Bool
        /// When the token was issued (milliseconds since 1970).
        var issued: Int64
        /// The round's `$select`, or `""`.
        var select: String

        var token: String {
            // Graph's tokens look like long base64; so do these.
            base64(
                "\(kind)|\(since)|\(upTo)|\(offset)|\(initial ? 1 : 0)|\(issued)|\(select)", urlSafe: true,
                padded: false)
        }

        init(kind: String, since: Int, upTo: Int, offset: Int, initial: Bool, select: String, issued: Date = Date()) {
            (self.kind, self.since, self.upTo, self.offset, self.initial, self.select) =
                (kind, since, upTo, offset, initial, select)
            self.issued = Int64((issued.timeIntervalSince1970 * 1000).rounded(.up))
        }

        init?(token: String, kind: String) {
            guard let text = unbase64(token) else { return nil }
            let fields = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, fields[0] == kind, let since = Int(fields[1]), let upTo = Int(fields[2]),
                let offset = Int(fields[3]), let issued = Int64(fields[5])
            else { return nil }
            (self.kind, self.since, self.upTo, self.offset, self.initial, self.issued, self.select) =
                (kind, since, upTo, offset, fields[4] == "1", issued, fields[6])
        }
    }

    /// The state a request's `$skiptoken` or `$deltatoken` holds: `nil` when it has none,
    /// `.some(nil)` when it has one that is not Graph's.
    private static func state(of request: SeenRequest) -> RoundState?? {
        let query = Routes.parameters(request.query)
        if let token = query["$skiptoken"] { return .some(RoundState(token: token, kind: "skip")) }
        if let token = query["$deltatoken"], token != "latest" { return .some(RoundState(token: token, kind: "delta")) }
        return nil
    }

    static func staleState(_ request: SeenRequest, issuedBefore cutoff: Date, origin: String) -> ResponsePlan.Outcome? {
        guard case .some(let state) = state(of: request) else { return nil }
        guard let state, Double(state.issued) / 1000 >= cutoff.timeIntervalSince1970 else {
            return syncStateNotFound(origin: origin)
        }
        return nil
    }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        guard request.method == "GET", request.path == "/v1.0/users/delta" else {
            return .answer(
                error(
                    400, "BadRequest",
                    "Resource not found for the segment '\(request.path.split(separator: "/").last ?? "")'."))
        }
        let query = Routes.parameters(request.query)
        var round: RoundState
        switch state(of: request) {
        case .some(.some(let state)):
            round = state
            if state.kind == "delta" {
                round = RoundState(
                    kind: "skip", since: state.since, upTo: dataset.clock, offset: 0, initial: false,
                    select: state.select)
            }
        case .some(.none):
            return .answer(syncStateNotFound(origin: origin))
        case .none:
            let select = query["$select"] ?? ""
            let unknown = select.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                .first { !properties.contains($0) }
            if let unknown {
                return .answer(
                    error(
                        400, "Request_BadRequest",
                        "Could not find a property named '\(unknown)' on type 'microsoft.graph.user'."))
            }
            if query["$deltatoken"] == "latest" {
                let next = RoundState(
                    kind: "delta", since: dataset.clock + 1, upTo: dataset.clock, offset: 0, initial: false,
                    select: select)
                return .page(
                    headers: [],
                    body: ByteBuffer(
                        string: #"{"@odata.context":"\#(context(origin, select))","#
                            + #""@odata.deltaLink":"\#(origin)/v1.0/users/delta?$deltatoken=\#(next.token)","value":[]}"#
                    ))
            }
            round = RoundState(kind: "skip", since: 0, upTo: dataset.clock, offset: 0, initial: true, select: select)
        }
        var size = defaultPageSize
        var headers: [(String, String)] = []
        if let prefer = request.headers["prefer"],
            let match = prefer.firstMatch(of: #/odata\.maxpagesize=(\d+)/#), let asked = Int(match.1)
        {
            size = min(max(asked, 1), maximumPageSize)
            headers.append(("Preference-Applied", "odata.maxpagesize=\(size)"))
        }
        var changes = dataset.changes(since: round.since, limit: .max)
        if round.initial { changes.removeAll { $0.deleted } }
        let page = changes.dropFirst(round.offset).prefix(size)
        let selected = selectedProperties(round.select)
        let values = page.map { change in
            change.deleted ? removed(change.id) : user(change.id, properties: selected, dataset: dataset)
        }
        let link: String
        if round.offset + page.count < changes.count {
            let next = RoundState(
                kind: "skip", since: round.since, upTo: round.upTo, offset: round.offset + page.count,
                initial: round.initial, select: round.select)
            link = #""@odata.nextLink":"\#(origin)/v1.0/users/delta?$skiptoken=\#(next.token)""#
        } else {
            let next = RoundState(
                kind: "delta", since: round.upTo + 1, upTo: round.upTo, offset: 0, initial: false, select: round.select)
            link = #""@odata.deltaLink":"\#(origin)/v1.0/users/delta?$deltatoken=\#(next.token)""#
        }
        return .page(
            headers: headers,
            body: ByteBuffer(
                string: #"{"@odata.context":"\#(context(origin, round.select))",\#(link),"value":["#
                    + values.joined(separator: ",") + "]}"))
    }

    private static func context(_ origin: String, _ select: String) -> String {
        "\(origin)/v1.0/$metadata#users" + (select.isEmpty ? "" : "(\(select))")
    }

    private static func selectedProperties(_ select: String) -> [String] {
        let names = Set(select.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        return names.isEmpty ? properties : properties.filter { names.contains($0) || $0 == "id" }
    }

    /// A user's id: a GUID whose last group is the item's id.
    static func userID(_ id: Int) -> String {
        let digits = String(id, radix: 16)
        return "6e3b2f1a-0c4d-4e5f-8a9b-" + String(repeating: "0", count: max(0, 12 - digits.count)) + digits
    }

    /// User `id` with `properties`, in Graph's order.
    static func user(_ id: Int, properties: [String], dataset: Dataset) -> String {
        let revision = dataset.revision(of: id)
        let values: [String: String] = [
            "businessPhones": id % 2 == 0 ? #"["+1 425 555 \#(1000 + id % 9000)"]"# : "[]",
            "displayName": Routes.quote("User \(id)"),
            "givenName": Routes.quote("User"),
            "jobTitle": revision == 1 ? "null" : Routes.quote("Revision \(revision)"),
            "mail": Routes.quote("user\(id)@contoso.com"),
            "mobilePhone": "null",
            "officeLocation": id % 5 == 0 ? Routes.quote("\(id)/\(id % 7)") : "null",
            "preferredLanguage": Routes.quote("en-US"),
            "surname": Routes.quote("\(id)"),
            "userPrincipalName": Routes.quote("user\(id)@contoso.com"),
            "id": Routes.quote(userID(id)),
        ]
        return "{" + properties.map { "\(Routes.quote($0)):\(values[$0]!)" }.joined(separator: ",") + "}"
    }

    /// A deleted user as a delta round tells it: soft-deleted (`changed`) for even ids,
    /// permanently (`deleted`) for odd ones.
    static func removed(_ id: Int) -> String {
        let reason = id % 2 == 0 ? "changed" : "deleted"
        return ##"{"@odata.type":"#microsoft.graph.user","id":"\##(userID(id))","@removed":{"reason":"\##(reason)"}}"##
    }

    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        return Dictionary(
            uniqueKeysWithValues: ids.map { (userID($0), user($0, properties: properties, dataset: dataset)) })
    }

    static func syncStateNotFound(origin: String) -> ResponsePlan.Outcome {
        error(
            410, "syncStateNotFound",
            "The sync state generation is not found. The delta token is expired and data must be synchronized again.",
            headers: [("Location", "\(origin)/v1.0/users/delta")])
    }

    // MARK: Limits and tokens

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        Routes.json(
            status: refusalStatus,
            #"{"error":{"code":"TooManyRequests","innerError":{"code":"429","date":"\#(Dataset.time(0))","#
                + #""message":"Please retry after","request-id":"94fb3b52-452a-4535-a601-69e0a90e3aa2","status":"429"},"#
                + #""message":"Please retry again later."}}"#,
            headers: [("Retry-After", "\(quota.waitSeconds)")])
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        afterRetryAfterSeconds(quota, answeredAt: answeredAt)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(
            401, "InvalidAuthenticationToken",
            token == nil ? "Access token is empty." : "IDX14100: JWT is not well formed, there are no dots (.).")
    }

    /// Graph's error body, `{"error": {"code", "message", "innerError"}}`.
    private static func error(
        _ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(
            status: status,
            #"{"error":{"code":"\#(code)","message":\#(Routes.quote(message)),"innerError":{"#
                + #""date":"\#(Dataset.time(0))","request-id":"2e1c3d4b-5a6f-4b7c-8d9e-0f1a2b3c4d5e","#
                + #""client-request-id":"2e1c3d4b-5a6f-4b7c-8d9e-0f1a2b3c4d5e"}}}"#,
            headers: headers)
    }
}
