import Foundation

extension IncrementalSettings {
    /// `mode`, `since` and `fullResyncEvery` (docs/configuration.md#incremental-resources):
    /// `nil` for a snapshot resource; `.some(nil)` for an incremental one with problems.
    static func load(_ fields: ObjectFields, method: HTTPMethod, in context: ConfigContext) -> IncrementalSettings?? {
        let reader = context.reader
        let mode = reader.choice(fields, "mode", else: "must be \"snapshot\" or \"incremental\"") ?? SyncMode.snapshot
        let since = fields.take("since")
        let every = fields.take("fullResyncEvery")
        guard mode == .incremental else {
            for (key, value) in [("since", since), ("fullResyncEvery", every)]
            where value != nil {
                reader.report(fields.path(key), "needs \"mode\": \"incremental\"")
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
        var source: IncrementalSettings.Source?
        let field = object.take("field").flatMap { reader.pointer($0, at: object.path("field")) }
        let fromBody = object.take("fromBody").flatMap { reader.pointer($0, at: object.path("fromBody")) }
        switch (field, fromBody) {
        case (let field?, nil): source = .field(field)
        case (nil, let body?): source = .body(body)
        case (nil, nil):
            reader.report(
                object.path("field"), "or fromBody is required: where the next sync's value comes from")
        case (_?, _?): reader.report(object.path("fromBody"), "and field cannot both be set: choose one")
        }
        var placement: IncrementalSettings.Placement?
        let param = object.take("param").flatMap { reader.string($0, at: object.path("param")) }
        let bodyField = object.take("bodyField").flatMap { reader.pointer($0, at: object.path("bodyField")) }
        switch (param, bodyField) {
        case (let param?, nil):
            if param.isEmpty { reader.report(object.path("param"), "must not be empty") }
            placement = .query(param)
        case (nil, let pointer?):
            if method != .post { reader.report(object.path("bodyField"), "needs \"method\": \"POST\"") }
            if pointer == .root { reader.report(object.path("bodyField"), "must name a field, e.g. \"/since\"") }
            placement = .body(pointer)
        case (nil, nil):
            reader.report(object.path("param"), "or bodyField is required: where the value is sent")
        case (_?, _?): reader.report(object.path("bodyField"), "and param cannot both be set: choose one")
        }
        let format =
            reader.choice(object, "format", else: "must be \"iso8601\", \"unixSeconds\" or \"unixMilliseconds\"")
            ?? IncrementalSettings.Format.iso8601
        var initial = Date(timeIntervalSince1970: 0)
        if let value = object.take("initial") {
            if let date = format.date(from: value) {
                initial = date
            } else {
                reader.report(
                    object.path("initial"),
                    "must be a time: an ISO 8601 date such as \"2024-01-01T00:00:00Z\", or a Unix time")
            }
        }
        var lookback = Duration.zero
        if let value = object.take("lookback"),
            let duration = reader.duration(value, at: object.path("lookback"), atLeast: .zero)
        {
            lookback = duration
        }
        object.finish(reader)
        let fullResyncEvery = every.flatMap {
            reader.duration($0, at: fields.path("fullResyncEvery"), atLeast: .seconds(1))
        }
        guard reader.problems.count == problems, let source, let placement else { return .some(nil) }
        return IncrementalSettings(
            source: source, placement: placement, format: format, initial: initial, lookback: lookback,
            fullResyncEvery: fullResyncEvery)
    }
}

/// A resource's `mode`: how each sync asks for its records.
private enum SyncMode: String {
    /// Every sync reads the whole collection (the default).
    case snapshot
    /// Each sync asks only for what changed since the last (`since`).
    case incremental
}
