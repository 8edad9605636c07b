import Foundation
import NIOCore

/// The upstream's API: one collection served in every pagination style of
/// docs/configuration.md#pagination.
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
/// | `/echo` | none | the request itself: `{"id", "method", "query", "headers", "body"}` |
/// | `/redirect?to=URL&status=302` | | a redirect to `URL` (to itself when `to` is absent) |
///
/// Collection answers carry an `ETag` and a `Last-Modified`, and answer 304 to a
/// matching `If-None-Match` or `If-Modified-Since`.
enum Routes {
    static let defaultPageSize = 100

    static func answer(_ request: SeenRequest, dataset: Dataset?, origin: String) -> ResponsePlan.Outcome {
        let parts = request.path.split(separator: "/").map(String.init)
        if parts == ["echo"] { return echo(request) }
        if parts == ["redirect"] {
            let query = parameters(request.query)
            let status = query["status"].flatMap(Int.init) ?? 302
            let itself = request.path + (request.query.isEmpty ? "" : "?" + request.query)
            return .answer(status: status, headers: [("Location", query["to"] ?? itself)], body: ByteBuffer())
        }
        guard parts.count >= 2, let style = Style(rawValue: parts[0]) else {
            return json(status: 404, #"{"error":"no such path; try /page/items"}"#)
        }
        guard var dataset else { return json(status: 404, #"{"error":"no such collection"}"#) }
        let etag = "\"v\(dataset.version)-\(fnv(request.path + "?" + request.query))\""
        let lastModified = httpDate(dataset.modified)
        if request.headers["if-none-match"] == etag
            || (request.headers["if-none-match"] == nil && request.headers["if-modified-since"] == lastModified)
        {
            return .answer(status: 304, headers: [("ETag", etag), ("Last-Modified", lastModified)], body: ByteBuffer())
        }
        let query = parameters(request.query)
        let validators = [("ETag", etag), ("Last-Modified", lastModified)]
        let total = dataset.liveCount
        switch style {
        case .page, .link, .next:
            let page = query["page"].flatMap(Int.init) ?? 1
            let size = query["per_page"].flatMap(Int.init) ?? defaultPageSize
            guard page >= 1, (1...10_000).contains(size) else {
                return json(status: 400, #"{"error":"page must be at least 1 and per_page between 1 and 10000"}"#)
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
                return .answer(status: 200, headers: jsonHeaders + validators, body: body)
            case .link:
                writeItems(ids, of: dataset, to: &body)
                let link = hasMore ? [("Link", "<\(nextURL)>; rel=\"next\"")] : []
                return .answer(status: 200, headers: jsonHeaders + validators + link, body: body)
            default:
                body.writeString(#"{"results":"#)
                writeItems(ids, of: dataset, to: &body)
                body.writeString(#","next":\#(hasMore ? "\"\(nextURL)\"" : "null")}"#)
                return .answer(status: 200, headers: jsonHeaders + validators, body: body)
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
                return json(status: 400, #"{"error":"bad offset, cursor or limit"}"#)
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
            return .answer(status: 200, headers: jsonHeaders + validators, body: body)
        case .all:
            var body = ByteBuffer()
            writeItems(dataset.ids(offset: 0, limit: total), of: dataset, to: &body)
            return .answer(status: 200, headers: jsonHeaders + validators, body: body)
        case .one:
            guard parts.count == 3, let id = Int(parts[2]), dataset.ids(offset: 0, limit: total).contains(id) else {
                return json(status: 404, #"{"error":"no such item"}"#)
            }
            return .answer(status: 200, headers: jsonHeaders + validators, body: ByteBuffer(string: dataset.item(id)))
        }
    }

    enum Style: String {
        case page, offset, cursor, link, next, all, one
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

    private static func writeItems(_ ids: [Int], of dataset: Dataset, to body: inout ByteBuffer) {
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

    private static func quote(_ text: String) -> String {
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

    private static func fnv(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 36)
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
