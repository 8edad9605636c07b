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

    /// Creates a notice.
    package init(request: String, cause: String, attempt: Int, maxAttempts: Int, delay: Duration) {
        self.request = request
        self.cause = cause
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.delay = delay
    }

    /// The notice as one line: `retrying GET https://… in 1s (attempt 2 of 5): the server answered 503 …`.
    package var sentence: String {
        "retrying \(request) in \(DurationText.approximate(delay)) (attempt \(attempt) of \(maxAttempts)): \(cause)"
    }
}
