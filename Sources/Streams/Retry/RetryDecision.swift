/// What ``AsyncSequence/retryIf(policy:clock:random:onRetry:_:)`` does after a failure.
public struct RetryDecision: Sendable, Hashable {
    enum Kind: Hashable {
        case giveUp
        case retry(after: Duration?)
        case retryUncounted
        case wait(Duration)
    }

    let kind: Kind

    /// Let the error end the sequence: it cannot succeed later.
    public static let giveUp = RetryDecision(kind: .giveUp)

    /// Try again after the policy's backoff, or after `minimum` if that is
    /// longer (an HTTP `Retry-After`). The attempt counts against `maxAttempts`.
    public static func retry(after minimum: Duration? = nil) -> RetryDecision {
        RetryDecision(kind: .retry(after: minimum))
    }

    /// Try again after the current backoff without using up an attempt: the
    /// failure says nothing about the work (the machine went offline, and a
    /// ``AsyncSequence/pausable(by:startOpen:)`` gate upstream holds the next attempt
    /// until it is back).
    public static let retryUncounted = RetryDecision(kind: .retryUncounted)

    /// Try again after exactly `delay`, without using up an attempt: the
    /// failure says the work may not be tried before then (an HTTP rate limit
    /// with its reset time), not that it went wrong.
    public static func wait(_ delay: Duration) -> RetryDecision {
        RetryDecision(kind: .wait(delay))
    }
}

/// A retry about to happen, as told to `onRetry`.
public struct RetryEvent: Sendable {
    /// The attempt that will run after the delay (2 for the first retry).
    public var attempt: Int
    /// The most attempts the policy allows.
    public var maxAttempts: Int
    /// How long the retry waits before it runs.
    public var delay: Duration
    /// The failure being retried.
    public var error: any Error
    /// Whether the failure used up an attempt (see ``RetryDecision/retryUncounted``).
    public var counted: Bool

    /// Creates an event: retryIf makes them, and so does a caller that waits
    /// on its own before an attempt (a request budget).
    public init(attempt: Int, maxAttempts: Int, delay: Duration, error: any Error, counted: Bool) {
        self.attempt = attempt
        self.maxAttempts = maxAttempts
        self.delay = delay
        self.error = error
        self.counted = counted
    }
}
