/// `rateLimit` (docs/configuration.md#rate-limits): how fast a resource may send, and how long it may wait.
package struct RateLimitSettings: Sendable, Hashable {
    /// A budget of `requests` per `per`, when told.
    package var budget: Budget?
    /// The budget's name; resources with the same scope share one budget
    /// and one rate limit. `nil`: the URL's host.
    package var scope: String?
    /// The longest rate-limit wait within one sync; a longer one ends the
    /// sync as `rateLimited`, and the next poll comes at the reset.
    package var maxWait: Duration = .seconds(3600)

    /// Requests per period, with a burst.
    package struct Budget: Sendable, Hashable {
        package var requests: Int
        package var per: Duration
        /// How many requests may go at once after a quiet time; `requests` by default.
        package var burst: Int
    }
}
