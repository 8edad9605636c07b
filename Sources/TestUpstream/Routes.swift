import Foundation
import NIOCore

/// The upstream's API: one collection served in every pagination style of
/// docs/configuration.md#pagination, and imitations of the APIs that users sync from.
///
/// | path | style | body |
/// | --- | --- | --- |
/// | `/page/NAME?page=&per_page=` | page | `{"data": [...], "page", "per_page", "total"}` |
/// | `/offset/NAME?offset=&limit=` | offset | `{"items": [...], "offset", "limit", "total"}` |
/// | `/cursor/NAME?cursor=&limit=` | cursor | `{"items": [...], "next_cursor": "c200" or null}` |
/// | `/link/NAME?page=&per_page=` | link | `[...]`, with `Link: <…>; rel="next"` |
/// | `/next/NAME?page=&per_page=` | nextUrl | `{"results": [...], "next": "http://…" or null}` |
/// | `/all/NAME` | none | `[...]` |
/// | `/one/NAME/ID` | none | one item |
/// | `/incremental/NAME?updated_since=ISO&page=&per_page=` | page | `{"data": [...], "page", "per_page"}`: the items changed at `updated_since` or later, oldest change first, each with `updated_at`; removed ones as tombstones (`"deleted": true`, `"status": "deleted"`) |
/// | `/api/v2/incremental/NAME.json?start_time=UNIX&per_page=` | nextUrl | Zendesk's time-based incremental export: `{"NAME": [...], "next_page", "count", "end_time", "end_of_stream"}` (below) |
/// | `/echo` | none | the request itself: `{"id", "method", "query", "headers", "body"}` |
/// | `/redirect?to=URL&status=302` | | a redirect to `URL` (to itself when `to` is absent) |
/// | `POST /oauth/token` | | an OAuth2 token endpoint, once ``TestUpstream/requireOAuth2(_:)`` sets one (``OAuth2Server``); the routes above then want its tokens |
///
/// The imitations (``ImitatedAPI``) serve the same collections in each API's envelope and
/// pagination, with its page sizes (the numbers: default and most), its error bodies,
/// and, when ``TestUpstream/requireToken(_:for:)`` asks for one, its 401:
///
/// | path | imitates | body |
/// | --- | --- | --- |
/// | `GET /github/NAME?per_page=&page=` | GitHub REST (30, 100) | `[...]`; `Link` with `prev`, `next`, `last`, `first` (absolute); `x-ratelimit-*` |
/// | `GET /stripe/NAME?limit=&starting_after=ID&ending_before=ID` | Stripe list (10, 1–100) | `{"object": "list", "url": "/v1/NAME", "has_more", "data": [...]}` |
/// | `GET /slack/NAME?limit=&cursor=` | Slack `users.list` (100, 1000) | `{"ok": true, "members": [...], "response_metadata": {"next_cursor": "…" or ""}}` |
/// | `POST /notion/NAME/query` `{"page_size", "start_cursor"}` | Notion database query (100, 100) | `{"object": "list", "results": [...], "next_cursor": "…" or null, "has_more", "type": "page_or_database", "page_or_database": {}}` |
/// | `GET /google/NAME?maxResults=&pageToken=` | Google Calendar-style list (250, 2500) | `{"kind": "sync#itemList", "items": [...], "nextPageToken": "…"}`, no token on the last page |
/// | `GET /shopify/NAME.json?limit=&page_info=` | Shopify REST Admin (50, 250) | `{"NAME": [...]}`; `Link` with `previous`, `next`; `X-Shopify-Shop-Api-Call-Limit` |
/// | `GET /zendesk/NAME?cursor=&per_page=` | Zendesk cursor incremental export (1000, 1000) | `{"NAME": [...], "after_cursor", "after_url", "before_cursor": null, "before_url": null, "end_of_stream"}` |
/// | `GET /salesforce/NAME/query`, then `nextRecordsUrl` | Salesforce query (`Sforce-Query-Options: batchSize=N`, 2000, 2000) | `{"totalSize", "done", "nextRecordsUrl": "/salesforce/NAME/query/LOCATOR-OFFSET", "records": [...]}` |
///
/// Each imitation answers its rate limit (``UpstreamRateLimit``, set with
/// ``TestUpstream/setRateLimit(_:for:)``; GitHub and Shopify have one from the start) its
/// API's way, and ``RateLimitLog`` records the wait it told:
///
/// | API | over the limit | wait logged | quota headers on every answer |
/// | --- | --- | --- | --- |
/// | GitHub | 403, `{"message": "API rate limit exceeded for …"}` | until `x-ratelimit-reset` | `x-ratelimit-limit`, `-remaining`, `-used`, `-reset`, `-resource` (a 304 does not count) |
/// | Stripe | 429, `{"error": {"code": "rate_limit", …}}` | none told | none |
/// | Slack | 429, `Retry-After: N`, `{"ok": false, "error": "ratelimited"}` | `Retry-After` | none |
/// | Notion | 429, `Retry-After: N`, `{"object": "error", "code": "rate_limited", …}` | `Retry-After` | none |
/// | Google | 403, `userRateLimitExceeded` | none told | none |
/// | Shopify | 429, `Retry-After: 2.0`, `{"errors": "Exceeded 2 calls per second …"}` | `Retry-After` | `X-Shopify-Shop-Api-Call-Limit: USED/SIZE` |
/// | Zendesk | 429, `Retry-After: N`, `ratelimit-remaining: 0` | `Retry-After` | `ratelimit-limit`, `-remaining`, `-reset` (seconds), `x-rate-limit`, `x-rate-limit-remaining` |
/// | Salesforce | 403, `REQUEST_LIMIT_EXCEEDED` | none told | `Sforce-Limit-Info: api-usage=USED/LIMIT` |
///
/// An injected ``Fault`` answering 403, 429 or 503 with a `retryAfter` is logged too.
///
/// Every collection page (generic or imitated) carries a strong `ETag`, a hash of its
/// body, so that a change on one page changes that page's `ETag` only, and the
/// collection's `Last-Modified`. A matching `If-None-Match` (or, without it, an
/// `If-Modified-Since` no earlier than `Last-Modified`) is answered 304. Each imitation's
/// file tells where its conventions are documented, and how it departs from them.
enum Routes {
    static let defaultPageSize = 100

    /// What a route answers, before validators.
    enum Reply {
        /// A page of a collection, answered 200 with `ETag` and `Last-Modified`, or 304.
        case page(headers: [(String, String)], body: ByteBuffer)
        /// Anything else (an error, a redirect, the echo), sent as it is.
        case answer(ResponsePlan.Outcome)
    }

    static func answer(_ request: SeenRequest, dataset: Dataset?, origin: String) -> ResponsePlan.Outcome {
        let reply: Reply
        if let api = ImitatedAPI(path: request.path) {
            guard var dataset else { return json(status: 404, #"{"error":"no such collection"}"#) }
            reply = api.imitation.reply(
                to: request, collection: collectionName(in: request.path), dataset: &dataset, origin: origin)
        } else {
            reply = generic(request, dataset: dataset, origin: origin)
        }
        switch reply {
        case .answer(let outcome):
            return outcome
        case .page(let headers, let body):
            return validated(headers: headers, body: body, modified: dataset?.modified ?? Date(), request: request)
        }
    }

    /// The collection a path names: its second component (`/page/NAME`,
    /// `/salesforce/NAME/query/…`), without Shopify's `.json`.
    static func collectionName(in path: String) -> String {
        let parts = path.split(separator: "/")
        if parts.count == 4, parts[0] == "api", parts[2] == "incremental" { return String(parts[3].dropLast(5)) }
        guard parts.count >= 2 else { return "" }
        let name = String(parts[1])
        return parts[0] == "shopify" && name.hasSuffix(".json") ? String(name.dropLast(5)) : name
    }

    /// A page with its validators, or 304 when the request's validators match.
    private static func validated(
        headers: [(String, String)], body: ByteBuffer, modified: Date, request: SeenRequest
    ) -> ResponsePlan.Outcome {
        let etag = "\"\(hash(body))\""
        let lastModified = httpDate(modified)
        let validators = [("ETag", etag), ("Last-Modified", lastModified)]
        let notModified: Bool
        if let ifNoneMatch = request.headers["if-none-match"] {
            notModified = ifNoneMatch.split(separator: ",").contains {
                let tag = $0.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == etag || tag == "W/" + etag
            }
        } else if let ifModifiedSince = request.headers["if-modified-since"] {
            if let since = parseHTTPDate(ifModifiedSince) {
                notModified = modified.timeIntervalSince1970.rounded(.down) <= since.timeIntervalSince1970
            } else {
                notModified = ifModifiedSince == lastModified
            }
        } else {
            notModified = false
        }
        if notModified { return .answer(status: 304, headers: validators, body: ByteBuffer()) }
        return .answer(status: 200, headers: jsonHeaders + validators + headers, body: body)
    }

    /// The generic routes of the first table.
    private static func generic(_ request: SeenRequest, dataset: Dataset?, origin: String) -> Reply {
        let parts = request.path.split(separator: "/").map(String.init)
        if parts == ["echo"] { return .answer(echo(request)) }
        if parts == ["redirect"] {
            let query = parameters(request.query)
            let status = query["status"].flatMap(Int.init) ?? 302
            let itself = request.path + (request.query.isEmpty ? "" : "?" + request.query)
            return .answer(.answer(status: status, headers: [("Location", query["to"] ?? itself)], body: ByteBuffer()))
        }
        if parts.count == 4, parts[0] == "api", parts[2] == "incremental", parts[3].hasSuffix(".json") {
            guard let dataset else { return .answer(json(status: 404, #"{"error":"InvalidEndpoint"}"#)) }
            return zendeskExport(
                request, collection: collectionName(in: request.path), dataset: dataset, origin: origin)
        }
        guard parts.count >= 2, let style = Style(rawValue: parts[0]) else {
            return .answer(json(status: 404, #"{"error":"no such path; try /page/items"}"#))
        }
        guard var dataset else { return .answer(json(status: 404, #"{"error":"no such collection"}"#)) }
        let query = parameters(request.query)
        let total = dataset.liveCount
        switch style {
        case .page, .link, .next:
            let page = query["page"].flatMap(Int.init) ?? 1
            let size = query["per_page"].flatMap(Int.init) ?? defaultPageSize
            guard page >= 1, (1...10_000).contains(size) else {
                return .answer(
                    json(status: 400, #"{"error":"page must be at least 1 and per_page between 1 and 10000"}"#))
            }
            let ids = dataset.ids(offset: (page - 1) * size, limit: size)
            let hasMore = page * size < total
            let nextURL = "\(origin)/\(style.rawValue)/\(parts[1])?page=\(page + 1)&per_page=\(size)"
            var body = ByteBuffer()
            switch style {
            case .page:
                body.writeString(#"{"data":"#)
                writeItems(ids, of: dataset, to: &body)
                body.writeString(#","page":\#(page),"per_page":\#(size),"total":\#(total)}"#)
                return .page(headers: [], body: body)
            case .link:
                writeItems(ids, of: dataset, to: &body)
                return .page(headers: hasMore ? [("Link", "<\(nextURL)>; rel=\"next\"")] : [], body: body)
            default:
                body.writeString(#"{"results":"#)
                writeItems(ids, of: dataset, to: &body)
                body.writeString(#","next":\#(hasMore ? "\"\(nextURL)\"" : "null")}"#)
                return .page(headers: [], body: body)
            }
        case .offset, .cursor:
            let limit = query["limit"].flatMap(Int.init) ?? defaultPageSize
            let offset: Int?
            if style == .offset {
                offset = query["offset"].map { Int($0) } ?? 0
            } else {
                offset = query["cursor"].map { $0.hasPrefix("c") ? Int($0.dropFirst()) : nil } ?? 0
            }
            guard let offset, offset >= 0, (1...10_000).contains(limit) else {
                return .answer(json(status: 400, #"{"error":"bad offset, cursor or limit"}"#))
            }
            let ids = dataset.ids(offset: offset, limit: limit)
            var body = ByteBuffer()
            body.writeString(#"{"items":"#)
            writeItems(ids, of: dataset, to: &body)
            if style == .offset {
                body.writeString(#","offset":\#(offset),"limit":\#(limit),"total":\#(total)}"#)
            } else {
                let next = offset + ids.count < total ? "\"c\(offset + ids.count)\"" : "null"
                body.writeString(#","next_cursor":\#(next)}"#)
            }
            return .page(headers: [], body: body)
        case .incremental:
            let page = query["page"].flatMap(Int.init) ?? 1
            let size = query["per_page"].flatMap(Int.init) ?? defaultPageSize
            let since = query["updated_since"].map { ISO8601DateFormatter().date(from: $0) }
            guard page >= 1, (1...10_000).contains(size), since != .some(nil) else {
                return .answer(
                    json(
                        status: 400,
                        #"{"error":"updated_since must be an ISO 8601 time; page at least 1; per_page 1 to 10000"}"#))
            }
            let changes = dataset.changes(
                since: since.flatMap { $0 }.map(Dataset.stamp) ?? 0, offset: (page - 1) * size, limit: size)
            var body = ByteBuffer()
            body.writeString(#"{"data":["#)
            for (index, change) in changes.enumerated() {
                if index > 0 { body.writeString(",") }
                body.writeString(dataset.item(change.id, stamp: change.stamp, deleted: change.deleted))
            }
            body.writeString(#"],"page":\#(page),"per_page":\#(size)}"#)
            return .page(headers: [], body: body)
        case .all:
            var body = ByteBuffer()
            writeItems(dataset.ids(offset: 0, limit: total), of: dataset, to: &body)
            return .page(headers: [], body: body)
        case .one:
            guard parts.count == 3, let id = Int(parts[2]), dataset.ids(offset: 0, limit: total).contains(id) else {
                return .answer(json(status: 404, #"{"error":"no such item"}"#))
            }
            return .page(headers: [], body: ByteBuffer(string: dataset.item(id)))
        }
    }

    enum Style: String {
        case page, offset, cursor, link, next, all, one, incremental
    }

    /// Zendesk's time-based incremental export
    /// (https://developer.zendesk.com/api-reference/ticketing/ticket-management/incremental_exports/):
    /// `start_time` (Unix seconds) is required; a page holds up to `per_page` (1,000)
    /// items updated at `start_time` or later, oldest first, deleted ones with
    /// `"status": "deleted"`; `end_time` is the last item's update time and `next_page`
    /// asks from there, so the items updated in that second come again (the duplicates
    /// Zendesk warns of); `end_of_stream` is true once a page holds fewer than
    /// `per_page`. Departs from Zendesk: `start_time` may be recent.
    private static func zendeskExport(
        _ request: SeenRequest, collection name: String, dataset: Dataset, origin: String
    ) -> Reply {
        let query = parameters(request.query)
        let size = min(max(query["per_page"].flatMap(Int.init) ?? 1000, 1), 1000)
        guard let start = query["start_time"].flatMap(Int.init), start >= 0 else {
            return .answer(
                json(status: 400, #"{"error":"InvalidValue","description":"start_time is required: a Unix time"}"#))
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

    static let jsonHeaders = [("Content-Type", "application/json")]

    static func json(status: Int, _ text: String, headers: [(String, String)] = []) -> ResponsePlan.Outcome {
        .answer(status: status, headers: jsonHeaders + headers, body: ByteBuffer(string: text))
    }

    private static func echo(_ request: SeenRequest) -> ResponsePlan.Outcome {
        let headers = request.headers.sorted { $0.key < $1.key }.map { "\(quote($0.key)):\(quote($0.value))" }
        let text = """
            {"id":"echo","method":\(quote(request.method)),"query":\(quote(request.query)),\
            "headers":{\(headers.joined(separator: ","))},"body":\(quote(request.body))}
            """
        return json(status: 200, text)
    }

    static func writeItems(_ ids: [Int], of dataset: Dataset, to body: inout ByteBuffer) {
        body.writeString("[")
        for (index, id) in ids.enumerated() {
            if index > 0 { body.writeString(",") }
            body.writeString(dataset.item(id))
        }
        body.writeString("]")
    }

    static func parameters(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    static func quote(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\u{00}"..."\u{1F}": output += String(format: "\\u%04x", scalar.value)
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }

    /// A 64-bit FNV-1a hash of the body's bytes, in hexadecimal: the page's `ETag`.
    static func hash(_ body: ByteBuffer) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        body.withUnsafeReadableBytes { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// `text` in base64 (URL-safe alphabet, no padding when `padded` is false), for the
    /// opaque cursors of the imitations.
    static func base64(_ text: String, urlSafe: Bool = false, padded: Bool = true) -> String {
        var encoded = Data(text.utf8).base64EncodedString()
        if urlSafe {
            encoded = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        return padded ? encoded : encoded.replacingOccurrences(of: "=", with: "")
    }

    /// The text that ``base64(_:urlSafe:padded:)`` encoded, in either alphabet, with or
    /// without padding.
    static func unbase64(_ encoded: String) -> String? {
        var standard = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).flatMap { String(data: $0, encoding: .utf8) }
    }

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as a date, or `nil` when it is not one.
    static func parseHTTPDate(_ text: String) -> Date? {
        let fields = text.split(separator: " ")
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        guard fields.count == 6, fields[5] == "GMT", let month = months.firstIndex(of: String(fields[2])) else {
            return nil
        }
        let time = fields[4].split(separator: ":").compactMap { Int($0) }
        guard let day = Int(fields[1]), let year = Int(fields[3]), time.count == 3 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar.date(
            from: DateComponents(
                year: year, month: month + 1, day: day, hour: time[0], minute: time[1], second: time[2]))
    }

    /// An IMF-fixdate, such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(
            format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", days[Int(parts.tm_wday)], Int(parts.tm_mday),
            months[Int(parts.tm_mon)], Int(parts.tm_year) + 1900, Int(parts.tm_hour), Int(parts.tm_min),
            Int(parts.tm_sec))
    }
}
