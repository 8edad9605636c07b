extension DeletedRule {
    /// `deleted` (docs/configuration.md#deletions): `pointer`, with `equals`
    /// (a value, or a list of values any of which matches) or `"present": true`,
    /// and the deletion's own `key`; `nil` when it has a problem.
    static func load(_ value: JSONValue, at path: String, in context: ConfigContext) -> DeletedRule? {
        let reader = context.reader
        guard let fields = reader.object(value, at: path) else { return nil }
        defer { fields.finish(reader) }
        let problems = reader.problems.count
        var pointer: JSONPointer?
        if let value = fields.take("pointer") {
            pointer = reader.pointer(value, at: fields.path("pointer"))
            if pointer == .root { reader.report(fields.path("pointer"), "must name a field, e.g. \"/deleted\"") }
        } else {
            reader.report(fields.path("pointer"), "is required: the item field that marks a deletion")
        }
        var match = Match.equals([.bool(true)])
        let equals = fields.take("equals")
        if let value = fields.take("present"), let present = reader.boolean(value, at: fields.path("present")) {
            if !present {
                reader.report(
                    fields.path("present"), "must be true: a deletion is marked by a field that is there")
            } else if equals != nil {
                reader.report(fields.path("equals"), "and present cannot both be set: choose one")
            }
            match = .present
        } else if case .array(let values) = equals {
            if values.isEmpty {
                reader.report(fields.path("equals"), "must list at least one value, e.g. [\"deleted\", \"removed\"]")
            }
            match = .equals(values)
        } else if let equals {
            match = .equals([equals])
        }
        let key = fields.take("key").flatMap { reader.pointer($0, at: fields.path("key")) }
        guard reader.problems.count == problems, let pointer else { return nil }
        return DeletedRule(pointer: pointer, match: match, key: key)
    }
}
