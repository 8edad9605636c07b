extension ResponseMatch {
    /// The parts of a response test in `fields`: `status`, `bodyContains`,
    /// `pointer` and `equals` (docs/configuration.md#saying-what-is-transient);
    /// without `statusAllowed`, only `pointer` and `equals`.
    static func load(_ fields: ObjectFields, statusAllowed: Bool, in context: ConfigContext) -> ResponseMatch? {
        let reader = context.reader
        var match = ResponseMatch()
        let before = reader.problems.count
        if statusAllowed, let value = fields.take("status") {
            match.status = reader.integer(value, at: fields.path("status"), in: 100...599)
        }
        if statusAllowed, let value = fields.take("bodyContains"),
            let text = reader.string(value, at: fields.path("bodyContains"))
        {
            if text.isEmpty { reader.report(fields.path("bodyContains"), "must not be empty") }
            match.bodyContains = text
        }
        if let value = fields.take("pointer") { match.pointer = reader.pointer(value, at: fields.path("pointer")) }
        if let value = fields.take("equals") {
            match.equals = value
            if !fields.has("pointer") {
                reader.report(fields.path("equals"), "needs a \"pointer\" to the value it compares")
            }
        }
        guard reader.problems.count == before else { return nil }
        if match.status == nil, match.bodyContains == nil, match.pointer == nil {
            reader.report(
                fields.path,
                statusAllowed
                    ? "must test something: \"status\", \"bodyContains\" or \"pointer\""
                    : "needs a \"pointer\" (and usually \"equals\")")
            return nil
        }
        return match
    }
}

extension RetryRule {
    /// `retry.on`: a list of rules, each a response test and what it is taken for.
    static func loadAll(_ value: JSONValue, at path: String, in context: ConfigContext) -> [RetryRule] {
        let reader = context.reader
        guard case .array(let elements) = value else {
            reader.report(
                path, "must be an array of rules such as {\"status\": 403, \"bodyContains\": \"rateLimit\"}")
            return []
        }
        var rules: [RetryRule] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let fields = reader.object(element, at: elementPath) else { continue }
            let treatment =
                reader.choice(fields, "as", else: "must be \"transient\" or \"rateLimit\"")
                ?? RetryRule.Treatment.transient
            let match = ResponseMatch.load(fields, statusAllowed: true, in: context)
            fields.finish(reader)
            if let match { rules.append(RetryRule(match: match, treatment: treatment)) }
        }
        return rules
    }
}

extension ErrorWhen {
    /// `errorWhen` (docs/configuration.md#errors-inside-a-successful-answer):
    /// `pointer`, `equals` and `message`.
    static func load(_ value: JSONValue, at path: String, in context: ConfigContext) -> ErrorWhen? {
        let reader = context.reader
        guard let fields = reader.object(value, at: path) else { return nil }
        let match = ResponseMatch.load(fields, statusAllowed: false, in: context)
        let message = fields.take("message").flatMap { reader.pointer($0, at: fields.path("message")) }
        fields.finish(reader)
        return match.map { ErrorWhen(match: $0, message: message) }
    }
}
