import Foundation

/// A rate limit that an imitated API enforces, set with
/// ``TestUpstream/setRateLimit(_:for:)``.
///
/// How a refused request is answered, and which headers report the quota, is each
/// API's own (see ``ImitatedAPI``); the limit only says when a request is refused.
public enum UpstreamRateLimit: Sendable, Hashable {
    /// At most `requests` requests per window of `window` (rounded up to whole seconds,
    /// at least one). A window starts at the whole epoch second of the first request
    /// after the previous window ended, so its end is a whole epoch second too: a request
    /// at or after that second starts a new window.
    ///
    /// This is GitHub's primary limit (5,000 requests an hour,
    /// https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api) and
    /// Notion's per-connection budget per 60-second window
    /// (https://developers.notion.com/reference/request-limits).
    case fixedWindow(requests: Int, window: Duration)

    /// A bucket of `size` requests that leaks `leaksPerSecond` requests a second: a
    /// request that would overflow it is refused, and the wait told is the time until one
    /// request has leaked.
    ///
    /// This is Shopify's REST Admin API limit: a bucket of 40 that leaks 2 a second
    /// (https://shopify.dev/docs/api/admin-rest/usage/rate-limits).
    case leakyBucket(size: Int, leaksPerSecond: Double)

    /// GitHub's primary limit for an authenticated user: 5,000 requests an hour.
    public static let github = UpstreamRateLimit.fixedWindow(requests: 5000, window: .seconds(3600))

    /// Shopify's REST Admin API limit on the standard plan: a bucket of 40 leaking 2 a second.
    public static let shopify = UpstreamRateLimit.leakyBucket(size: 40, leaksPerSecond: 2)

    /// The window in whole seconds, at least one.
    var windowSeconds: Int {
        guard case .fixedWindow(_, let window) = self else { return 1 }
        let (seconds, attoseconds) = window.components
        return max(1, Int(seconds) + (attoseconds > 0 ? 1 : 0))
    }

    /// Whether its numbers make sense: no negative count, a window and a leak above zero.
    var isValid: Bool {
        switch self {
        case .fixedWindow(let requests, let window): requests >= 0 && window > .zero
        case .leakyBucket(let size, let leaksPerSecond): size >= 1 && leaksPerSecond > 0
        }
    }
}

extension UpstreamRateLimit {
    /// A rate limit from `/_control/ratelimits/API` JSON: `{"requests", "windowSeconds"}`
    /// or `{"bucketSize", "leaksPerSecond"}`.
    init?(controlBody body: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            return nil
        }
        if let requests = object["requests"] as? Int, let seconds = object["windowSeconds"] as? Int {
            self = .fixedWindow(requests: requests, window: .seconds(seconds))
        } else if let size = object["bucketSize"] as? Int, let leak = object["leaksPerSecond"] as? Double {
            self = .leakyBucket(size: size, leaksPerSecond: leak)
        } else {
            return nil
        }
    }
}
