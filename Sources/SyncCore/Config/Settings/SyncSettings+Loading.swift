import Streams

extension SyncSettings {
    /// `base` with what `fields` sets: the keys of `defaults`, and the same keys
    /// on a resource (docs/configuration.md#defaults-and-the-same-keys-on-any-resource).
    static func load(_ fields: ObjectFields, over base: SyncSettings, in context: ConfigContext) -> SyncSettings {
        let reader = context.reader
        var settings = base
        fields.assign(&settings.interval, "interval") { reader.duration($0, at: $1, atLeast: .milliseconds(100)) }
        fields.assign(&settings.pollJitter, "pollJitter") { reader.duration($0, at: $1, atLeast: .zero) }
        fields.assign(&settings.timeout, "timeout") { reader.duration($0, at: $1, atLeast: .milliseconds(10)) }
        fields.assign(&settings.slowAfter, "slowAfter") { reader.duration($0, at: $1, atLeast: .milliseconds(10)) }
        fields.assign(&settings.maxPages, "maxPages") { reader.integer($0, at: $1, in: 1...1_000_000) }
        fields.assign(&settings.maxResponseSize, "maxResponseSize") {
            reader.byteSize($0, at: $1, in: 1024...1_073_741_824)
        }
        if let value = fields.take("retry"), let retry = reader.object(value, at: fields.path("retry")) {
            settings.retry = RetryPolicy.load(retry, over: settings.retry, in: context)
            if let value = retry.take("on") {
                settings.retryOn = RetryRule.loadAll(value, at: retry.path("on"), in: context)
            }
            if let value = retry.take("never") {
                settings.retryNever = statuses(value, at: retry.path("never"), in: context)
            }
            retry.finish(reader)
        }
        if let value = fields.take("errorWhen") {
            settings.errorWhen = ErrorWhen.load(value, at: fields.path("errorWhen"), in: context)
        }
        if let value = fields.take("rateLimit"),
            let limit = reader.object(value, at: fields.path("rateLimit"))
        {
            settings.rateLimit = RateLimitSettings.load(limit, over: settings.rateLimit, in: context)
            limit.finish(reader)
        }
        if let value = fields.take("tls"), let object = reader.object(value, at: fields.path("tls")) {
            settings.tls = TLSSettings.load(object, over: settings.tls, in: context)
            object.finish(reader)
        }
        if let value = fields.take("auth") {
            if case .string(let name) = value {
                if let auth = Auth.named(name, at: fields.path("auth"), in: context) { settings.auth = auth }
            } else if let object = reader.object(value, at: fields.path("auth")) {
                settings.auth = Auth.load(object, name: nil, in: context)
                object.finish(reader)
            }
        }
        if let value = fields.take("proxy") {
            settings.proxy = ProxySettings.load(value, at: fields.path("proxy"), over: settings.proxy, in: context)
        }
        return settings
    }

    /// `retry.never`: statuses.
    private static func statuses(_ value: JSONValue, at path: String, in context: ConfigContext) -> Set<Int> {
        let reader = context.reader
        guard case .array(let elements) = value else {
            reader.report(path, "must be an array of HTTP statuses, e.g. [503]")
            return []
        }
        return Set(elements.enumerated().compactMap { reader.integer($1, at: "\(path)[\($0)]", in: 100...599) })
    }
}
