/// How often and how patiently to retry a failed operation.
///
/// Attempts are counted from one: the first run is attempt 1, so
/// `maxAttempts: 5` means the first run and at most four retries. The delay
/// before attempt `n + 1` is `initialDelay × multiplierⁿ⁻¹`, capped at
/// `maxDelay`, then spread by ±`jitter` (a fraction: 0.2 means ±20 %). An error
/// may demand a longer wait (HTTP `Retry-After`); the wait is then the larger of
/// the two, capped at ``maximumRequestedDelay``.
public struct RetryPolicy: Sendable, Hashable {
    /// The most attempts in all, the first one included. At least 1.
    public var maxAttempts: Int
    /// The delay before the second attempt.
    public var initialDelay: Duration
    /// The largest backoff delay.
    public var maxDelay: Duration
    /// The factor by which the delay grows after each failed attempt. At least 1.
    public var multiplier: Double
    /// The relative random spread of each delay, from 0 (none) to 1 (±100 %).
    public var jitter: Double

    /// The cap on a delay that an error asks for (one hour).
    public static let maximumRequestedDelay: Duration = .seconds(3600)

    /// Creates a retry policy.
    public init(
        maxAttempts: Int = 5,
        initialDelay: Duration = .seconds(1),
        maxDelay: Duration = .seconds(60),
        multiplier: Double = 2.0,
        jitter: Double = 0.2
    ) {
        self.maxAttempts = max(1, maxAttempts)
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = max(1, multiplier)
        self.jitter = min(max(0, jitter), 1)
    }

    /// The backoff before the attempt after `failedAttempt` (1-based), without jitter.
    public func backoff(afterAttempt failedAttempt: Int) -> Duration {
        let exponent = Double(max(0, failedAttempt - 1))
        let seconds = initialDelay.seconds * power(multiplier, exponent)
        return .seconds(min(seconds, maxDelay.seconds))
    }

    /// The delay before the attempt after `failedAttempt`, with jitter drawn from
    /// `unit` (a value in 0..<1) and at least `requested`, capped at one hour.
    public func delay(afterAttempt failedAttempt: Int, requested: Duration? = nil, unit: Double) -> Duration {
        let base = backoff(afterAttempt: failedAttempt).seconds
        let spread = base * jitter * (2 * unit - 1)
        var seconds = max(0, base + spread)
        if let requested {
            seconds = max(seconds, min(requested.seconds, Self.maximumRequestedDelay.seconds))
        }
        return .seconds(seconds)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) / 1e18
    }
}

/// `base` to the power of a small, whole, non-negative exponent, without
/// depending on Foundation; it stops growing once far beyond any delay cap.
private func power(_ base: Double, _ exponent: Double) -> Double {
    var result = 1.0
    var remaining = Int(exponent)
    while remaining > 0 {
        result *= base
        remaining -= 1
        if result > 1e12 { return result }
    }
    return result
}
