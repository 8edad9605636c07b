import Foundation

/// How far a running sync has come, reported after each page and before each retry.
package struct SyncProgress: Sendable, Hashable, Codable {
    /// The resource being synced.
    package var resource: String
    /// Pages received so far.
    package var pages: Int
    /// Items received so far.
    package var items: Int
    /// Attempts so far: 1 plus the retries of its requests.
    package var attempts: Int
    /// The retry about to happen, when this report is about one (not part
    /// of the `progress` event: a retry is a `retry` event of its own).
    package var retry: RetryNotice?

    private enum CodingKeys: String, CodingKey {
        case resource, pages, items, attempts
    }

    /// Creates a progress report.
    package init(resource: String, pages: Int, items: Int, attempts: Int = 1, retry: RetryNotice? = nil) {
        self.resource = resource
        self.pages = pages
        self.items = items
        self.attempts = attempts
        self.retry = retry
    }
}

/// A request that failed and will be tried again.
package struct RetryNotice: Sendable, Hashable {
    /// The request, as `GET https://…`, secrets scrubbed.
    package var request: String
    /// Why it failed.
    package var cause: String
    /// The attempt that follows the wait.
    package var attempt: Int
    /// The most attempts the retry policy allows.
    package var maxAttempts: Int
    /// How long it waits before trying again.
    package var delay: Duration
    /// When the wait is a rate limit's (or the request budget's), when it
    /// ends: the resource shows `waiting`, and the wait uses up no attempt.
    package var rateLimitedUntil: Date?
    /// Whether that wait is the request budget's (the agent spacing its
    /// requests) rather than a rate limit the server answered.
    package var waitsForBudget = false

    /// Creates a notice.
    package init(
        request: String, cause: String, attempt: Int, maxAttempts: Int, delay: Duration,
        rateLimitedUntil: Date? = nil
    ) {
        self.request = request
        self.cause = cause
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.rateLimitedUntil = rateLimitedUntil
    }

    /// The notice as one line: `retrying GET https://… in 1s (attempt 2 of 5): the server answered 503 …`,
    /// or for a rate limit the resource's message, `rate limited until 10:42:07`.
    package var sentence: String {
        if let rateLimitedUntil { return Self.rateLimitMessage(until: rateLimitedUntil) }
        return
            "retrying \(request) in \(DurationText.approximate(delay)) (attempt \(attempt) of \(maxAttempts)): \(cause)"
    }

    /// The notice for the log: for a rate limit, its message with the wait, the request and the cause.
    package var logLine: String {
        guard rateLimitedUntil != nil else { return sentence }
        return "\(sentence) (\(DurationText.approximate(delay))): \(request): \(cause)"
    }

    /// `rate limited until 10:42:07`, in the machine's local time (docs/api.md#resource).
    package static func rateLimitMessage(until date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.up))
        var parts = tm()
        localtime_r(&seconds, &parts)
        let clock = String(format: "%02d:%02d:%02d", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
        return "rate limited until \(clock)"
    }
}
