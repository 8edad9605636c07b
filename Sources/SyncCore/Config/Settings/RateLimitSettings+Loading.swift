extension RateLimitSettings {
    /// `rateLimit` (docs/configuration.md#request-budgets): `base` with the
    /// `requests` per `per` with a `burst`, the `scope` and the `maxWait` that
    /// `fields` sets.
    static func load(
        _ fields: ObjectFields, over base: RateLimitSettings, in context: ConfigContext
    ) -> RateLimitSettings {
        let reader = context.reader
        var limit = base
        let requests = fields.take("requests").flatMap {
            reader.integer($0, at: fields.path("requests"), in: 1...1_000_000)
        }
        let per = fields.take("per").flatMap {
            reader.duration($0, at: fields.path("per"), atLeast: .milliseconds(1))
        }
        let burst = fields.take("burst").flatMap { reader.integer($0, at: fields.path("burst"), in: 1...1_000_000) }
        switch (requests, per) {
        case (let requests?, let per?):
            limit.budget = RateLimitSettings.Budget(requests: requests, per: per, burst: burst ?? requests)
        case (nil, nil):
            if let burst, var budget = limit.budget {
                budget.burst = burst
                limit.budget = budget
            } else if burst != nil {
                reader.report(fields.path("burst"), "needs \"requests\" and \"per\"")
            }
        case (_?, nil):
            if fields.has("per") { break }
            reader.report(fields.path("per"), "is required with \"requests\": the period, e.g. \"1h\"")
        case (nil, _?):
            if fields.has("requests") { break }
            reader.report(fields.path("requests"), "is required with \"per\": how many requests per period")
        }
        if let value = fields.take("scope"), let text = reader.string(value, at: fields.path("scope")) {
            if text.isEmpty { reader.report(fields.path("scope"), "must not be empty") }
            limit.scope = text
        }
        if let value = fields.take("maxWait"),
            let wait = reader.duration(value, at: fields.path("maxWait"), atLeast: .zero)
        {
            limit.maxWait = wait
        }
        return limit
    }
}
