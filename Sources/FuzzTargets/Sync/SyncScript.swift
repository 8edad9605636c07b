/// One input of the `sync` target, decoded: a resource's configuration, how
/// many syncs run, and the answers the scripted upstream gives, in order, to
/// whatever requests those syncs send.
///
/// The bytes are read as structure (``FuzzInput``): first the configuration's
/// choices, then, answer by answer, a status, a few headers from a list of
/// names with values the bytes choose, and a body built from a template (items
/// with keys and `since` fields, a next cursor or URL, a total, a kept value)
/// whose values the bytes choose too, now and then a body of raw bytes. Values
/// are drawn from a list of hostile ones, built as times, or taken as raw text,
/// where the dictionary's tokens (`fuzz/dictionaries/sync.dict`) land.
struct SyncScript: Sendable {
    var config: SyncConfigChoice
    /// How many syncs of the resource run, one after another.
    var syncs: Int
    var answers: [ScriptedAnswer]

    init(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        config = SyncConfigChoice(&input)
        syncs = input.int(in: 1...3)
        answers = []
        while !input.isEmpty, answers.count < 40 {
            answers.append(ScriptedAnswer(&input, config: config, index: answers.count))
        }
    }
}

/// The configuration of the one resource an input syncs.
struct SyncConfigChoice: Hashable, Sendable {
    enum Style: String, CaseIterable, Sendable {
        case none, page, offset, cursor, cursorFromLastItem, link, nextUrl
    }

    enum Source: String, CaseIterable, Sendable {
        case field, fromBody, token, link

        /// The pointer the value is read at: an item's field, or the body's.
        var pointer: String {
            switch self {
            case .field: "/updated"
            case .fromBody: "/end_time"
            case .token: "/last_seq"
            case .link: "/delta"
            }
        }

        var keepsTime: Bool { self == .field || self == .fromBody }
    }

    enum Format: String, CaseIterable, Sendable {
        case iso8601, unixSeconds, unixMilliseconds
    }

    /// Where the value is sent.
    enum Placement: String, CaseIterable, Sendable {
        /// `since.param`.
        case param
        /// A `{since:yyyy-MM-dd'T'HH:mm:ss'Z'}` placeholder in a query value.
        case pattern
        /// A `{since}` placeholder in a header.
        case header
        /// `since.bodyField`, in a POST's body.
        case bodyField
    }

    enum Total: String, Sendable {
        case body, header
    }

    var incremental: Bool
    var style: Style
    /// `"in": "body"` for `page`, `offset` and `cursor` pagination (a POST).
    var inBody: Bool
    var hasMore: Bool
    var stopWhen: Bool
    var total: Total?
    var cap: Int?
    var size: Int
    var source: Source
    var format: Format
    var placement: Placement
    var lookbackMilliseconds: Int
    var deleted: Bool
    var expiredWhen: Bool
    var maxAttempts: Int
    /// `rateLimit.maxWait`, in seconds.
    var maxWait: Int
    /// Whether the requests go through the agent's HTTP transport to a server
    /// on loopback (which sends each head byte for byte, `Content-Length` too),
    /// instead of the scripted transport behind the transport's seam.
    var wire: Bool

    /// The longest any request may take: longer than any wait a sync may take,
    /// so that it never fires on the ``LeapingClock``.
    static let timeout = "300d"

    init(_ input: inout FuzzInput) {
        let flags = input.byte()
        incremental = flags & 1 == 1
        wire = flags & 0xE0 == 0xE0
        style = input.pick(Style.allCases)
        inBody = [.page, .offset, .cursor].contains(style) && flags & 2 == 2
        let extras = input.byte()
        let paged = style != .none
        hasMore = paged && extras & 1 == 1
        stopWhen = paged && extras & 2 == 2
        total = paged ? [nil, nil, .body, .header][Int(extras >> 2 & 3)] : nil
        size = input.int(in: 1...3)
        source = input.pick(Source.allCases)
        if source == .link, ![.none, .link, .nextUrl].contains(style) { source = .field }
        format = input.pick(Format.allCases)
        placement = input.pick(Placement.allCases)
        if source == .token, placement == .pattern { placement = .param }
        lookbackMilliseconds = input.pick([0, 0, 1000, 3_600_000, 250])
        cap = incremental && source == .field && paged && extras & 16 == 16 ? size * 2 : nil
        deleted = extras & 32 == 32
        expiredWhen = incremental && extras & 64 == 64
        let retry = input.byte()
        maxAttempts = [1, 2, 3, 3][Int(retry & 3)]
        maxWait = [3600, 0, 10, 3600][Int(retry >> 2 & 3)]
    }

    /// Whether the resource's requests are POSTs.
    var posts: Bool { inBody || (incremental && placement == .bodyField && source != .link) }

    /// The resource's configuration, as a user writes it (docs/configuration.md), named `name`, at `base`.
    func json(name: String, base: String) -> String {
        var members = [
            #""name": "\#(name)""#, #""url": "\#(base)/items""#, #""items": "/items""#, #""key": "/id""#,
            #""timeout": "\#(Self.timeout)""#,
            #""retry": {"maxAttempts": \#(maxAttempts), "initialDelay": "1s", "maxDelay": "1m", "jitter": 0}"#,
            #""rateLimit": {"maxWait": "\#(maxWait)s"}"#, #""maxPages": 50"#,
        ]
        if posts { members.append(#""method": "POST""#) }
        members.append(#""pagination": \#(paginationJSON)"#)
        if deleted { members.append(#""deleted": {"pointer": "/deleted"}"#) }
        guard incremental else { return "{" + members.joined(separator: ", ") + "}" }
        members.append(#""mode": "incremental""#)
        var since = [#""\#(source.rawValue)": "\#(source.pointer)""#]
        if source != .link {
            switch placement {
            case .param: since.append(#""param": "since""#)
            case .bodyField: since.append(#""bodyField": "/filter/since""#)
            case .pattern: members.append(#""query": {"q": "since {since:yyyy-MM-dd'T'HH:mm:ss'Z'}"}"#)
            case .header: members.append(#""headers": {"X-Since": "{since}"}"#)
            }
        }
        if source.keepsTime {
            since.append(#""format": "\#(format.rawValue)""#)
            if lookbackMilliseconds > 0 { since.append(#""lookback": "\#(lookbackMilliseconds)ms""#) }
        }
        if expiredWhen { since.append(#""expiredWhen": {"status": 410}"#) }
        members.append(#""since": {\#(since.joined(separator: ", "))}"#)
        return "{" + members.joined(separator: ", ") + "}"
    }

    private var paginationJSON: String {
        var members = [#""style": "\#(style == .cursorFromLastItem ? "cursor" : style.rawValue)""#]
        switch style {
        case .none, .link: break
        case .page: members.append(#""size": \#(size)"#)
        case .offset: members.append(#""limit": \#(size)"#)
        case .cursor: members.append(#""next": "/next""#)
        case .cursorFromLastItem: members.append(#""cursorFromLastItem": "/id", "param": "after""#)
        case .nextUrl: members.append(#""next": "/next_url""#)
        }
        if inBody { members.append(#""in": "body""#) }
        if hasMore { members.append(#""hasMore": "/has_more""#) }
        if stopWhen { members.append(#""stopWhen": {"pointer": "/end", "equals": true}"#) }
        switch total {
        case .body?: members.append(#""total": "/total""#)
        case .header?: members.append(#""total": {"header": "X-Total-Count"}"#)
        case nil: break
        }
        if let cap { members.append(#""cap": \#(cap)"#) }
        return "{" + members.joined(separator: ", ") + "}"
    }
}

/// What the upstream answers to one request.
struct ScriptedAnswer: Sendable {
    /// A failure of the connection instead of an answer.
    enum Failure: Sendable {
        /// The connection was reset (transient).
        case reset
        /// The network is unreachable (offline).
        case unreachable
    }

    var failure: Failure?
    var status: Int
    var headers: [(name: String, value: String)]
    var body: Body
    /// On the wire, the `Content-Length` sent instead of the body's length.
    var contentLength: String?

    enum Body: Sendable {
        case page(PageTemplate)
        /// Bytes of no template, as the input gave them.
        case raw(String)
    }

    /// The answer a request gets once the script has run out: a last page with no item.
    static let end = ScriptedAnswer(
        failure: nil, status: 200, headers: [], body: .page(PageTemplate(items: [])), contentLength: nil)

    init(failure: Failure?, status: Int, headers: [(name: String, value: String)], body: Body, contentLength: String?) {
        self.failure = failure
        self.status = status
        self.headers = headers
        self.body = body
        self.contentLength = contentLength
    }

    /// The statuses an answer may have, the usual ones more often.
    private static let statuses = [
        200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 304, 429, 503, 500, 403, 404, 410, 400, 201, 204, 408, 502,
    ]

    /// The header names an answer may carry, beside those its template makes.
    private static let headerNames = [
        "Retry-After", "x-ratelimit-remaining", "x-ratelimit-reset", "x-ratelimit-limit", "ratelimit-remaining",
        "ratelimit-reset", "RateLimit", "X-Rate-Limit-Remaining", "X-Rate-Limit-Reset", "X-Shopify-Shop-Api-Call-Limit",
        "X-Total-Count", "ETag", "Last-Modified", "Link", "Content-Length", "Content-Encoding",
    ]

    init(_ input: inout FuzzInput, config: SyncConfigChoice, index: Int) {
        let kind = input.byte()
        failure = kind == 0xFF ? .unreachable : kind == 0xFE ? .reset : nil
        status = Self.statuses[Int(kind) % Self.statuses.count]
        headers = []
        contentLength = nil
        for _ in 0..<input.int(in: 0...3) {
            let name = input.pick(Self.headerNames)
            let value = HeaderValue.draw(&input)
            if name == "Content-Length" {
                contentLength = value
            } else {
                headers.append((name, value))
            }
        }
        if input.byte() & 0x1F == 0x1F {
            body = .raw(input.anyText(upTo: 200))
        } else {
            body = .page(PageTemplate(&input, config: config, index: index))
        }
        if case .page(let page) = body {
            if config.style == .link, let next = page.next { headers.append(("Link", "<\(next.text)>; rel=\"next\"")) }
            if config.total == .header, let total = page.total { headers.append(("X-Total-Count", total.text)) }
        }
    }
}

/// A page's body, made from its parts as JSON.
struct PageTemplate: Sendable {
    struct Item: Sendable {
        /// The key: absent (`nil`) is an item without one.
        var key: ServedValue?
        /// The `since` field: absent, `null` (`.some(nil)`), or a value.
        var since: ServedValue??
        var tombstone = false
    }

    var items: [Item]
    /// The next cursor (`/next`) or URL (`/next_url`), or the `Link` header's target.
    var next: ServedValue?
    /// `/has_more`: absent, or `true` / `false` / a value of another kind (its JSON).
    var hasMore: String?
    /// `/end`: `true` ends the walk when `stopWhen` is configured.
    var end = false
    /// The total: at `/total` or in `X-Total-Count` (configured), else under a usual name.
    var total: ServedValue?
    /// The usual name the total is stated under, when `total` is not configured.
    var totalName = "total"
    /// The value `fromBody`, `token` or `link` reads (at its pointer): absent, `null`, or a value.
    var kept: ServedValue??

    init(items: [Item]) {
        self.items = items
    }

    init(_ input: inout FuzzInput, config: SyncConfigChoice, index: Int) {
        let shape = input.byte()
        let count = input.int(in: 0...(config.size + 1))
        items = (0..<count).map { position in
            var item = Item()
            let choice = input.byte()
            item.key = choice & 0x0F == 0x0F ? SyncValues.draw(&input) : .number(String(index * 10 + position))
            if choice & 0x0F == 0x0E { item.key = nil }
            switch choice >> 4 & 3 {
            case 0: item.since = nil
            case 1: item.since = .some(nil)
            default: item.since = SyncValues.drawTime(&input)
            }
            item.tombstone = config.deleted && choice & 0x40 == 0x40
            return item
        }
        if shape & 1 == 1 {
            switch config.style {
            case .cursor: next = SyncValues.draw(&input)
            case .nextUrl, .link: next = .string(SyncValues.drawURL(&input, index: index))
            default: break
            }
        }
        if config.hasMore { hasMore = shape & 2 == 2 ? "true" : input.pick(["false", "null", "\"yes\"", "1"]) }
        end = config.stopWhen && shape & 4 == 4
        if shape & 8 == 8 {
            total = SyncValues.drawCount(&input)
            totalName = input.pick(["total", "total_count", "totalCount", "totalSize", "totalItems", "count"])
        }
        if config.incremental, config.source != .field, shape & 16 == 16 {
            switch (input.byte() & 7, config.source) {
            case (0, _): kept = .some(nil)
            case (1, _): kept = SyncValues.draw(&input)
            case (_, .link): kept = .string(SyncValues.drawURL(&input, index: index))
            case (_, .token): kept = SyncValues.draw(&input)
            default: kept = SyncValues.drawTime(&input)
            }
        }
    }

    /// The body as JSON text (its absolute URLs hold ``SyncValues/base``, which the upstream fills).
    func json(config: SyncConfigChoice) -> String {
        var members: [String] = []
        let rendered = items.map { item -> String in
            var fields: [String] = []
            if let key = item.key { fields.append(#""id": \#(key.json)"#) }
            switch item.since {
            case nil: break
            case .some(nil): fields.append(#""updated": null"#)
            case .some(let value?): fields.append(#""updated": \#(value.json)"#)
            }
            if item.tombstone { fields.append(#""deleted": true"#) }
            return "{" + fields.joined(separator: ", ") + "}"
        }
        members.append(#""items": [\#(rendered.joined(separator: ", "))]"#)
        if let next {
            switch config.style {
            case .cursor: members.append(#""next": \#(next.json)"#)
            case .nextUrl: members.append(#""next_url": \#(next.json)"#)
            default: break
            }
        }
        if let hasMore { members.append(#""has_more": \#(hasMore)"#) }
        if end { members.append(#""end": true"#) }
        if let total, config.total != .header {
            let name = config.total == .body ? "total" : totalName
            members.append(#""\#(name)": \#(total.json)"#)
        }
        switch kept {
        case nil: break
        case .some(nil): members.append(#""\#(config.source.pointer.dropFirst())": null"#)
        case .some(let value?): members.append(#""\#(config.source.pointer.dropFirst())": \#(value.json)"#)
        }
        return "{" + members.joined(separator: ", ") + "}"
    }
}
