import Foundation
import NIOCore

/// The upstream's collection routes: each collection served in every pagination style of
/// docs/configuration.md#pagination, and incrementally.
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
///
/// Every collection page carries a strong `ETag`, a hash of its body, so that a change on
/// one page changes that page's `ETag` only, and the collection's `Last-Modified`. A
/// matching `If-None-Match` (or, without it, an `If-Modified-Since` no earlier than
/// `Last-Modified`) is answered 304. Routes added to the server (``UpstreamRoutes``) give
/// their pages the same validators through ``outcome(of:modified:request:)``, and build
/// their answers with the helpers here.
package enum Routes {
    /// The page size when a request names none.
    package static let defaultPageSize = 100

    /// What a route answers, before validators.
    package enum Reply {
        /// A page of a collection, answered 200 with `ETag` and `Last-Modified`, or 304.
        case page(headers: [(String, String)], body: ByteBuffer)
        /// Anything else (an error, a redirect), sent as it is.
        case answer(ResponsePlan.Outcome)
    }

    /// The collection routes' answer to `request`; `dataset` is the collection its path names.
    static func answer(_ request: SeenRequest, dataset: Dataset?, origin: String) -> ResponsePlan.Outcome {
        outcome(
            of: collection(request, dataset: dataset, origin: origin), modified: dataset?.modified ?? Date(),
            request: request)
    }

    /// A reply as it is sent: a page with its validators (`modified`: when its collection
    /// last changed), or 304 when the request's validators match them.
    package static func outcome(of reply: Reply, modified: Date, request: SeenRequest) -> ResponsePlan.Outcome {
        switch reply {
        case .answer(let outcome): outcome
        case .page(let headers, let body): validated(headers: headers, body: body, modified: modified, request: request)
        }
    }

    /// The collection a path names: its second component (`/page/NAME`, `/one/NAME/ID`).
    package static func collectionName(in path: String) -> String {
        let parts = path.split(separator: "/")
        return parts.count >= 2 ? String(parts[1]) : ""
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

    /// The routes of the table above.
    private static func collection(_ request: SeenRequest, dataset: Dataset?, origin: String) -> Reply {
        let parts = request.path.split(separator: "/").map(String.init)
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

    /// The first component of a collection route's path.
    enum Style: String {
        case page, offset, cursor, link, next, all, one, incremental
    }

    /// `Content-Type: application/json`.
    package static let jsonHeaders = [("Content-Type", "application/json")]

    /// An answer with a JSON body.
    package static func json(status: Int, _ text: String, headers: [(String, String)] = []) -> ResponsePlan.Outcome {
        .answer(status: status, headers: jsonHeaders + headers, body: ByteBuffer(string: text))
    }

    /// Writes the items `ids` of `dataset` to `body` as a JSON array.
    package static func writeItems(_ ids: [Int], of dataset: Dataset, to body: inout ByteBuffer) {
        body.writeString("[")
        for (index, id) in ids.enumerated() {
            if index > 0 { body.writeString(",") }
            body.writeString(dataset.item(id))
        }
        body.writeString("]")
    }

    /// The parameters of a query string (or of a form body), percent-decoded, `+` as a space.
    package static func parameters(_ query: String) -> [String: String] {
        var result: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    /// `text` as a JSON string literal.
    package static func quote(_ text: String) -> String {
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

    /// An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as a date, or `nil` when it is not one.
    package static func parseHTTPDate(_ text: String) -> Date? {
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
