import Streams

extension RetryPolicy {
    /// `retry` (docs/configuration.md#failures-and-retries): `base` with the
    /// backoff `fields` sets; its `on` and `never` are ``SyncSettings``'.
    static func load(_ fields: ObjectFields, over base: RetryPolicy, in context: ConfigContext) -> RetryPolicy {
        let reader = context.reader
        var policy = base
        fields.assign(&policy.maxAttempts, "maxAttempts") { reader.integer($0, at: $1, in: 1...100) }
        fields.assign(&policy.initialDelay, "initialDelay") { reader.duration($0, at: $1, atLeast: .zero) }
        fields.assign(&policy.maxDelay, "maxDelay") { reader.duration($0, at: $1, atLeast: .zero) }
        fields.assign(&policy.multiplier, "multiplier") { reader.number($0, at: $1, in: 1...10) }
        fields.assign(&policy.jitter, "jitter") { reader.number($0, at: $1, in: 0...1) }
        if policy.maxDelay < policy.initialDelay {
            reader.report(
                fields.path("maxDelay"),
                "must be at least initialDelay (\(DurationText.format(policy.initialDelay)))")
        }
        return policy
    }
}
