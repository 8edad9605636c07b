import Foundation

/// What a ``RateLimiter`` decided for one request, and the quota after it.
struct RateLimitDecision: Sendable {
    /// Whether the request is answered normally.
    var admitted: Bool
    /// The window's request count, or the bucket's size.
    var limit: Int
    /// Requests counted in the window, or the bucket's level rounded up, after this request.
    var used: Int
    /// When the quota next allows a request: the window's end (a whole epoch second), or
    /// when the bucket will have room for one more.
    var resetAt: Date
    /// When the decision was taken.
    var now: Date

    /// Requests left before the limit.
    var remaining: Int { max(0, limit - used) }

    /// Seconds from `now` to `resetAt`, never negative.
    var wait: Double { max(0, resetAt.timeIntervalSince(now)) }

    /// `wait` rounded up to whole seconds (at least one when the request was refused),
    /// for `Retry-After` in seconds: waiting that long is never too early.
    var waitSeconds: Int {
        let seconds = Int(wait.rounded(.up))
        return admitted ? seconds : max(1, seconds)
    }
}

/// One imitated API's rate limit as a state machine: each request asks ``admit(at:counts:)``,
/// with the time given, so it runs without a clock.
///
/// Thread-safety: a value; ``UpstreamState`` keeps it behind its lock.
struct RateLimiter: Sendable {
    let limit: UpstreamRateLimit
    private var state = State.idle

    private enum State {
        case idle
        /// A fixed window ending at `end` (a whole epoch second), `used` requests in it.
        case window(end: Date, used: Int)
        /// A leaky bucket holding `level` requests at `at`.
        case bucket(level: Double, at: Date)
    }

    /// A tolerance for the bucket's floating-point level, so that a client that waited
    /// the time told (rounded up) finds room.
    private static let epsilon = 1e-6

    init(_ limit: UpstreamRateLimit) {
        self.limit = limit
    }

    /// Decides on a request arriving at `now`. A request that does not count (GitHub's
    /// 304) is admitted without using the quota, and the decision reports the quota.
    mutating func admit(at now: Date, counts: Bool = true) -> RateLimitDecision {
        switch limit {
        case .fixedWindow(let requests, _):
            var (end, used) = (Date.distantPast, 0)
            if case .window(let currentEnd, let currentUsed) = state, now < currentEnd {
                (end, used) = (currentEnd, currentUsed)
            } else {
                let start = now.timeIntervalSince1970.rounded(.down)
                end = Date(timeIntervalSince1970: start + Double(limit.windowSeconds))
            }
            let admitted = !counts || used < requests
            if counts && admitted { used += 1 }
            state = .window(end: end, used: used)
            return RateLimitDecision(admitted: admitted, limit: requests, used: used, resetAt: end, now: now)
        case .leakyBucket(let size, let leaksPerSecond):
            var level = 0.0
            var now = now
            if case .bucket(let previous, let at) = state {
                // Requests may be decided a little out of their arrival order: time never goes back.
                now = max(now, at)
                level = max(0, previous - now.timeIntervalSince(at) * leaksPerSecond)
            }
            let admitted = !counts || level + 1 <= Double(size) + Self.epsilon
            if counts && admitted { level += 1 }
            state = .bucket(level: level, at: now)
            let untilRoom = max(0, level + 1 - Double(size)) / leaksPerSecond
            return RateLimitDecision(
                admitted: admitted, limit: size, used: Int((level - Self.epsilon).rounded(.up)),
                resetAt: now.addingTimeInterval(untilRoom), now: now)
        }
    }
}
