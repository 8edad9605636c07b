import Streams

/// The settings a resource may take from `defaults`.
package struct SyncSettings: Sendable, Hashable {
    /// Time from the end of the last successful sync to the next poll.
    package var interval: Duration = .seconds(60)
    /// The most random delay added to each poll.
    package var pollJitter: Duration = .zero
    /// The most time one request (head and body) may take.
    package var timeout: Duration = .seconds(30)
    /// The running time after which a sync is reported as slow.
    package var slowAfter: Duration = .seconds(5)
    /// How transient failures are retried.
    package var retry = RetryPolicy()
    /// The most pages one sync may fetch.
    package var maxPages = 10_000
    /// The largest response body accepted, in bytes.
    package var maxResponseSize = 32 * 1024 * 1024
    /// `retry.on`: responses retried although their status alone would not be.
    package var retryOn: [RetryRule] = []
    /// `retry.never`: statuses never retried, even those retried by default.
    package var retryNever: Set<Int> = []
    /// `errorWhen`: a successful status whose body says the request failed.
    package var errorWhen: ErrorWhen?
    /// `rateLimit`: the request budget, its scope, and the longest wait.
    package var rateLimit = RateLimitSettings()
    /// `auth`: how requests prove who sends them.
    package var auth: Auth?
    /// `tls`: whom HTTPS trusts, and the client certificate it shows.
    package var tls = TLSSettings()
    /// `proxy`, else the environment's proxies: which proxy each request goes through.
    package var proxy = ProxySettings()
}
