/// How far a running sync has come, reported after each page and before each retry.
public struct SyncProgress: Sendable, Hashable {
    /// The resource being synced.
    public var resource: String
    /// Pages received so far.
    public var pages: Int
    /// Items received so far.
    public var items: Int
    /// Attempts so far: 1 plus the retries of its requests.
    public var attempts: Int
    /// The retry about to happen, when this report is about one.
    public var retry: RetryNotice?

    /// Creates a progress report.
    public init(resource: String, pages: Int, items: Int, attempts: Int = 1, retry: RetryNotice? = nil) {
        self.resource = resource
        self.pages = pages
        self.items = items
        self.attempts = attempts
        self.retry = retry
    }
}

/// A request that failed and will be tried again.
public struct RetryNotice: Sendable, Hashable {
    /// The request, as `GET https://…`, secrets scrubbed.
    public var request: String
    /// Why it failed.
    public var cause: String
    /// The attempt that follows the wait.
    public var attempt: Int
    /// The most attempts the retry policy allows.
    public var maxAttempts: Int
    /// How long it waits before trying again.
    public var delay: Duration

    /// The notice as one line: `retrying GET https://… in 1s (attempt 2 of 5): the server answered 503 …`.
    public var sentence: String {
        "retrying \(request) in \(DurationText.approximate(delay)) (attempt \(attempt) of \(maxAttempts)): \(cause)"
    }
}
