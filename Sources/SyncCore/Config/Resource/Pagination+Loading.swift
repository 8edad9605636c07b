extension Pagination {
    /// A resource's `pagination` (docs/configuration.md#pagination): ``none``
    /// when it has none; `nil` when it has a problem.
    static func load(_ value: JSONValue?, at path: String, in context: ConfigContext) -> Pagination? {
        let reader = context.reader
        guard let value else { return Pagination.none }
        guard let fields = reader.object(value, at: path) else { return nil }
        let allKeys = ConfigLoader.paginationKeys + ConfigLoader.pageEndKeys
        guard let styleValue = fields.take("style") else {
            reader.report(
                fields.path("style"), "is required: one of \(ConfigLoader.styles.joined(separator: ", "))")
            fields.finish(reader, known: allKeys)
            return nil
        }
        guard let style = reader.string(styleValue, at: fields.path("style")) else { return nil }
        func text(_ key: String, default fallback: String) -> String {
            guard let value = fields.take(key), let text = reader.string(value, at: fields.path(key)) else {
                return fallback
            }
            if text.isEmpty { reader.report(fields.path(key), "must not be empty") }
            return text
        }
        func required<T>(_ key: String, _ read: (JSONValue, String) -> T?, hint: String) -> T? {
            guard let value = fields.take(key) else {
                reader.report(fields.path(key), "is required for style \(style): \(hint)")
                return nil
            }
            return read(value, fields.path(key))
        }
        func pageSize(_ key: String) -> Int? {
            required(
                key, { reader.integer($0, at: $1, in: 1...10_000) },
                hint: "the page size the API returns (a shorter page is the last)")
        }
        let result: Pagination.Style?
        switch style {
        case "none":
            result = Pagination.Style.none
        case "page":
            let param = text("param", default: "page")
            let sizeParam = text("sizeParam", default: "per_page")
            let size = pageSize("size")
            let start = fields.take("start").flatMap {
                reader.integer($0, at: fields.path("start"), in: 0...1_000_000)
            }
            result = size.map { .page(param: param, sizeParam: sizeParam, size: $0, start: start ?? 1) }
        case "offset":
            let param = text("param", default: "offset")
            let limitParam = text("limitParam", default: "limit")
            let limit = pageSize("limit")
            result = limit.map { .offset(param: param, limitParam: limitParam, limit: $0) }
        case "cursor":
            let param = text("param", default: "cursor")
            if fields.has("cursorFromLastItem") {
                if fields.has("next") {
                    reader.report(
                        fields.path("cursorFromLastItem"),
                        "and \"next\" cannot both be given: the cursor comes from the body or from the last item")
                }
                _ = fields.take("next")
                let pointer = fields.take("cursorFromLastItem").flatMap {
                    reader.pointer($0, at: fields.path("cursorFromLastItem"))
                }
                result = pointer.map { .cursor(from: .lastItem($0), param: param) }
            } else {
                let next = required(
                    "next", { reader.pointer($0, at: $1) },
                    hint: "a JSON pointer to the next cursor, e.g. \"/next_cursor\" "
                        + "(or \"cursorFromLastItem\": \"/id\")")
                result = next.map { .cursor(from: .body($0), param: param) }
            }
        case "link":
            result = .link
        case "nextUrl":
            let next = required(
                "next", { reader.pointer($0, at: $1) },
                hint: "a JSON pointer to the next page's URL, e.g. \"/next\"")
            result = next.map { .nextURL(next: $0) }
        default:
            reader.report(fields.path("style"), "must be one of \(ConfigLoader.styles.joined(separator: ", "))")
            fields.finish(reader, known: allKeys)
            return nil
        }
        var pagination = result.map { Pagination(style: $0) }
        if style != "none" {
            if let value = fields.take("hasMore") {
                pagination?.hasMore = reader.pointer(value, at: fields.path("hasMore"))
            }
            if let value = fields.take("stopWhen"), let object = reader.object(value, at: fields.path("stopWhen")) {
                pagination?.stopWhen = ResponseMatch.load(object, statusAllowed: false, in: context)
                object.finish(reader)
            }
            if let value = fields.take("total") {
                pagination?.total = loadTotal(value, at: fields.path("total"), reader)
            }
            if let value = fields.take("cap") {
                pagination?.cap = reader.integer(value, at: fields.path("cap"), in: 1...10_000_000)
            }
            if let placement: Pagination.Placement = reader.choice(
                fields, "in", else: "must be \"query\" or \"body\"")
            {
                pagination?.placement = placement
                if ["link", "nextUrl"].contains(style), placement == .body {
                    reader.report(fields.path("in"), "is not used by style \(style): its next page is a URL")
                }
            }
        }
        // A key of another style is a mistake worth naming precisely.
        for member in fields.members where allKeys.contains(member.name) {
            if !fields.wasTaken(member.name) {
                _ = fields.take(member.name)
                reader.report(fields.path(member.name), "is not used by style \(style)")
            }
        }
        fields.finish(reader)
        return pagination
    }

    /// `total`: a pointer into the body (`"/total"`), or `{"header": "X-Total-Count"}`.
    private static func loadTotal(_ value: JSONValue, at path: String, _ reader: ConfigReader) -> Total? {
        if case .string = value { return reader.pointer(value, at: path).map(Total.body) }
        guard let fields = reader.object(value, at: path) else { return nil }
        defer { fields.finish(reader) }
        guard let header = fields.take("header").flatMap({ reader.string($0, at: fields.path("header")) }),
            !header.isEmpty
        else {
            reader.report(path, #"must be a JSON pointer ("/total") or {"header": "X-Total-Count"}"#)
            return nil
        }
        return .header(header)
    }
}
