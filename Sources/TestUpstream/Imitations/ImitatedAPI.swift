import DemoUpstream
import Foundation
import NIOCore

/// An API whose conventions the test upstream imitates under its own path prefix
/// (`/github/NAME`, `/stripe/NAME`, …): envelope, pagination, page sizes, error bodies,
/// rate-limit answers and quota headers, as their public documentation describes them.
/// ``Routes`` has the table of paths.
public enum ImitatedAPI: String, Sendable, Hashable, CaseIterable {
    /// GitHub REST: a JSON array, `Link` pagination, `x-ratelimit-*` headers.
    case github
    /// Stripe list API: `limit`, `starting_after`, `has_more`.
    case stripe
    /// Slack Web API: cursor in `response_metadata.next_cursor`.
    case slack
    /// Notion database query: `POST` with `start_cursor` and `page_size` in the body.
    case notion
    /// Google APIs: `maxResults`, `pageToken`, `nextPageToken`.
    case google
    /// Shopify REST Admin: `page_info` cursors in `Link`, a leaky bucket.
    case shopify
    /// Zendesk cursor-based incremental exports: `after_cursor`, `end_of_stream`.
    case zendesk
    /// Salesforce query: `nextRecordsUrl`, `Sforce-Query-Options: batchSize=N`.
    case salesforce
    /// Okta's users list: `after` cursors in `Link`, `X-Rate-Limit-*` headers.
    case okta
    /// Linear's GraphQL API: `variables.after`, `pageInfo`, `X-RateLimit-Requests-*` headers.
    case linear

    /// The first component of its paths, such as `/github`.
    public var pathPrefix: String { "/" + rawValue }

    /// The rate limit a new upstream starts with: GitHub's 5,000 requests an hour and
    /// Shopify's bucket of 40 leaking 2 a second, whose quota headers are on every
    /// answer; no limit for the others.
    public var defaultRateLimit: UpstreamRateLimit? {
        switch self {
        case .github: .github
        case .shopify: .shopify
        default: nil
        }
    }

    /// The API whose prefix starts `path`.
    init?(path: String) {
        guard let first = path.split(separator: "/").first, let api = ImitatedAPI(rawValue: String(first)) else {
            return nil
        }
        self = api
    }

    var imitation: any Imitation.Type {
        switch self {
        case .github: GitHubImitation.self
        case .stripe: StripeImitation.self
        case .slack: SlackImitation.self
        case .notion: NotionImitation.self
        case .google: GoogleImitation.self
        case .shopify: ShopifyImitation.self
        case .zendesk: ZendeskImitation.self
        case .salesforce: SalesforceImitation.self
        case .okta: OktaImitation.self
        case .linear: LinearImitation.self
        }
    }
}

/// One imitated API's conventions: its pages, its quota headers, how it refuses a request
/// over its rate limit, and how it refuses a request without the token it requires.
protocol Imitation {
    /// The page or error answered to `request` for the collection `name`.
    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply

    /// The headers that report the quota on every answer, when a limit is set.
    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)]

    /// The status of a refusal: 403 or 429.
    static var refusalStatus: Int { get }

    /// The answer to a request that the limit refused (its quota headers included).
    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome

    /// Until when a refusal sent at `answeredAt` told the client to wait, or `nil` when it
    /// told no wait.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date?

    /// The token the request presents, as this API expects it to be sent.
    static func presentedToken(_ request: SeenRequest) -> String?

    /// The answer to a request whose token is missing (`nil`) or wrong.
    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome
}

extension Imitation {
    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] { [] }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer ") else {
            return nil
        }
        return String(authorization.dropFirst("Bearer ".count))
    }

    /// `answeredAt` plus the whole seconds of `Retry-After`.
    static func afterRetryAfterSeconds(_ quota: RateLimitDecision, answeredAt: Date) -> Date {
        answeredAt.addingTimeInterval(Double(quota.waitSeconds))
    }

    /// The body with the JSON items of `ids` as an array, between `prefix` and `suffix`.
    static func body(_ prefix: String, _ ids: [Int], of dataset: Dataset, _ suffix: String) -> ByteBuffer {
        var body = ByteBuffer()
        body.writeString(prefix)
        Routes.writeItems(ids, of: dataset, to: &body)
        body.writeString(suffix)
        return body
    }

    /// `text` in base64 (URL-safe alphabet, no padding when `padded` is false), for the
    /// opaque cursors of the imitations.
    static func base64(_ text: String, urlSafe: Bool = false, padded: Bool = true) -> String {
        var encoded = Data(text.utf8).base64EncodedString()
        if urlSafe {
            encoded = encoded.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        return padded ? encoded : encoded.replacingOccurrences(of: "=", with: "")
    }

    /// The text that ``base64(_:urlSafe:padded:)`` encoded, in either alphabet, with or
    /// without padding.
    static func unbase64(_ encoded: String) -> String? {
        var standard = encoded.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).flatMap { String(data: $0, encoding: .utf8) }
    }
}
