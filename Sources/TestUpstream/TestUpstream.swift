import DemoUpstream
import Foundation

/// A small HTTP/1.1 JSON API on loopback for tests and benchmarks: the demo's upstream
/// (``DemoUpstream``: generated collections served in every pagination style of
/// docs/configuration.md#pagination, with ETags, and faults injected on demand: statuses,
/// latency, reset connections, bodies cut short, invalid JSON), and the routes
/// ``TestRoutes`` adds to it: the conventions of the APIs users sync from
/// (``ImitatedAPI``: GitHub, Stripe, Slack, Notion, Google, Shopify, Zendesk, Salesforce,
/// with their rate limits and tokens; and the ways Jira, Microsoft Graph, Shopify's GraphQL,
/// CouchDB and GitHub's search tell what changed), an OAuth2 server, `/echo` and `/redirect`.
///
/// Thread-safety: `Sendable`; every method may be called from any task while it serves.
public final class TestUpstream: Sendable {
    /// The address it listens on.
    public var host: String { server.host }
    /// The port it listens on.
    public var port: Int { server.port }
    /// Its origin, such as `http://127.0.0.1:8080`.
    public var baseURL: String { server.baseURL }

    private let server: DemoUpstream
    private let routes: TestRoutes

    private init(server: DemoUpstream, routes: TestRoutes) {
        self.server = server
        self.routes = routes
    }

    /// Starts serving on `host:port` (port 0 picks a free one) with collections of the given sizes.
    public static func start(
        host: String = "127.0.0.1", port: Int = 0, collections: [String: Int] = ["items": 250]
    ) async throws -> TestUpstream {
        let routes = TestRoutes()
        let server = try await DemoUpstream.start(host: host, port: port, collections: collections, routes: routes)
        return TestUpstream(server: server, routes: routes)
    }

    /// Stops listening; open connections are closed.
    public func stop() async {
        await server.stop()
    }

    /// Creates or resizes a collection to ids 1...`count`, and counts as a change.
    public func setCollection(_ name: String, count: Int) {
        server.setCollection(name, count: count)
    }

    /// Changes items (their `revision` grows).
    public func changeItems(_ name: String, ids: [Int]) {
        server.changeItems(name, ids: ids)
    }

    /// Removes items.
    public func removeItems(_ name: String, ids: [Int]) {
        server.removeItems(name, ids: ids)
    }

    /// Sets when a collection last changed: its pages' `Last-Modified` until it changes
    /// again (each change sets it to the time of the change).
    public func setModified(_ name: String, to date: Date) {
        server.setModified(name, to: date)
    }

    /// The JSON of item `id` of a collection, as served.
    public func item(_ collection: String, id: Int) -> String? {
        server.item(collection, id: id)
    }

    /// Adds a fault; the first fault matching a request applies.
    public func inject(_ fault: Fault) {
        server.inject(fault)
    }

    /// Removes every fault.
    public func clearFaults() {
        server.clearFaults()
    }

    /// The requests received so far (control requests excluded), oldest first.
    public var requests: [SeenRequest] { server.requests }
    /// The requests that ended so far (answered, or their connection closed),
    /// with when each did: how long each was in flight.
    public var exchanges: [Exchange] { server.exchanges }

    /// Forgets the requests received so far.
    public func clearRequests() {
        server.clearRequests()
    }

    /// How many requests had exactly this path.
    public func requestCount(path: String) -> Int {
        requests.filter { $0.path == path }.count
    }

    // MARK: Imitated APIs

    /// Sets the rate limit of an imitated API, or removes it (`nil`), with a full quota.
    /// A new upstream starts with each API's ``ImitatedAPI/defaultRateLimit`` (GitHub's
    /// 5,000 requests an hour, Shopify's bucket of 40 leaking 2 a second). An API sends its
    /// quota headers only while it has a limit; its refusals are logged in
    /// ``rateLimitLog``.
    public func setRateLimit(_ limit: UpstreamRateLimit?, for api: ImitatedAPI) {
        precondition(
            limit?.isValid ?? true, "a rate limit needs counts of zero or more and a window or leak above zero")
        routes.setRateLimit(limit, for: api)
    }

    /// The rate limit an imitated API enforces now.
    public func rateLimit(for api: ImitatedAPI) -> UpstreamRateLimit? {
        routes.rateLimit(for: api)
    }

    /// Makes an imitated API require `token` (`nil`: no token needed, the default), sent
    /// the API's way (`Authorization: Bearer TOKEN` for most, `X-Shopify-Access-Token` for
    /// Shopify); a request without it gets the API's own 401 (Slack's is a 200 with
    /// `not_authed` or `invalid_auth`), which does not count against its rate limit.
    public func requireToken(_ token: String?, for api: ImitatedAPI) {
        routes.setToken(token, for: api)
    }

    /// Makes every state token an imitated API issued so far too old, as an API does
    /// when it has forgotten a sync's state (Microsoft Graph's delta tokens answer 410
    /// `syncStateNotFound`); tokens issued from now on are good.
    public func expireStateTokens(of api: ImitatedAPI) {
        routes.expireStateTokens(of: api)
    }

    /// What a complete, exact copy of an imitated API's collection holds now: the JSON of
    /// each item as the API serves it, by the key the agent stores (a string's text, a
    /// number as written). Links in the items start with `origin` (the `baseURL` the
    /// requests named).
    public func imitatedRecords(_ api: ImitatedAPI, collection: String, origin: String? = nil) -> [String: String] {
        guard let dataset = server.dataset(named: collection) else { return [:] }
        return routes.records(api, collection: collection, dataset: dataset, origin: origin ?? baseURL)
    }

    /// Puts an OAuth2 authorization server (``OAuth2Server``) in front of the generic
    /// routes, at `/oauth/token`, or removes it (`nil`, the default: no token needed).
    public func requireOAuth2(_ server: OAuth2Server?) {
        routes.setOAuth2(server)
    }

    /// Makes the OAuth2 server forget the access tokens it issued: the API refuses them with 401.
    public func revokeOAuth2AccessTokens() {
        routes.revokeOAuth2AccessTokens()
    }

    /// The refresh token the OAuth2 server accepts now (it changes with each rotation).
    public var oauth2RefreshToken: String? { routes.oauth2RefreshToken }

    /// The rate-limited answers so far, and the requests that came before the time they
    /// allowed (computed from ``requests``: ``clearRequests()`` forgets those too).
    public var rateLimitLog: RateLimitLog { routes.rateLimitLog(requests: { server.requests }) }

    /// Forgets the rate-limited answers so far.
    public func clearRateLimitLog() {
        routes.clearRateLimitLog()
    }
}
