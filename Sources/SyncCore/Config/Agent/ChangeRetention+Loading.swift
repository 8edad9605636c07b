extension ChangeRetention {
    /// `changes` (docs/configuration.md#the-change-feed): `{"keep": "7d", "maxRows": 1000000}`.
    static func load(_ value: JSONValue?, at path: String, in context: ConfigContext) -> ChangeRetention {
        let reader = context.reader
        var retention = ChangeRetention()
        guard let value, let fields = reader.object(value, at: path) else { return retention }
        if let value = fields.take("keep"),
            let keep = reader.duration(value, at: fields.path("keep"), atLeast: .seconds(60))
        {
            retention.keep = keep
        }
        if let value = fields.take("maxRows"),
            let rows = reader.integer(value, at: fields.path("maxRows"), in: 1000...1_000_000_000)
        {
            retention.maxRows = rows
        }
        fields.finish(reader)
        return retention
    }
}
