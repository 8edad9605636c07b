import Foundation
import Store

extension IncrementalSettings {
    /// `mode`, `since` and `fullResyncEvery` (docs/configuration.md#incremental-resources):
    /// `nil` for a snapshot resource; `.some(nil)` for an incremental one with problems.
    /// `placeholders` is where the request's `{since}` placeholders are, and the formats they give.
    static func load(
        _ fields: ObjectFields, method: HTTPMethod, placeholders: PlaceholderUse, in context: ConfigContext
    ) -> IncrementalSettings?? {
        let reader = context.reader
        let mode = reader.choice(fields, "mode", else: "must be \"snapshot\" or \"incremental\"") ?? SyncMode.snapshot
        let since = fields.take("since")
        let every = fields.take("fullResyncEvery")
        guard mode == .incremental else {
            for (key, value) in [("since", since), ("fullResyncEvery", every)]
            where value != nil {
                reader.report(fields.path(key), "needs \"mode\": \"incremental\"")
            }
            if let path = placeholders.paths.first {
                reader.report(path, "{since} needs \"mode\": \"incremental\" (write {{ for a literal {)")
            }
            return nil
        }
        guard let since else {
            reader.report(
                fields.path("since"),
                #"is required in incremental mode, e.g. {"field": "/updated_at", "param": "updated_since"}"#)
            return .some(nil)
        }
        guard let object = reader.object(since, at: fields.path("since")) else { return .some(nil) }
        let problems = reader.problems.count
        let source = loadSource(object, reader)
        let placement = loadPlacement(object, method: method, source: source, placeholders: placeholders, reader)
        var settings = source.map { IncrementalSettings(source: $0, placement: placement) }
        if let value = object.take("format"), let text = reader.string(value, at: object.path("format")) {
            if source?.keepsTime == false {
                reader.report(object.path("format"), "is for times; a token or link is sent as it is")
            } else if let format = Format(rawValue: text) {
                settings?.format = format
            } else {
                reader.report(
                    object.path("format"),
                    "is \(text.shownQuoted()), which is no format: must be \"iso8601\", \"unixSeconds\" or \"unixMilliseconds\""
                )
            }
        }
        if let order: Order = reader.choice(
            object, "order", else: "must be \"oldestFirst\" or \"newestFirst\" (the order the API lists changes in)")
        {
            if source?.keepsTime == false {
                reader.report(object.path("order"), "is for times; a walk that keeps a token or link goes on by page")
            }
            settings?.order = order
        }
        if let value = object.take("timeZone"), let name = reader.string(value, at: object.path("timeZone")) {
            if let zone = TimeZone(identifier: name) {
                settings?.timeZone = zone
            } else {
                reader.report(object.path("timeZone"), "must be a time zone such as \"UTC\" or \"Europe/Berlin\"")
            }
        }
        if let value = object.take("initial") {
            let format = settings?.format ?? .iso8601
            let initial = loadInitial(value, at: object.path("initial"), source: source, format: format, reader)
            settings?.initial = initial
        }
        if let value = object.take("lookback"),
            let duration = reader.duration(value, at: object.path("lookback"), atLeast: .zero)
        {
            if source?.keepsTime == false {
                reader.report(object.path("lookback"), "is for times, not a token or link")
            }
            settings?.lookback = duration
        }
        if let value = object.take("expiredWhen"), let rule = reader.object(value, at: object.path("expiredWhen")) {
            let match = ResponseMatch.load(rule, statusAllowed: true, in: context)
            settings?.expiredWhen = match
            rule.finish(reader)
        }
        object.finish(reader)
        if source?.keepsTime == false, let path = placeholders.formatPaths.first {
            reader.report(path, "{since:FORMAT} formats a time, but a token is sent as it is: write {since}")
        }
        let fullResyncEvery = every.flatMap {
            reader.duration($0, at: fields.path("fullResyncEvery"), atLeast: .seconds(1))
        }
        settings?.fullResyncEvery = fullResyncEvery
        guard reader.problems.count == problems, var settings else { return .some(nil) }
        settings.templated = placeholders.templated
        return settings
    }

    /// `field`, `fromBody`, `token` or `link`: exactly one.
    private static func loadSource(_ object: ObjectFields, _ reader: ConfigReader) -> Source? {
        let keys: [(String, (JSONPointer) -> Source)] = [
            ("field", Source.field), ("fromBody", Source.body), ("token", Source.token), ("link", Source.link),
        ]
        var found: [(key: String, source: Source)] = []
        for (key, make) in keys {
            if let value = object.take(key), let pointer = reader.pointer(value, at: object.path(key)) {
                found.append((key, make(pointer)))
            }
        }
        guard let first = found.first else {
            reader.report(
                object.path("field"),
                "or fromBody, token or link is required: where the next sync's value comes from")
            return nil
        }
        if found.count > 1 {
            reader.report(
                object.path(found[1].key), "and \(first.key) cannot both be set: choose one")
            return nil
        }
        return first.source
    }

    /// `param` or `bodyField`, when no placeholder says where the value goes.
    private static func loadPlacement(
        _ object: ObjectFields, method: HTTPMethod, source: Source?, placeholders: PlaceholderUse,
        _ reader: ConfigReader
    ) -> Placement? {
        let param = object.take("param").flatMap { reader.string($0, at: object.path("param")) }
        let bodyField = object.take("bodyField").flatMap { reader.pointer($0, at: object.path("bodyField")) }
        if case .link = source {
            if param != nil { reader.report(object.path("param"), "is not for a link: the next sync starts at it") }
            if bodyField != nil {
                reader.report(object.path("bodyField"), "is not for a link: the next sync starts at it")
            }
            if let path = placeholders.paths.first {
                reader.report(path, "{since} has no value with since.link: the next sync starts at the URL kept")
            }
            return nil
        }
        switch (param, bodyField) {
        case (let param?, nil):
            if param.isEmpty { reader.report(object.path("param"), "must not be empty") }
            return .query(param)
        case (nil, let pointer?):
            if method != .post { reader.report(object.path("bodyField"), "needs \"method\": \"POST\"") }
            if pointer == .root { reader.report(object.path("bodyField"), "must name a field, e.g. \"/since\"") }
            return .body(pointer)
        case (nil, nil):
            if placeholders.paths.isEmpty {
                reader.report(
                    object.path("param"),
                    "or bodyField is required, or a {since} placeholder in the url, query, headers or body: "
                        + "where the value is sent")
            }
            return nil
        case (_?, _?):
            reader.report(object.path("bodyField"), "and param cannot both be set: choose one")
            return nil
        }
    }

    /// `initial`: a time for a time, a text (or number) for a token; none for a link.
    private static func loadInitial(
        _ value: JSONValue, at path: String, source: Source?, format: Format, _ reader: ConfigReader
    ) -> SinceState? {
        switch source {
        case .link:
            reader.report(path, "is not for a link: the first sync asks for the resource's url")
            return nil
        case .token:
            switch value {
            case .string(let text): return .token(text)
            case .number(let text): return .token(text)
            default:
                reader.report(path, "must be the token the first sync sends, as a string")
                return nil
            }
        case .field, .body, nil:
            switch format.time(from: value) {
            case .success(let time):
                return .time(time)
            case .failure(let problem):
                let example = problem == .notATime ? #", such as "2024-01-01T00:00:00Z""# : ""
                reader.report(path, "is \(value.shown()), \(format.phrase(problem, of: value))\(example)")
            }
            return nil
        }
    }
}

/// Where a resource's request holds `{since}` placeholders (their paths in
/// the configuration), and the formats they give.
struct PlaceholderUse {
    /// Where `{since}` or `{since:FORMAT}` is.
    var paths: [String] = []
    /// Where `{since:FORMAT}` is.
    var formatPaths: [String] = []
    /// The values the placeholders fill, as written (not those `${…}` filled).
    var templated = IncrementalSettings.Templated()
}

/// A resource's `mode`: how each sync asks for its records.
private enum SyncMode: String {
    /// Every sync reads the whole collection (the default).
    case snapshot
    /// Each sync asks only for what changed since the last (`since`).
    case incremental
}
