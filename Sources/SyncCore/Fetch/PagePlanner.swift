import Foundation

/// Where one page of a sync is: its number in the sync, its URL, and what the
/// loop guard has seen so far.
struct PageRequest: Sendable, Hashable {
    /// 1 for the first page of a sync.
    var number: Int
    /// The page's full URL.
    var url: String
    /// The page number (`page` style) or item offset (`offset` style) it asks for.
    var position: Int = 0
    /// The cursors or URLs already followed in this sync.
    var seen: Set<String> = []
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

    /// What a page said about the next one.
    struct PageFacts {
        /// How many items the page held.
        var itemCount: Int
        /// The page's body, when it was JSON.
        var document: JSONDocument?
        /// The page's `Link` header values.
        var linkHeaders: [String] = []
    }

    /// Why the walk cannot go on.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The problem of an upstream with more than `maxPages` pages.
    static func tooManyPages(_ maxPages: Int) -> Problem {
        Problem(message: "the upstream has more than maxPages (\(maxPages)) pages")
    }

    /// The first page.
    func first() -> PageRequest {
        switch pagination {
        case .page(let param, let sizeParam, let size, let start):
            return PageRequest(
                number: 1, url: Self.url(baseURL, setting: query + [(param, "\(start)"), (sizeParam, "\(size)")]),
                position: start)
        case .offset(let param, let limitParam, let limit):
            return PageRequest(
                number: 1, url: Self.url(baseURL, setting: query + [(param, "0"), (limitParam, "\(limit)")]),
                position: 0)
        case .none, .cursor, .link, .nextURL:
            return PageRequest(number: 1, url: Self.url(baseURL, setting: query))
        }
    }

    /// The page after `request`, or `nil` if that was the last.
    func next(after request: PageRequest, _ facts: PageFacts) throws(Problem) -> PageRequest? {
        var next: PageRequest
        switch pagination {
        case .none:
            return nil
        case .page(let param, let sizeParam, let size, _):
            guard facts.itemCount >= size else { return nil }
            next = PageRequest(
                number: request.number + 1,
                url: Self.url(baseURL, setting: query + [(param, "\(request.position + 1)"), (sizeParam, "\(size)")]),
                position: request.position + 1)
        case .offset(let param, let limitParam, let limit):
            guard facts.itemCount >= limit else { return nil }
            let offset = request.position + facts.itemCount
            next = PageRequest(
                number: request.number + 1,
                url: Self.url(baseURL, setting: query + [(param, "\(offset)"), (limitParam, "\(limit)")]),
                position: offset)
        case .cursor(let pointer, let param):
            guard let cursor = try Self.scalar(at: pointer, in: facts.document, what: "cursor") else { return nil }
            guard !request.seen.contains(cursor) else {
                throw Problem(
                    message: "the cursor \"\(cursor)\" came back a second time in this sync (a pagination loop)")
            }
            next = PageRequest(
                number: request.number + 1, url: Self.url(baseURL, setting: query + [(param, cursor)]),
                seen: request.seen.union([cursor]))
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
        return next
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
        return PageRequest(number: request.number + 1, url: absolute, seen: request.seen.union([request.url]))
    }

    /// The string or number at `pointer`; `nil` when absent, null or empty.
    private static func scalar(
        at pointer: JSONPointer, in document: JSONDocument?, what: String
    ) throws(Problem)
        -> String?
    {
        guard let document, let span = document.span(at: pointer) else { return nil }
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

    /// `url` with each named query parameter set to its value: earlier
    /// occurrences of the names are removed, the fragment is dropped, and
    /// names and values are percent-encoded (RFC 3986 unreserved characters stay).
    static func url(_ url: String, setting parameters: [(name: String, value: String)]) -> String {
        guard !parameters.isEmpty else { return url }
        var base = url
        if let hash = base.firstIndex(of: "#") { base = String(base[..<hash]) }
        var kept: [String] = []
        if let question = base.firstIndex(of: "?") {
            let names = Set(parameters.map(\.name))
            for pair in base[base.index(after: question)...].split(separator: "&") {
                let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
                if !names.contains(name.removingPercentEncoding ?? name) { kept.append(String(pair)) }
            }
            base = String(base[..<question])
        }
        let added = parameters.map { "\(PercentEncoding.encode($0.name))=\(PercentEncoding.encode($0.value))" }
        return base + "?" + (kept + added).joined(separator: "&")
    }

}
