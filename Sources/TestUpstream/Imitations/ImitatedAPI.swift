import DemoUpstream
import Foundation
import NIOCore

/// An API whose conventions the test upstream imitates under its own path prefix
/// (`/github/NAME`, `/stripe/NAME`, …) or, for the APIs whose way of telling what changed
/// it imitates, at the API's own path (`/rest/api/3/search/jql`, `/v1.0/users/delta`, …):
/// envelope, pagination, page sizes, error bodies, rate-limit answers and quota headers,
/// as their public documentation describes them. ``TestRoutes`` has the table of paths.
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
    /// Jira Cloud: JQL search with `nextPageToken`, and the project search that caps `maxResults`.
    case jira
    /// Microsoft Graph delta query of users: `@odata.nextLink`, `@odata.deltaLink`, `@removed`.
    case graph
    /// Shopify GraphQL Admin: orders with a search string and a cursor in `variables`.
    case shopifyGraphQL = "shopify-graphql"
    /// CouchDB's changes feed: `since`, `last_seq`, `pending`, deleted rows.
    case couchdb
    /// GitHub issue search: `updated:>=` in `q`, at most 1,000 results per query.
    case githubSearch = "github-search"
    /// Google Drive's changes: `pageToken`, `nextPageToken`, `newStartPageToken`, removed files.
    case drive
    /// GitLab's project issues: `updated_after`, `order_by=updated_at&sort=asc`, `page` and `per_page`.
    case gitlab

    /// What its paths start with, such as `/github` (`/rest/api/3` for Jira); `/` for
    /// CouchDB, whose paths start with the database's name.
    public var pathPrefix: String {
        switch self {
        case .jira: "/rest/api/3"
        case .graph: "/v1.0"
        case .shopifyGraphQL: "/admin/api"
        case .couchdb: "/"
        case .githubSearch: "/search"
        case .drive: "/drive/v3"
        case .gitlab: "/api/v4"
        default: "/" + rawValue
        }
    }

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

    /// The API whose paths `path` is one of.
    init?(path: String) {
        let parts = path.split(separator: "/")
        if path.hasPrefix("/rest/api/3/") {
            self = .jira
        } else if path.hasPrefix("/v1.0/") {
            self = .graph
        } else if path.hasPrefix("/admin/api/"), path.hasSuffix("/graphql.json") {
            self = .shopifyGraphQL
        } else if path == "/search/issues" {
            self = .githubSearch
        } else if path.hasPrefix("/drive/v3/") {
            self = .drive
        } else if path.hasPrefix("/api/v4/projects/"), path.hasSuffix("/issues") {
            self = .gitlab
        } else if parts.count == 2, parts[1] == "_changes" {
            self = .couchdb
        } else if let first = parts.first, let api = ImitatedAPI(rawValue: String(first)), api.hasOwnPrefix {
            self = api
        } else {
            return nil
        }
    }

    /// Whether its paths start with its name (`/github/NAME`) rather than with the API's own path.
    private var hasOwnPrefix: Bool {
        switch self {
        case .jira, .graph, .shopifyGraphQL, .couchdb, .githubSearch, .drive, .gitlab: false
        default: true
        }
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
        case .jira: JiraImitation.self
        case .graph: GraphImitation.self
        case .shopifyGraphQL: ShopifyGraphQLImitation.self
        case .couchdb: CouchDBImitation.self
        case .githubSearch: GitHubSearchImitation.self
        case .drive: DriveImitation.self
        case .gitlab: GitLabImitation.self
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

    /// The collection a request's path reads, when it is not the path's second component.
    static func collection(in path: String) -> String?

    /// The API's answer to a request whose state token (a delta token, a page token) was
    /// issued before `cutoff`, the time ``TestUpstream/expireStateTokens(of:)`` made every
    /// token issued so far too old; `nil` when the request holds no such token or a newer one.
    static func staleState(_ request: SeenRequest, issuedBefore cutoff: Date, origin: String) -> ResponsePlan.Outcome?

    /// The records a complete copy of `collection` holds now, by key (as the agent stores
    /// keys: a string's text, a number as written), each the JSON of the item as served.
    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String]
}

extension Imitation {
    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] { [] }

    static func collection(in path: String) -> String? { nil }

    static func staleState(_ request: SeenRequest, issuedBefore cutoff: Date, origin: String) -> ResponsePlan.Outcome? {
        nil
    }

    /// Every live item by its id, as ``Routes`` serves it.
    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        Dictionary(
            uniqueKeysWithValues: dataset.ids(offset: 0, limit: dataset.liveCount).map { ("\($0)", dataset.item($0)) })
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer ") else {
            return nil
        }
        return String(authorization.dropFirst("Bearer ".count))
    }

    /// A bearer token, or the password of Basic auth (Jira's and CouchDB's API tokens).
    static func bearerOrBasicPassword(_ request: SeenRequest) -> String? {
        guard let authorization = request.headers["authorization"] else { return nil }
        if authorization.hasPrefix("Bearer ") { return String(authorization.dropFirst("Bearer ".count)) }
        guard authorization.hasPrefix("Basic "),
            let credentials = unbase64(String(authorization.dropFirst("Basic ".count))),
            let colon = credentials.firstIndex(of: ":")
        else { return nil }
        return String(credentials[credentials.index(after: colon)...])
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
