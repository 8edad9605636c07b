/// How a resource's pages follow each other (docs/configuration.md#pagination).
package struct Pagination: Sendable, Hashable {
    /// How the next page is found.
    package enum Style: Sendable, Hashable {
        /// One request.
        case none
        /// `param` counts pages from `start`; `sizeParam` = `size`; a short page is the last.
        case page(param: String, sizeParam: String, size: Int, start: Int)
        /// `param` counts items from 0; `limitParam` = `limit`; a short page is the last.
        case offset(param: String, limitParam: String, limit: Int)
        /// The cursor taken from each page is sent as `param`; none means the last.
        case cursor(from: CursorSource, param: String)
        /// The `Link: <…>; rel="next"` header (RFC 8288) leads to the next page.
        case link
        /// The URL at pointer `next` of each page leads to the next page.
        case nextURL(next: JSONPointer)
    }

    /// Where a `cursor` style finds the next cursor.
    package enum CursorSource: Sendable, Hashable {
        /// At this pointer of the page's body (`next`).
        case body(JSONPointer)
        /// At this pointer of the page's last item (`cursorFromLastItem`, Stripe's `starting_after`).
        case lastItem(JSONPointer)
    }

    /// Where the page number, offset or cursor is sent.
    package enum Placement: String, Sendable, Hashable {
        /// In the URL's query.
        case query
        /// In the JSON body of a POST, at a JSON pointer (Notion's `start_cursor`).
        case body
    }

    /// Where a page states how many items the whole walk holds.
    package enum Total: Sendable, Hashable {
        /// A number at this pointer of the body (Jira's `/total`).
        case body(JSONPointer)
        /// A response header (`X-Total-Count`).
        case header(String)
    }

    package var style: Style
    package var placement = Placement.query
    /// Where a page says whether more follow (`has_more`): the walk stops when it is not `true`.
    package var hasMore: JSONPointer?
    /// A page that matches this is the last (`end_of_stream: true`).
    package var stopWhen: ResponseMatch?
    /// Where a page states the walk's total: the walk ends there, and a sync
    /// that receives another number fails (docs/configuration.md#complete-copies).
    package var total: Total?
    /// The most items the API pages through for one query (GitHub search:
    /// 1,000): the walk queries again from the largest `since` value seen.
    package var cap: Int?

    /// Whether the style can end a walk at a short page: `page` and `offset`.
    package var stopsAtShortPages: Bool {
        switch style {
        case .page, .offset: true
        case .none, .cursor, .link, .nextURL: false
        }
    }

    /// Whether a short page is the last: only when nothing better says so.
    package var trustsShortPages: Bool {
        hasMore == nil && stopWhen == nil && total == nil
    }

    /// One request.
    package static let none = Pagination(style: .none)
    /// The `Link` header's next page.
    package static let link = Pagination(style: .link)

    /// Pages counted by `param`, in the query.
    package static func page(param: String, sizeParam: String, size: Int, start: Int) -> Pagination {
        Pagination(style: .page(param: param, sizeParam: sizeParam, size: size, start: start))
    }

    /// Items counted by `param`, in the query.
    package static func offset(param: String, limitParam: String, limit: Int) -> Pagination {
        Pagination(style: .offset(param: param, limitParam: limitParam, limit: limit))
    }

    /// The cursor at `next` of each page, sent as `param` in the query.
    package static func cursor(next: JSONPointer, param: String) -> Pagination {
        Pagination(style: .cursor(from: .body(next), param: param))
    }

    /// The URL at `next` of each page.
    package static func nextURL(next: JSONPointer) -> Pagination {
        Pagination(style: .nextURL(next: next))
    }

    package init(
        style: Style, placement: Placement = .query, hasMore: JSONPointer? = nil, stopWhen: ResponseMatch? = nil
    ) {
        self.style = style
        self.placement = placement
        self.hasMore = hasMore
        self.stopWhen = stopWhen
    }

    /// The style's name in the configuration.
    package var styleName: String {
        switch style {
        case .none: "none"
        case .page: "page"
        case .offset: "offset"
        case .cursor: "cursor"
        case .link: "link"
        case .nextURL: "nextUrl"
        }
    }
}
