extension RateLimitSettings {
    /// `rateLimit` (docs/configuration.md#request-budgets): `base` with the
    /// `requests` per `per` with a `burst`, the `scope`, the `maxWait` and the
    /// quota `headers` that `fields` sets.
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
        if let value = fields.take("headers"), let object = reader.object(value, at: fields.path("headers")) {
            limit.headers = QuotaHeaderNames.load(object, in: context)
            object.finish(reader)
        }
        return limit
    }
}

extension QuotaHeaderNames {
    /// `rateLimit.headers` (docs/configuration.md#what-answers-say-about-the-quota): `remaining`,
    /// `reset` and `limit`, each an HTTP header name. They replace the names
    /// that `defaults` gives as a whole.
    static func load(_ fields: ObjectFields, in context: ConfigContext) -> QuotaHeaderNames {
        let reader = context.reader
        func name(_ key: String) -> String? {
            guard let value = fields.take(key), let text = reader.string(value, at: fields.path(key)) else {
                return nil
            }
            guard ResourceConfig.isToken(text) else {
                reader.report(fields.path(key), "must be an HTTP header name, e.g. \"X-RateLimit-Remaining\"")
                return nil
            }
            return text
        }
        return QuotaHeaderNames(remaining: name("remaining"), reset: name("reset"), limit: name("limit"))
    }
}
