import DemoUpstream
import Foundation
import NIOCore

/// Mastodon's account statuses, `GET /api/v1/accounts/ID/statuses`
/// (docs.joinmastodon.org/methods/accounts/#statuses): the statuses of an account,
/// newest first, `limit` of them (20 unless asked, at most 40), each with an ID that
/// is a snowflake of 18 digits, as a string (`"113518922052419301"`). `max_id` asks
/// for older ones, `since_id` for newer ones (the newest first), `min_id` for the
/// ones immediately newer (the oldest of them first, still served newest first); the
/// `Link` header names `next` (older, `max_id`) and `prev` (newer, `min_id`).
///
/// The IDs are of collection `statuses` (its size is the account's count): item
/// `n` has ID ``firstID`` + `n` × 65,536, `created_at` a time of 2024. The
/// departures: no account lookup (every ID names the same account), no
/// authentication, no other parameters (`exclude_reblogs`, `tagged`, …).
enum MastodonImitation {
    /// The ID of the first status: of 2024-11-24 as a Mastodon snowflake
    /// (milliseconds since 1970, shifted 16 bits, plus a sequence).
    static let firstID: Int64 = 113_518_922_052_419_301

    /// Whether `path` is an account's statuses.
    static func matches(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        return parts.count == 5 && parts[0] == "api" && parts[1] == "v1" && parts[2] == "accounts"
            && parts[4] == "statuses"
    }

    /// The ID of status `n` (1...count).
    static func id(_ n: Int) -> Int64 { firstID + Int64(n - 1) * 65_536 }

    /// The page `request` asks for, of `count` statuses.
    static func page(_ request: SeenRequest, count: Int, origin: String) -> ResponsePlan.Outcome {
        let query = Routes.parameters(request.query)
        // IDs are compared as numbers of any size; one that is no number bounds nothing.
        func bound(_ name: String) -> Decimal? { query[name].flatMap { Decimal(string: $0) } }
        let limit = min(max(query["limit"].flatMap(Int.init) ?? 20, 1), 40)
        var numbers = count > 0 ? Array((1...count).reversed()) : []
        if let max = bound("max_id") { numbers = numbers.filter { Decimal(id($0)) < max } }
        if let since = bound("since_id") { numbers = numbers.filter { Decimal(id($0)) > since } }
        if let min = bound("min_id") {
            numbers = Array(numbers.filter { Decimal(id($0)) > min }.suffix(limit))
        }
        let shown = Array(numbers.prefix(limit))
        let statuses = shown.map { n in
            let created = Date(timeIntervalSince1970: 1_732_442_400 + Double(n) * 60)
            return #"{"id":"\#(id(n))","created_at":"\#(Self.iso(created))","content":"<p>status \#(n)</p>","#
                + #""visibility":"public"}"#
        }
        var headers = [("Content-Type", "application/json; charset=utf-8")]
        if let newest = shown.first, let oldest = shown.last {
            let base = origin + request.path
            headers.append(
                ("Link", #"<\#(base)?max_id=\#(id(oldest))>; rel="next", <\#(base)?min_id=\#(id(newest))>; rel="prev""#)
            )
        }
        return .answer(
            status: 200, headers: headers, body: ByteBuffer(string: "[" + statuses.joined(separator: ",") + "]"))
    }

    private static func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
