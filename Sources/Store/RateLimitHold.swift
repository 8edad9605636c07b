import Foundation

/// What an API said of a scope's rate limit that holds until a time
/// (docs/schema.md#rate_limit_holds): kept in the store so that every process of
/// the agent (a `refresh`, a restarted agent, another agent of a fleet) waits for
/// it instead of asking.
public struct RateLimitHold: Sendable, Hashable {
    /// What the API said, as stored in `rate_limit_holds.kind`.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// An answer said no request is left in the window (`X-Rate-Limit-Remaining: 0`)
        /// until the reset it named.
        case quota
        /// An answer refused a request as a rate limit (a 429, a `Retry-After`): no
        /// request until the wait it asked for, or the backoff when it named none, is over.
        case wait
    }

    /// The budget scope it holds (docs/configuration.md#request-budgets): the host by
    /// default, or `rateLimit.scope`.
    public var scope: String
    /// What the API said.
    public var kind: Kind
    /// No request of the scope goes before this time.
    public var until: Date
    /// When the API said so.
    public var toldAt: Date

    /// A hold as told.
    public init(scope: String, kind: Kind, until: Date, toldAt: Date) {
        self.scope = scope
        self.kind = kind
        self.until = until
        self.toldAt = toldAt
    }
}
