import Foundation

/// Where one page of a sync is: its number in the sync, its URL, and what the
/// loop guard has seen so far.
struct PageRequest: Sendable, Hashable {
    /// 1 for the first page of a sync.
    var number: Int
    /// The page's full URL.
    var url: String
    /// The page's JSON body, when the pagination puts its parameters there
    /// (`nil`: the resource's own body).
    var body: String?
    /// The page number (`page` style) or item offset (`offset` style) it asks for.
    var position: Int = 0
    /// The cursors or URLs already followed in this sync.
    var seen: Set<String> = []
    /// The items the walk received before this page.
    var received = 0
}

/// The rules of docs/configuration.md#pagination for walking a resource's
/// pages: the first page's URL, and after each page either the next page's URL
/// or the end.
///
/// A pure value: it does no I/O, so every style is tested without a server.
struct PagePlanner: Sendable {
    let pagination: Pagination
    /// The resource's URL with its placeholders filled.
    let baseURL: String
    /// The resource's query parameters, added to every page it builds.
    let query: [(name: String, value: String)]
    /// The most pages a sync may fetch.
    let maxPages: Int
    /// The resource's JSON body, into which `"in": "body"` pagination writes its parameters.
    let bodyTemplate: JSONValue

    init(
        pagination: Pagination, baseURL: String, query: [(name: String, value: String)], maxPages: Int,
        body: RequestBody? = nil
    ) {
        self.pagination = pagination
        self.baseURL = baseURL
        self.query = query
        self.maxPages = maxPages
        bodyTemplate = body.flatMap { try? JSONValue(parsing: Array($0.text.utf8)) } ?? .object([])
    }

    /// What a page said about the next one.
    struct PageFacts {
        /// How many items the page held.
        var itemCount: Int
        /// The page's body, when it was JSON.
        var document: JSONDocument?
        /// The page's last item, in `document`.
        var lastItem: JSONDocument.Span?
        /// The page's `Link` header values.
        var linkHeaders: [String] = []
        /// The number of items the page says the walk holds (`pagination.total`).
        var total: Int?
    }

    /// Why the walk cannot go on.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The problem of an upstream with more than `maxPages` pages.
    static func tooManyPages(_ maxPages: Int) -> Problem {
        Problem(message: "the upstream has more than maxPages (\(maxPages)) pages")
    }

    /// `a + b`, checked: a walk whose count would pass `Int.max` ends with a
    /// problem naming `what`, never with a trap or a wrapped number.
    static func sum(_ a: Int, _ b: Int, of what: String) throws(Problem) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        guard !overflow else { throw Problem(message: "\(what) would pass \(Int.max) after \(a)") }
        return sum
    }

    /// The first page.
    func first() -> PageRequest {
        switch pagination.style {
        case .page(let param, let sizeParam, let size, let start):
            return request(number: 1, setting: [(param, .number(start)), (sizeParam, .number(size))], position: start)
        case .offset(let param, let limitParam, let limit):
            return request(number: 1, setting: [(param, .number(0)), (limitParam, .number(limit))], position: 0)
        case .none, .cursor, .link, .nextURL:
            return request(number: 1, setting: [])
        }
    }

    /// Page `number` with `parameters` set in the query or the body, as the pagination places them.
    /// Each parameter is sent once: the walk's value replaces one of the same name that the
    /// URL or `query` holds (docs/configuration.md#one-value-per-parameter).
    private func request(
        number: Int, setting parameters: [(name: String, value: JSONValue)], position: Int = 0,
        seen: Set<String> = []
    ) -> PageRequest {
        switch pagination.placement {
        case .query:
            let texts = parameters.map { ($0.name, $0.value.stringValue ?? $0.value.serialized()) }
            return PageRequest(
                number: number, url: Self.url(baseURL, setting: Self.overriding(query, with: texts)),
                position: position, seen: seen)
        case .body:
            var body = bodyTemplate
            for (name, value) in parameters { body = body.setting(value, at: Self.bodyPointer(name)) }
            return PageRequest(
                number: number, url: Self.url(baseURL, setting: query), body: body.serialized(), position: position,
                seen: seen)
        }
    }

    /// A body parameter's place: a JSON pointer as written, or a top-level member's name.
    static func bodyPointer(_ name: String) -> JSONPointer {
        if name.hasPrefix("/"), let pointer = try? JSONPointer(name) { return pointer }
        return JSONPointer(tokens: [name])
    }

    /// The page after `request`, or `nil` if that was the last.
    func next(after request: PageRequest, _ facts: PageFacts) throws(Problem) -> PageRequest? {
        if try isLast(facts) { return nil }
        let received = try Self.sum(request.received, facts.itemCount, of: "the items received")
        if let total = facts.total, received >= total { return nil }
        // The API gives no more for one query: the next window asks again.
        if let cap = pagination.cap, received >= cap { return nil }
        var next: PageRequest
        switch pagination.style {
        case .none:
            return nil
        case .page(let param, let sizeParam, let size, _):
            // A short page is the last only when nothing better says so (Jira caps its page size).
            guard facts.itemCount > 0, facts.itemCount >= size || !pagination.trustsShortPages else { return nil }
            let page = try Self.sum(request.position, 1, of: "the page number")
            next = self.request(
                number: request.number + 1, setting: [(param, .number(page)), (sizeParam, .number(size))],
                position: page)
        case .offset(let param, let limitParam, let limit):
            guard facts.itemCount > 0, facts.itemCount >= limit || !pagination.trustsShortPages else { return nil }
            let offset = try Self.sum(request.position, facts.itemCount, of: "the offset")
            next = self.request(
                number: request.number + 1, setting: [(param, .number(offset)), (limitParam, .number(limit))],
                position: offset)
        case .cursor(let source, let param):
            let found: String?
            switch source {
            case .body(let pointer):
                found = try Self.scalar(at: pointer, in: facts.document, what: "cursor")
            case .lastItem(let pointer):
                guard let lastItem = facts.lastItem else { return nil }
                found = try Self.scalar(at: pointer, in: facts.document, within: lastItem, what: "cursor")
            }
            guard let cursor = found else { return nil }
            guard !request.seen.contains(cursor) else {
                throw Problem(
                    message: "the cursor \"\(cursor)\" came back a second time in this sync (a pagination loop)")
            }
            next = self.request(
                number: request.number + 1, setting: [(param, .string(cursor))], seen: request.seen.union([cursor]))
        case .link:
            guard let target = LinkHeader.target(facts.linkHeaders, relation: "next") else { return nil }
            next = try follow(target, from: request)
        case .nextURL(let pointer):
            guard let target = try Self.scalar(at: pointer, in: facts.document, what: "next page URL") else {
                return nil
            }
            next = try follow(target, from: request)
        }
        // One request past maxPages is allowed: when the last page is full, only
        // an empty page after it shows the end. ResourceFetch refuses it if it holds items.
        guard next.number <= maxPages + 1 else { throw Self.tooManyPages(maxPages) }
        next.received = received
        return next
    }

    /// Why a page that ends the walk after `request` cannot be its last, if
    /// it says more follow: its `hasMore` is `true`, though the walk did not
    /// reach the API's cap for one query (docs/configuration.md#complete-copies).
    func saysMore(after request: PageRequest, _ facts: PageFacts) -> String? {
        let (received, overflow) = request.received.addingReportingOverflow(facts.itemCount)
        if let cap = pagination.cap, overflow || received >= cap { return nil }
        guard let hasMore = pagination.hasMore, let document = facts.document,
            let span = document.span(at: hasMore), JSONValue(document, span) == .bool(true)
        else { return nil }
        return "the page says more follow (\"\(hasMore)\" is true) but names no next page"
    }

    /// Whether the page says it is the last: `hasMore` is not `true`, or `stopWhen` matches.
    private func isLast(_ facts: PageFacts) throws(Problem) -> Bool {
        if let stopWhen = pagination.stopWhen,
            stopWhen.matches(status: 200, body: [], document: facts.document)
        {
            return true
        }
        guard let hasMore = pagination.hasMore else { return false }
        guard let document = facts.document, let span = document.span(at: hasMore) else { return true }
        switch document.kind(of: span) {
        case .boolean: return JSONValue(document, span) != .bool(true)
        case .null: return true
        case let kind:
            throw Problem(message: "the has-more flag at \"\(hasMore)\" is \(kind.phrase), not a boolean")
        }
    }

    private func follow(_ target: String, from request: PageRequest) throws(Problem) -> PageRequest {
        guard let url = URL(string: target, relativeTo: URL(string: request.url))?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw Problem(message: "the next page's URL \"\(target)\" is not an http(s) URL")
        }
        let absolute = url.absoluteString
        guard absolute != request.url, !request.seen.contains(absolute) else {
            throw Problem(
                message: "the next page's URL \(absolute) came back a second time in this sync (a pagination loop)")
        }
        var next = PageRequest(number: request.number + 1, url: absolute, seen: request.seen.union([request.url]))
        next.body = request.body
        return next
    }

    /// The string or number at `pointer` (of `within`, else of the document);
    /// `nil` when absent, null or empty (Slack ends with an empty cursor).
    private static func scalar(
        at pointer: JSONPointer, in document: JSONDocument?, within: JSONDocument.Span? = nil, what: String
    ) throws(Problem)
        -> String?
    {
        guard let document, let span = document.span(at: pointer, in: within) else { return nil }
        switch document.kind(of: span) {
        case .null: return nil
        case .string:
            let text = document.string(at: span) ?? ""
            return text.isEmpty ? nil : text
        case .number: return document.text(of: span)
        case let kind:
            throw Problem(message: "the \(what) at \"\(pointer)\" is \(kind.phrase), not a string")
        }
    }

    /// `lower` with the parameters `higher` names taken out, then `higher`'s:
    /// of two places that set one parameter, the higher one's value is the one sent
    /// (docs/configuration.md#one-value-per-parameter). A name `lower` repeats
    /// (`tag=a&tag=b`) stays repeated unless `higher` sets it.
    static func overriding(
        _ lower: [(name: String, value: String)], with higher: [(name: String, value: String)]
    ) -> [(name: String, value: String)] {
        guard !higher.isEmpty else { return lower }
        let names = Set(higher.map(\.name))
        return lower.filter { !names.contains($0.name) } + higher
    }

    /// `url` with each named query parameter set to its value: earlier
    /// occurrences of the names are removed, the fragment is dropped, and
    /// names and values are percent-encoded (RFC 3986 unreserved characters stay).
    /// `parameters` holds each name once, or repeats it on purpose.
    static func url(_ url: String, setting parameters: [(name: String, value: String)]) -> String {
        guard !parameters.isEmpty else { return url }
        var base = url
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        var kept: [String] = []
        if let question = base.firstIndex(of: "?") {
            let names = Set(parameters.map(\.name))
            for pair in base[base.index(after: question)...].split(separator: "&") {
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                let decoded = name.contains("%") ? name.removingPercentEncoding ?? name : name
                if !names.contains(decoded) { kept.append(String(pair)) }
            }
            base = String(base[..<question])
        }
        let added = parameters.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
        return base + "?" + (kept + added).joined(separator: "&")
    }

}
