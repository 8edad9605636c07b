import Foundation

/// A fault the upstream (``DemoUpstream``) injects into matching requests: a delay, then an
/// error status, a reset connection, a body cut short, or invalid JSON.
public struct Fault: Sendable {
    /// What the upstream does instead of answering normally.
    public enum Action: Sendable, Equatable {
        /// Answer normally (after the delay, if any).
        case respond
        /// Answer with this status and `body` (a short JSON error by default); `retryAfter`
        /// becomes the `Retry-After` header.
        case status(Int, retryAfter: String? = nil, body: String? = nil)
        /// Reset the connection (TCP RST) without answering.
        case reset
        /// Send the head and half the body, then close the connection.
        case truncate
        /// Answer 200 with a body that is not valid JSON.
        case invalidJSON
        /// Answer normally, but with this `Content-Length`, as written, whatever
        /// the body's size: a size no body has (`9223372036854775808`).
        case contentLength(String)
    }

    /// The request path this fault applies to: equal, or a prefix followed by `/`.
    public var path: String
    /// A text the query string must contain, such as `page=3`.
    public var query: String?
    /// How many requests it applies to; `nil` means every one.
    public var times: Int?
    /// How long to wait before acting.
    public var delay: Duration
    /// What to do.
    public var action: Action

    /// Creates a fault.
    public init(
        path: String, query: String? = nil, times: Int? = nil, delay: Duration = .zero, action: Action = .respond
    ) {
        self.path = path
        self.query = query
        self.times = times
        self.delay = delay
        self.action = action
    }

    func matches(path requestPath: String, query requestQuery: String) -> Bool {
        guard requestPath == path || requestPath.hasPrefix(path.hasSuffix("/") ? path : path + "/") else {
            return false
        }
        guard let query else { return true }
        return requestQuery.split(separator: "&").contains { $0 == query } || requestQuery.contains(query)
    }
}

/// A request the upstream received.
public struct SeenRequest: Sendable, Hashable {
    /// `GET`, `POST`, …
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query string, without `?`.
    public var query: String
    /// The request headers, names lowercased.
    public var headers: [String: String]
    /// The request body.
    public var body: String
    /// When it arrived.
    public var arrived = ContinuousClock.now
    /// When it arrived, by the wall clock: what `TestUpstream`'s rate limits and their log
    /// go by, since their reset times are wall-clock times (GitHub's are epoch seconds).
    public var receivedAt = Date()
}

/// A request the upstream received and how long it was in flight: from its
/// arrival until its answer was written, or its connection closed.
public struct Exchange: Sendable, Hashable {
    /// The request.
    public var request: SeenRequest
    /// When its answer was written whole, or the connection closed without one.
    public var ended: ContinuousClock.Instant
}
