import Foundation
import Store
import Streams

/// A loaded, validated configuration (docs/configuration.md#configuration):
/// every path absolute, every default applied, every `${…}` substituted.
package struct AgentConfig: Sendable {
    /// The configuration file's absolute path.
    package var file: String
    /// The database file's absolute path.
    package var database: String
    /// What the agent does with a database that is corrupt at start.
    package var corruptDatabase: CorruptDatabase
    /// Where the copy is kept: the SQLite file `database`, or a PostgreSQL schema.
    package var store = StoreChoice.sqlite
    /// How long a fleet's lease on a resource lasts without renewal (docs/fleet.md#leases).
    package var leaseTime = PostgresLeases.defaultLeaseTime
    /// The status socket's absolute path.
    package var socket: String
    /// The socket file's permission bits, such as `0o660`.
    package var socketMode: UInt32
    /// How the agent tells whether the machine is online.
    package var connectivity: Connectivity
    /// How long the change feed keeps its changes.
    package var changeRetention = ChangeRetention()
    /// How many syncs the agent's polls run at once.
    package var syncLimits = SyncLimits()
    /// The TCP listener for monitoring, if any (docs/observability.md#the-http-listener).
    package var http: HTTPListenerSettings?
    /// How log lines are written.
    package var logFormat = LogFormat.text
    /// The resources, in the order of the file.
    package var resources: [ResourceConfig] {
        didSet { positions = Self.positions(of: resources) }
    }
    /// Scrubs the substituted values out of any text shown to people.
    package var redactor: Redactor
    /// What it was decoded from, to fill its secrets anew when their files change.
    package var source: ConfigSource
    /// Each resource's index in `resources`, by name: a sync looks its resource up by name.
    private var positions: [String: Int]

    package init(
        file: String, database: String, corruptDatabase: CorruptDatabase, socket: String, socketMode: UInt32,
        connectivity: Connectivity, changeRetention: ChangeRetention, syncLimits: SyncLimits,
        resources: [ResourceConfig], redactor: Redactor, source: ConfigSource
    ) {
        self.file = file
        self.database = database
        self.corruptDatabase = corruptDatabase
        self.socket = socket
        self.socketMode = socketMode
        self.connectivity = connectivity
        self.changeRetention = changeRetention
        self.syncLimits = syncLimits
        self.resources = resources
        self.redactor = redactor
        self.source = source
        positions = Self.positions(of: resources)
    }

    /// The resource called `name`.
    package func resource(named name: String) -> ResourceConfig? {
        positions[name].map { resources[$0] }
    }

    private static func positions(of resources: [ResourceConfig]) -> [String: Int] {
        Dictionary(resources.enumerated().map { ($1.name, $0) }) { first, _ in first }
    }
}

/// How many syncs the polls of an agent run at once
/// (docs/configuration.md#many-resources): a poll that comes due while
/// `total` syncs run, or `perHost` to its URL's host, waits for one to end.
package struct SyncLimits: Sendable, Hashable {
    /// The most syncs at once, all hosts together.
    package var total = 32
    /// The most syncs at once to one host.
    package var perHost = 8
}

/// Where the agent keeps its copy (docs/configuration.md#the-store).
package enum StoreChoice: Sendable, Hashable {
    /// The SQLite file at the configuration's `database`.
    case sqlite
    /// A schema of a PostgreSQL database, which a fleet of agents shares (docs/fleet.md).
    case postgres(PostgresLocation)
}

extension AgentConfig {
    /// What the agent does at start with a database that is corrupt
    /// (docs/configuration.md#a-corrupt-database).
    package enum CorruptDatabase: String, Sendable {
        /// Move it aside to `NAME.corrupt-TIMESTAMP` and sync everything again into a new one.
        case rebuild
        /// Stop with an error naming it.
        case refuse
    }
}

/// How the agent tells whether the machine is online.
package struct Connectivity: Sendable, Hashable {
    /// The address probed while offline; `nil` means the first resource's host.
    package var probe: ProbeTarget?
    /// The longest wait between two probes while offline.
    package var maxProbeInterval: Duration
}

/// How long the change feed keeps its changes (docs/configuration.md#the-change-feed):
/// a change goes when it is older than `keep` or beyond the newest `maxRows`.
package struct ChangeRetention: Sendable, Hashable {
    package var keep: Duration = .seconds(7 * 86_400)
    package var maxRows = 1_000_000
}

/// A TCP endpoint to probe, from `tcp://host:port`.
package struct ProbeTarget: Sendable, Hashable, CustomStringConvertible {
    /// The host name or address.
    package var host: String
    /// The TCP port.
    package var port: Int

    /// The target as `tcp://host:port`.
    package var description: String { "tcp://\(host):\(port)" }
}

/// Settings shared by the resources that have them; never changed.
private final class SettingsBox: Sendable {
    let value: SyncSettings

    init(_ value: SyncSettings) {
        self.value = value
    }
}

/// One resource to keep in sync.
package struct ResourceConfig: Sendable {
    /// The resource's name, `[a-z0-9_-]{1,64}`.
    package var name: String
    /// The URL of its first page.
    package var url: URLTemplate
    /// The HTTP method.
    package var method: HTTPMethod
    /// Request headers, in order.
    package var headers: [(name: String, value: String)]
    /// Query parameters added to every page's URL, in order.
    package var query: [(name: String, value: String)]
    /// The request body, for POST.
    package var body: RequestBody?
    /// Where the array of items is in each page.
    package var items: JSONPointer
    /// Where each item's key is.
    package var key: JSONPointer
    /// How to walk from page to page.
    package var pagination: Pagination {
        didSet { paginationText = "\(pagination)" }
    }
    /// Timing, retry and limits.
    package var settings: SyncSettings {
        get { settingsBox.value }
        set { settingsBox = SettingsBox(newValue) }
    }
    /// `settings`, in a box that resources with the same settings share
    /// (``sharing(_:)``): 664 bytes a resource otherwise, twice (the
    /// configuration and the scheduler each hold the resource).
    private var settingsBox: SettingsBox
    /// How it asks only for what changed; `nil` for a snapshot resource (the default).
    package var incremental: IncrementalSettings?
    /// `pagination` as text, for the fingerprint of its requests: made once,
    /// not at every sync (it is made by reflection).
    package private(set) var paginationText: String

    package init(
        name: String, url: URLTemplate, method: HTTPMethod, headers: [(name: String, value: String)],
        query: [(name: String, value: String)], body: RequestBody?, items: JSONPointer, key: JSONPointer,
        pagination: Pagination, settings: SyncSettings, incremental: IncrementalSettings?
    ) {
        self.name = name
        self.url = url
        self.method = method
        self.headers = headers
        self.query = query
        self.body = body
        self.items = items
        self.key = key
        self.pagination = pagination
        settingsBox = SettingsBox(settings)
        self.incremental = incremental
        paginationText = "\(pagination)"
    }

    /// `resources` holding one copy of what many have alike: one box for each
    /// distinct `settings` (most resources have their `defaults`), one text
    /// for each distinct `pagination`.
    package static func sharing(_ resources: [ResourceConfig]) -> [ResourceConfig] {
        var boxes: [SyncSettings: SettingsBox] = [:]
        var texts: [Pagination: String] = [:]
        return resources.map { resource in
            var resource = resource
            if let shared = boxes[resource.settings] {
                resource.settingsBox = shared
            } else {
                boxes[resource.settings] = resource.settingsBox
            }
            if let shared = texts[resource.pagination] {
                resource.paginationText = shared
            } else {
                texts[resource.pagination] = resource.paginationText
            }
            return resource
        }
    }

    /// The resources whose record this one's URL reads.
    package var dependencies: [String] { url.dependencies.map(\.resource) }

    /// The scope of its request budget and rate limits: `rateLimit.scope`, else its URL's host.
    package var rateLimitScope: String {
        settings.rateLimit.scope ?? host
    }

    /// The host its URL names (`?` when it names none).
    package var host: String {
        URLComponents(string: url.render())?.host ?? "?"
    }
}

/// The HTTP methods a resource may use.
package enum HTTPMethod: String, Sendable, Hashable {
    case get = "GET"
    case post = "POST"
}

/// A request body and its media type.
package struct RequestBody: Sendable, Hashable {
    /// The bytes sent, as text.
    package var text: String
    /// The `Content-Type` sent unless the headers set one.
    package var contentType: String
}

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

/// `tls` (docs/configuration.md#tls): the certificate authorities HTTPS
/// trusts, the client certificate it presents, its lowest TLS version.
package struct TLSSettings: Sendable, Hashable {
    /// `caFile`: the CA certificates (PEM) trusted instead of the system's.
    package var caFile: String?
    /// `clientCertificate` and `clientKey`: PEM files.
    package var clientCertificate: String?
    package var clientKey: String?
    /// `minimumVersion`: `"1.2"` (default) or `"1.3"`.
    package var minimumVersion = "1.2"
    /// `serverName`: the name the server's certificate must carry, sent as SNI and
    /// `Host`, when the URL reaches the server by another (its address).
    package var serverName: String?

    package init() {}
}

/// `auth`: how a resource's requests prove who sends them
/// (docs/configuration.md#authentication).
package enum Auth: Sendable, Hashable {
    /// HTTP Basic (RFC 7617): a username and a password.
    case basic(username: String, password: String)
    /// A bearer token (RFC 6750).
    case bearer(token: String)
    /// Bearer tokens from an OAuth2 token endpoint (RFC 6749), fetched when needed.
    case oauth2(OAuth2Settings)

    /// The value of the `Authorization` header it sends, when it is fixed;
    /// `nil` for OAuth2, whose token comes from ``OAuth2Tokens`` at each request.
    package var header: String? {
        switch self {
        case .basic(let username, let password): "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        case .oauth2: nil
        }
    }
}

/// `auth` of type `oauth2` (docs/configuration.md#oauth2): where access tokens
/// come from, and how the agent proves who it is there.
package struct OAuth2Settings: Sendable, Hashable {
    /// The grant the agent presents (RFC 6749 §4.4 and §6).
    package enum Grant: String, Sendable, Hashable {
        case clientCredentials = "client_credentials"
        case refreshToken = "refresh_token"
    }

    /// How the client authenticates at the token endpoint (RFC 6749 §2.3.1).
    package enum ClientAuth: String, Sendable, Hashable {
        /// `Authorization: Basic` with the form-encoded id and secret.
        case basic
        /// `client_id` and `client_secret` in the form.
        case body
    }

    /// What identifies its tokens: the name of a top-level `auths` entry, else
    /// the token URL and client id. Rotated refresh tokens are stored under it.
    package var identity: String
    /// `tokenUrl`.
    package var tokenURL: String
    /// `clientId`.
    package var clientID: String
    /// `clientSecret`: none for a public client.
    package var clientSecret: String?
    package var grant: Grant
    /// `refreshToken`: the first one; the server may rotate it.
    package var refreshToken: String?
    package var scopes: [String] = []
    package var audience: String?
    /// `extraParams`: more form fields, in order.
    package var extraParams: [Parameter] = []
    package var clientAuth = ClientAuth.basic

    /// A form field.
    package struct Parameter: Sendable, Hashable {
        package var name: String
        package var value: String
    }
}

/// How a resource's pages follow each other (docs/configuration.md#pagination).
package struct Pagination: Sendable, Hashable {
    /// How the next page is found.
    package enum Style: Sendable, Hashable {
        /// One request.
        case none
        /// `param` counts pages from `start`; `sizeParam` = `size`; a short page is the last.
        case page(param: String, sizeParam: String, size: Int, start: Int)
        /// `param` counts items from 0; `limitParam` = `limit`; a short page is the last.
        case offset(param: String, limitParam: String, limit: Int)
        /// The cursor taken from each page is sent as `param`; none means the last.
        case cursor(from: CursorSource, param: String)
        /// The `Link: <…>; rel="next"` header (RFC 8288) leads to the next page.
        case link
        /// The URL at pointer `next` of each page leads to the next page.
        case nextURL(next: JSONPointer)
    }

    /// Where a `cursor` style finds the next cursor.
    package enum CursorSource: Sendable, Hashable {
        /// At this pointer of the page's body (`next`).
        case body(JSONPointer)
        /// At this pointer of the page's last item (`cursorFromLastItem`, Stripe's `starting_after`).
        case lastItem(JSONPointer)
    }

    /// Where the page number, offset or cursor is sent.
    package enum Placement: String, Sendable, Hashable {
        /// In the URL's query.
        case query
        /// In the JSON body of a POST, at a JSON pointer (Notion's `start_cursor`).
        case body
    }

    package var style: Style
    package var placement = Placement.query
    /// Where a page says whether more follow (`has_more`): the walk stops when it is not `true`.
    package var hasMore: JSONPointer?
    /// A page that matches this is the last (`end_of_stream: true`).
    package var stopWhen: ResponseMatch?

    /// One request.
    package static let none = Pagination(style: .none)
    /// The `Link` header's next page.
    package static let link = Pagination(style: .link)

    /// Pages counted by `param`, in the query.
    package static func page(param: String, sizeParam: String, size: Int, start: Int) -> Pagination {
        Pagination(style: .page(param: param, sizeParam: sizeParam, size: size, start: start))
    }

    /// Items counted by `param`, in the query.
    package static func offset(param: String, limitParam: String, limit: Int) -> Pagination {
        Pagination(style: .offset(param: param, limitParam: limitParam, limit: limit))
    }

    /// The cursor at `next` of each page, sent as `param` in the query.
    package static func cursor(next: JSONPointer, param: String) -> Pagination {
        Pagination(style: .cursor(from: .body(next), param: param))
    }

    /// The URL at `next` of each page.
    package static func nextURL(next: JSONPointer) -> Pagination {
        Pagination(style: .nextURL(next: next))
    }

    package init(
        style: Style, placement: Placement = .query, hasMore: JSONPointer? = nil, stopWhen: ResponseMatch? = nil
    ) {
        self.style = style
        self.placement = placement
        self.hasMore = hasMore
        self.stopWhen = stopWhen
    }

    /// The style's name in the configuration.
    package var styleName: String {
        switch style {
        case .none: "none"
        case .page: "page"
        case .offset: "offset"
        case .cursor: "cursor"
        case .link: "link"
        case .nextURL: "nextUrl"
        }
    }
}

extension AgentConfig {
    /// What the connectivity probe connects to: `connectivity.probe`, else the
    /// first resource's proxy, else its host and port (443 for https, 80 for http).
    package var probeTarget: ProbeTarget {
        if let probe = connectivity.probe { return probe }
        guard let first = resources.first,
            let components = URLComponents(string: first.url.render()), let host = components.host
        else { return ProbeTarget(host: "localhost", port: 80) }
        if let proxy = first.settings.proxy.server(for: first.url.render()) {
            return ProbeTarget(host: proxy.host, port: proxy.port)
        }
        return ProbeTarget(host: host, port: components.port ?? (components.scheme == "https" ? 443 : 80))
    }
}

extension ResourceConfig: Equatable {
    /// Whether two resources are configured alike, secrets filled in included.
    package static func == (lhs: ResourceConfig, rhs: ResourceConfig) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.method == rhs.method
            && lhs.headers.elementsEqual(rhs.headers) { $0 == $1 }
            && lhs.query.elementsEqual(rhs.query) { $0 == $1 } && lhs.body == rhs.body && lhs.items == rhs.items
            && lhs.key == rhs.key && lhs.pagination == rhs.pagination
            && (lhs.settingsBox === rhs.settingsBox || lhs.settings == rhs.settings)
            && lhs.incremental == rhs.incremental
    }
}

extension AgentConfig {
    /// What a reload to `new` would change that only a restart can
    /// (docs/systemd.md#reloading): the database, the socket, the HTTP listener, connectivity.
    package func restartOnlyChanges(to new: AgentConfig) -> [ConfigProblem] {
        var problems: [ConfigProblem] = []
        func check(_ key: String, _ changed: Bool) {
            if changed { problems.append(ConfigProblem(key, "changed; this takes a restart, not a reload")) }
        }
        check("database", database != new.database)
        check("store", store != new.store)
        check("store.leaseTime", leaseTime != new.leaseTime)
        check("socket", socket != new.socket)
        check("socketMode", socketMode != new.socketMode)
        // A new token takes effect at once: it is read for each request.
        check("http.listen", http?.listen != new.http?.listen)
        check("http.control", (http?.control ?? false) != (new.http?.control ?? false))
        check("connectivity", connectivity != new.connectivity)
        return problems
    }
}

/// What a reload changed: the resources added, removed and changed, by name.
package struct ReloadSummary: Sendable, Hashable, Codable, CustomStringConvertible {
    package var added: [String] = []
    package var removed: [String] = []
    package var changed: [String] = []

    package init() {}

    /// Whether it changed nothing.
    package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// `1 added (orders), 1 removed (users), 0 changed`, or `nothing changed`.
    package var description: String {
        guard !isEmpty else { return "nothing changed" }
        return [("added", added), ("removed", removed), ("changed", changed)].map { verb, names in
            "\(names.count) \(verb)" + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
        }.joined(separator: ", ")
    }
}
