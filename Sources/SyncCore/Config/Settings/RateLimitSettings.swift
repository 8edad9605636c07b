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
    /// The API's own names for its quota headers (`rateLimit.headers`), read
    /// before the usual ones.
    package var headers = QuotaHeaderNames()

    /// Requests per period, with a burst.
    package struct Budget: Sendable, Hashable {
        package var requests: Int
        package var per: Duration
        /// How many requests may go at once after a quiet time; `requests` by default.
        package var burst: Int
    }
}

/// `rateLimit.headers` (docs/configuration.md#what-answers-say-about-the-quota): the names an API
/// gives its quota headers, such as Linear's `X-RateLimit-Requests-Remaining`.
/// Each one named is read before the usual names; one left out is read under
/// them.
package struct QuotaHeaderNames: Sendable, Hashable {
    /// The header that tells how many requests are left in the window.
    package var remaining: String?
    /// The header that tells when the window resets: epoch seconds or
    /// milliseconds, or seconds from now.
    package var reset: String?
    /// The header that tells the window's size in requests.
    package var limit: String?

    /// Names as told; none by default.
    package init(remaining: String? = nil, reset: String? = nil, limit: String? = nil) {
        self.remaining = remaining
        self.reset = reset
        self.limit = limit
    }
}
