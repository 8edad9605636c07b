import DemoUpstream
import Foundation

/// The upstream's rate-limited answers, and the requests that came before the time they
/// allowed: what a test reads to prove that a client never asks earlier than it was told.
///
/// A rate-limited answer is a refusal by an imitated API's limit (see
/// ``TestUpstream/setRateLimit(_:for:)``), or an injected ``Fault`` answering 403, 429 or
/// 503 with a `retryAfter`. Its allowed time is when the answer said the client may ask
/// again: `now + Retry-After` when it sent one, else the reset time it sent (GitHub's
/// `x-ratelimit-reset`, a whole epoch second). Stripe, Google and Salesforce tell no wait:
/// their refusals are counted but allow no time to check.
public struct RateLimitLog: Sendable {
    /// One rate-limited answer.
    public struct Entry: Sendable, Hashable {
        /// The imitated API whose limit refused the request, or `nil` for an injected fault.
        public var api: ImitatedAPI?
        /// The paths the wait applies to: this path and those below it (the API's prefix,
        /// such as `/github`, or the fault's path).
        public var scope: String
        /// The request that was refused.
        public var request: SeenRequest
        /// The status answered: 403, 429 or 503.
        public var status: Int
        /// When the answer was sent (after any injected delay).
        public var answeredAt: Date
        /// When the client may ask again, or `nil` when the answer told no wait.
        public var allowedAt: Date?

        /// Whether a request to `path` falls under this entry's wait.
        public func covers(path: String) -> Bool {
            path == scope || path.hasPrefix(scope.hasSuffix("/") ? scope : scope + "/")
        }
    }

    /// The rate-limited answers, oldest first.
    public var entries: [Entry]

    /// Requests that arrived after a rate-limited answer and before the time it allowed,
    /// for a path it covers, oldest first. A request arriving at the allowed time or later
    /// is allowed: for GitHub, any time from the start of the reset second.
    public var premature: [SeenRequest]

    /// How many answers were rate limited.
    public var limitedAnswers: Int { entries.count }

    /// The allowed times told, oldest answer first.
    public var allowedTimes: [Date] { entries.compactMap(\.allowedAt) }

    /// Builds the log from the entries and the requests received.
    init(entries: [Entry], requests: [SeenRequest]) {
        self.entries = entries
        let waits = entries.filter { $0.allowedAt != nil }
        premature = requests.filter { request in
            waits.contains { entry in
                entry.covers(path: request.path) && request.receivedAt > entry.answeredAt
                    && request.receivedAt < entry.allowedAt!
            }
        }
    }
}

extension RateLimitLog {
    /// The log as `/_control/ratelimit-log` answers it: `{"limitedAnswers", "entries":
    /// [{"api", "scope", "status", "path", "query", "answeredAt", "allowedAt"}], "premature":
    /// [{"method", "path", "query", "receivedAt"}]}`, times in epoch seconds.
    var controlJSON: String {
        let entries = entries.map { entry in
            let api = entry.api.map { "\"\($0.rawValue)\"" } ?? "null"
            let allowed = entry.allowedAt.map { "\($0.timeIntervalSince1970)" } ?? "null"
            return #"{"api":\#(api),"scope":\#(Routes.quote(entry.scope)),"status":\#(entry.status),"#
                + #""path":\#(Routes.quote(entry.request.path)),"query":\#(Routes.quote(entry.request.query)),"#
                + #""answeredAt":\#(entry.answeredAt.timeIntervalSince1970),"allowedAt":\#(allowed)}"#
        }
        let premature = premature.map { request in
            #"{"method":"\#(request.method)","path":\#(Routes.quote(request.path)),"#
                + #""query":\#(Routes.quote(request.query)),"receivedAt":\#(request.receivedAt.timeIntervalSince1970)}"#
        }
        return #"{"limitedAnswers":\#(limitedAnswers),"entries":[\#(entries.joined(separator: ","))],"#
            + #""premature":[\#(premature.joined(separator: ","))]}"#
    }
}
