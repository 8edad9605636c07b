import Foundation
import Store
import Streams

/// Loads and validates a configuration file (docs/configuration.md#configuration).
///
/// Validation reports every problem at once, each as `path: message`; a
/// configuration with any problem is refused whole, before anything (a
/// database, a socket) is created.
package enum ConfigLoader {
    /// The largest configuration file read: thousands of resources fit in far less.
    package static let maximumSize = 4 * 1024 * 1024

    /// The configuration path used when neither `--config` nor `$SYNC_AGENT_CONFIG` is given.
    package static let defaultPath = "/etc/sync-agent/config.json"

    /// The configuration path to use: `explicit`, else `$SYNC_AGENT_CONFIG`, else ``defaultPath``.
    package static func path(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        if let fromEnvironment = environment["SYNC_AGENT_CONFIG"], !fromEnvironment.isEmpty { return fromEnvironment }
        return defaultPath
    }

    /// Reads, parses and validates the file at `path`; with `fillingReferences`
    /// false, `${…}` references are left unfilled (see ``Substitution``).
    package static func load(
        path: String, environment: [String: String], fillingReferences: Bool = true
    ) throws(ConfigError) -> AgentConfig {
        let file = URL(fileURLWithPath: path).standardizedFileURL.path
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
        guard size <= maximumSize else {
            throw ConfigError(
                file: file,
                problems: [
                    ConfigProblem(
                        file,
                        "is \(size) bytes; a configuration may be at most "
                            + "\(ByteSizeText.format(maximumSize))")
                ])
        }
        guard let data = FileManager.default.contents(atPath: file) else {
            let reason = FileManager.default.fileExists(atPath: file) ? "it cannot be read" : "no such file"
            throw ConfigError(file: file, problems: [ConfigProblem(file, "cannot read the configuration: \(reason)")])
        }
        return try decode(Array(data), file: file, environment: environment, fillingReferences: fillingReferences)
    }

    /// Parses and validates configuration text read from `file`.
    package static func decode(
        _ bytes: [UInt8], file: String, environment: [String: String], fillingReferences: Bool = true
    ) throws(ConfigError)
        -> AgentConfig
    {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: bytes)
        } catch {
            let (line, column) = error.location(in: bytes)
            throw ConfigError(file: file, problems: [ConfigProblem("\(file):\(line):\(column)", error.reason)])
        }
        let reader = ConfigReader()
        let folder = (file as NSString).deletingLastPathComponent
        var decoder = Decoder(
            reader: reader,
            substitution: Substitution(environment: environment, folder: folder, fillsReferences: fillingReferences))
        let config = decoder.config(root, bytes: bytes, file: file, folder: folder)
        guard reader.problems.isEmpty, let config else {
            throw ConfigError(file: file, problems: reader.problems)
        }
        return config
    }

    /// Whether `name` is a valid resource name: `[a-z0-9_-]{1,64}`.
    package static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy {
                ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D
            }
    }

    static let settingsKeys = [
        "interval", "pollJitter", "timeout", "slowAfter", "retry", "maxPages", "maxResponseSize", "errorWhen", "auth",
        "tls",
        "rateLimit", "proxy",
    ]
    static let oauth2Keys = [
        "tokenUrl", "clientId", "clientSecret", "grant", "refreshToken", "scopes", "audience", "extraParams",
        "clientAuth",
    ]
    static let retryKeys = ["maxAttempts", "initialDelay", "maxDelay", "multiplier", "jitter", "on", "never"]
    static let resourceKeys = [
        "name", "url", "method", "headers", "query", "body", "items", "key", "pagination", "mode", "since", "deleted",
        "fullResyncEvery",
    ]
    static let sinceKeys = ["field", "fromBody", "param", "bodyField", "format", "initial", "lookback"]
    static let styles = ["none", "page", "offset", "cursor", "link", "nextUrl"]
    static let paginationKeys = [
        "param", "sizeParam", "size", "start", "limitParam", "limit", "next", "cursorFromLastItem",
    ]
    /// Keys every style but `none` takes.
    static let pageEndKeys = ["hasMore", "stopWhen", "in"]

    /// The longest Unix socket path Linux accepts (`sun_path` holds 108 bytes with the NUL).
    static let maximumSocketPathLength = 107
}

extension ConfigLoader {
    /// The state of one load: the problems found and the secrets filled in.
    fileprivate struct Decoder {
        let reader: ConfigReader
        var substitution: Substitution
        /// The top-level `auths`, by name.
        var authsByName: [String: Auth] = [:]

        mutating func config(_ root: JSONValue, bytes: [UInt8], file: String, folder: String) -> AgentConfig? {
            guard let fields = reader.object(root, at: "") else { return nil }
            let environment = substitution.environment
            let database = path(
                fields, "database", folder: folder,
                default: Self.directory("STATE_DIRECTORY", environment) ?? folder, name: "sync-agent.db")
            let socket = path(
                fields, "socket", folder: folder,
                default: Self.directory("RUNTIME_DIRECTORY", environment) ?? folder, name: "sync-agent.sock")
            if socket.utf8.count > ConfigLoader.maximumSocketPathLength {
                reader.report(
                    fields.path("socket"),
                    "\(socket) is \(socket.utf8.count) bytes long; a Unix socket path must be at most "
                        + "\(ConfigLoader.maximumSocketPathLength)")
            }
            let socketMode = fields.take("socketMode").flatMap { mode($0, at: fields.path("socketMode")) } ?? 0o660
            let corruptDatabase =
                reader.choice(fields, "corruptDatabase", else: "must be \"rebuild\" or \"refuse\"")
                ?? AgentConfig.CorruptDatabase.rebuild
            if let value = fields.take("auths"), let object = reader.object(value, at: fields.path("auths")) {
                namedAuths(object)
            }
            var defaults = SyncSettings()
            defaults.proxy = environmentProxies()
            if let value = fields.take("defaults"), let object = reader.object(value, at: fields.path("defaults")) {
                defaults = settings(object, base: defaults)
                object.finish(reader)
            }
            let (store, leaseTime) = store(fields.take("store"), at: fields.path("store"))
            let connectivity = connectivity(fields.take("connectivity"), at: fields.path("connectivity"))
            let retention = changeRetention(fields.take("changes"), at: fields.path("changes"))
            var limits = SyncLimits()
            if let value = fields.take("maxConcurrentSyncs") {
                limits.total =
                    reader.integer(value, at: fields.path("maxConcurrentSyncs"), in: 1...10_000) ?? limits.total
            }
            if let value = fields.take("maxConcurrentSyncsPerHost") {
                limits.perHost =
                    reader.integer(value, at: fields.path("maxConcurrentSyncsPerHost"), in: 1...10_000)
                    ?? limits.perHost
            }
            let http = httpListener(fields.take("http"), at: fields.path("http"))
            let logFormat = reader.choice(fields, "logFormat", else: "must be \"text\" or \"json\"") ?? LogFormat.text
            let resourcesValue = fields.take("resources")
            let resources = resources(resourcesValue, at: fields.path("resources"), defaults: defaults)
            fields.finish(reader)
            checkDependencies(resources, declared: Self.declaredNames(resourcesValue))
            checkBudgets(resources)
            var config = AgentConfig(
                file: file, database: database, corruptDatabase: corruptDatabase, socket: socket,
                socketMode: socketMode,
                connectivity: connectivity, changeRetention: retention, syncLimits: limits,
                resources: ResourceConfig.sharing(resources.map(\.1)),
                redactor: Redactor(secrets: substitution.secrets),
                source: ConfigSource(
                    bytes: bytes, environment: environment, fillingReferences: substitution.fillsReferences,
                    secretFiles: substitution.files))
            config.store = store
            config.leaseTime = leaseTime
            config.http = http
            config.logFormat = logFormat
            return config
        }

        /// `$STATE_DIRECTORY` and `$RUNTIME_DIRECTORY` may list several folders; the first is ours.
        static func directory(_ variable: String, _ environment: [String: String]) -> String? {
            guard let value = environment[variable], let first = value.split(separator: ":").first else { return nil }
            return String(first)
        }

        func path(_ fields: ObjectFields, _ key: String, folder: String, default base: String, name: String) -> String {
            guard let value = fields.take(key), let text = reader.string(value, at: fields.path(key)) else {
                return (base as NSString).appendingPathComponent(name)
            }
            guard !text.isEmpty else {
                reader.report(fields.path(key), "must not be empty")
                return text
            }
            let absolute = text.hasPrefix("/") ? text : (folder as NSString).appendingPathComponent(text)
            return URL(fileURLWithPath: absolute).standardizedFileURL.path
        }

        func mode(_ value: JSONValue, at path: String) -> UInt32? {
            guard let text = reader.string(value, at: path) else { return nil }
            guard (3...4).contains(text.count), let mode = UInt32(text, radix: 8), mode <= 0o777 else {
                reader.report(path, "must be an octal mode such as \"0660\" or \"0600\"")
                return nil
            }
            guard mode & 0o007 == 0 else {
                reader.report(
                    path,
                    "must not give others any access (the socket is never world-accessible); use \"0660\" or \"0600\"")
                return nil
            }
            guard mode & 0o600 == 0o600 else {
                reader.report(path, "must let the owner read and write (e.g. \"0660\" or \"0600\")")
                return nil
            }
            return mode
        }

        mutating func settings(_ fields: ObjectFields, base: SyncSettings) -> SyncSettings {
            var settings = base
            fields.assign(&settings.interval, "interval") { reader.duration($0, at: $1, atLeast: .milliseconds(100)) }
            fields.assign(&settings.pollJitter, "pollJitter") { reader.duration($0, at: $1, atLeast: .zero) }
            fields.assign(&settings.timeout, "timeout") { reader.duration($0, at: $1, atLeast: .milliseconds(10)) }
            fields.assign(&settings.slowAfter, "slowAfter") { reader.duration($0, at: $1, atLeast: .milliseconds(10)) }
            fields.assign(&settings.maxPages, "maxPages") { reader.integer($0, at: $1, in: 1...1_000_000) }
            fields.assign(&settings.maxResponseSize, "maxResponseSize") {
                reader.byteSize($0, at: $1, in: 1024...1_073_741_824)
            }
            if let value = fields.take("retry"), let retry = reader.object(value, at: fields.path("retry")) {
                settings.retry = self.retry(retry, base: settings.retry)
                if let value = retry.take("on") { settings.retryOn = retryRules(value, at: retry.path("on")) }
                if let value = retry.take("never") { settings.retryNever = statuses(value, at: retry.path("never")) }
                retry.finish(reader)
            }
            if let value = fields.take("errorWhen") {
                settings.errorWhen = errorWhen(value, at: fields.path("errorWhen"))
            }
            if let value = fields.take("rateLimit"),
                let limit = reader.object(value, at: fields.path("rateLimit"))
            {
                settings.rateLimit = rateLimit(limit, base: settings.rateLimit)
                limit.finish(reader)
            }
            if let value = fields.take("tls"), let object = reader.object(value, at: fields.path("tls")) {
                settings.tls = tls(object, base: settings.tls)
                object.finish(reader)
            }
            if let value = fields.take("auth") {
                if case .string(let name) = value {
                    if let auth = authsByName[name] {
                        settings.auth = auth
                    } else {
                        let known = authsByName.keys.sorted().map { "\"\($0)\"" }.joined(separator: ", ")
                        reader.report(
                            fields.path("auth"),
                            "names no entry of the top-level auths"
                                + (known.isEmpty ? "" : " (there are \(known))"))
                    }
                } else if let object = reader.object(value, at: fields.path("auth")) {
                    settings.auth = auth(object, name: nil)
                    object.finish(reader)
                }
            }
            if let value = fields.take("proxy"), let text = reader.string(value, at: fields.path("proxy")),
                let filled = substitute(text, at: fields.path("proxy"))
            {
                // "" means no proxy, as `curl -x ""`; NO_PROXY applies to a configured proxy too, as in curl.
                do {
                    let server = try filled.isEmpty ? nil : proxyServer(filled)
                    settings.proxy = ProxySettings(server: server, noProxy: settings.proxy.noProxy)
                } catch {
                    reader.report(fields.path("proxy"), error.message)
                }
            }
            return settings
        }

        /// The proxy in `text`, its password kept secret (docs/configuration.md#proxies).
        mutating func proxyServer(_ text: String) throws(ProxyServer.Problem) -> ProxyServer {
            let server = try ProxyServer(parsing: text)
            if let password = server.password, !password.isEmpty {
                substitution.keepSecret(password, as: "[proxy password]")
                // As written: percent-encoded, perhaps otherwise than the redactor would.
                if let written = URLComponents(string: text.contains("://") ? text : "http://" + text)?
                    .percentEncodedPassword
                {
                    substitution.keepSecret(written, as: "[proxy password]")
                }
            }
            return server
        }

        /// The proxies the environment names, as curl reads them (docs/configuration.md#proxies):
        /// for http URLs `http_proxy` (or `HTTP_PROXY`), for https URLs `https_proxy` (or
        /// `HTTPS_PROXY`), else `all_proxy` (or `ALL_PROXY`); `no_proxy` (or `NO_PROXY`).
        mutating func environmentProxies() -> ProxySettings {
            let environment = substitution.environment
            var settings = ProxySettings()
            var reported: Set<String> = []
            settings.noProxy = NoProxy(ProxySettings.variable(ProxySettings.noProxyVariables, in: environment)?.1 ?? "")
            for (names, secure) in [(ProxySettings.httpVariables, false), (ProxySettings.httpsVariables, true)] {
                guard let (name, value) = ProxySettings.variable(names + ProxySettings.allVariables, in: environment)
                else { continue }
                do {
                    let server = try proxyServer(value)
                    if secure { settings.https = server } else { settings.http = server }
                } catch {
                    // Commands that send no request need not understand the environment's proxies.
                    if substitution.fillsReferences, reported.insert(name).inserted {
                        reader.report("$\(name)", error.message)
                    }
                }
            }
            return settings
        }

        /// `tls`: `{"caFile", "clientCertificate", "clientKey", "serverName", "minimumVersion"}`;
        /// each file must be readable.
        func tls(_ fields: ObjectFields, base: TLSSettings) -> TLSSettings {
            var tls = base
            func file(_ name: String) -> String? {
                guard let value = fields.take(name), let text = reader.string(value, at: fields.path(name)) else {
                    return nil
                }
                let path = text.hasPrefix("/") ? text : substitution.folder + "/" + text
                // Commands that only talk to the agent need not read the agent's files.
                guard !substitution.fillsReferences || FileManager.default.isReadableFile(atPath: path) else {
                    reader.report(fields.path(name), "\(path) cannot be read")
                    return nil
                }
                return path
            }
            if let path = file("caFile") { tls.caFile = path }
            if let path = file("clientCertificate") { tls.clientCertificate = path }
            if let path = file("clientKey") { tls.clientKey = path }
            if (tls.clientCertificate == nil) != (tls.clientKey == nil) {
                reader.report(fields.path("clientCertificate"), "and clientKey go together: set both or neither")
            }
            if let value = fields.take("serverName"), let name = reader.string(value, at: fields.path("serverName")) {
                let allowed = name.unicodeScalars.allSatisfy { $0.isASCIILetterOrDigit || $0 == "-" || $0 == "." }
                if allowed, !name.isEmpty, name.first != ".", name.last != "." {
                    tls.serverName = name.lowercased()
                } else {
                    reader.report(fields.path("serverName"), "must be a host name such as \"api.internal\"")
                }
            }
            if let value = fields.take("minimumVersion"),
                let text = reader.string(value, at: fields.path("minimumVersion"))
            {
                if ["1.2", "1.3"].contains(text) {
                    tls.minimumVersion = text
                } else {
                    reader.report(fields.path("minimumVersion"), "must be \"1.2\" or \"1.3\"")
                }
            }
            return tls
        }

        /// The top-level `auths`: each entry an `auth` that resources name instead of repeating it.
        mutating func namedAuths(_ fields: ObjectFields) {
            fields.takeEach(
                reader, named: ConfigLoader.isValidName,
                else: "must be named with 1 to 64 characters of a-z, 0-9, \"_\" and \"-\""
            ) { member, path in
                guard let object = reader.object(member.value, at: path) else { return }
                if let auth = auth(object, name: member.name) { authsByName[member.name] = auth }
                object.finish(reader)
            }
        }

        /// `auth` (docs/configuration.md#authentication): `{"type": "basic",
        /// "username", "password"}`, `{"type": "bearer", "token"}` or `{"type": "oauth2", …}`;
        /// `name` is its name among the top-level `auths`.
        mutating func auth(_ fields: ObjectFields, name: String?) -> Auth? {
            func required(_ name: String) -> String? {
                guard let value = fields.take(name) else {
                    reader.report(fields.path(name), "is required")
                    return nil
                }
                return reader.string(value, at: fields.path(name))
            }
            guard let type = required("type") else { return nil }
            switch type {
            case "basic":
                guard let raw = required("username"), let username = substitute(raw, at: fields.path("username"))
                else { return nil }
                if username.contains(":") { reader.report(fields.path("username"), "must not contain \":\"") }
                var password = ""
                if let value = fields.take("password"), let raw = reader.string(value, at: fields.path("password")) {
                    password = substitute(raw, at: fields.path("password")) ?? ""
                    substitution.keepSecret(password, as: "[password]")
                }
                let header = Auth.basic(username: username, password: password).header ?? ""
                substitution.keepSecret(header, as: "Basic [credentials]")
                let auth = Auth.basic(username: username, password: password)
                return auth
            case "bearer":
                guard let raw = required("token"), let token = substitute(raw, at: fields.path("token")) else {
                    return nil
                }
                guard !token.isEmpty else {
                    reader.report(fields.path("token"), "must not be empty")
                    return nil
                }
                substitution.keepSecret(token, as: "[token]")
                return .bearer(token: token)
            case "oauth2":
                return oauth2(fields, name: name).map { .oauth2($0) }
            default:
                reader.report(fields.path("type"), "must be \"basic\", \"bearer\" or \"oauth2\"")
                return nil
            }
        }

        /// `auth` of type `oauth2` (docs/configuration.md#oauth2).
        mutating func oauth2(_ fields: ObjectFields, name: String?) -> OAuth2Settings? {
            let problemsBefore = reader.problems.count
            func text(_ key: String, secret: String? = nil) -> String? {
                guard let value = fields.take(key), let raw = reader.string(value, at: fields.path(key)),
                    let text = substitute(raw, at: fields.path(key))
                else { return nil }
                guard !text.isEmpty else {
                    reader.report(fields.path(key), "must not be empty")
                    return nil
                }
                if let secret { substitution.keepSecret(text, as: secret) }
                return text
            }
            let tokenURL = text("tokenUrl")
            if let tokenURL {
                let components = URLComponents(string: tokenURL)
                if !["http", "https"].contains(components?.scheme?.lowercased() ?? "") || components?.host ?? "" == "" {
                    reader.report(fields.path("tokenUrl"), "must be an absolute http:// or https:// URL with a host")
                }
            } else if !fields.has("tokenUrl") {
                reader.report(fields.path("tokenUrl"), "is required: the token endpoint's URL")
            }
            let clientID = text("clientId")
            if clientID == nil, !fields.has("clientId") { reader.report(fields.path("clientId"), "is required") }
            let clientSecret = text("clientSecret", secret: "[client secret]")
            let grant =
                reader.choice(fields, "grant", else: "must be \"client_credentials\" or \"refresh_token\"")
                ?? OAuth2Settings.Grant.clientCredentials
            let refreshToken = text("refreshToken", secret: "[refresh token]")
            switch grant {
            case .refreshToken where refreshToken == nil && !fields.has("refreshToken"):
                reader.report(
                    fields.path("refreshToken"), "is required with \"grant\": \"refresh_token\": the first one")
            case .clientCredentials where clientSecret == nil && !fields.has("clientSecret"):
                reader.report(
                    fields.path("clientSecret"), "is required with \"grant\": \"client_credentials\"")
            case .clientCredentials where fields.has("refreshToken"):
                reader.report(fields.path("refreshToken"), "goes with \"grant\": \"refresh_token\" only")
            default: break
            }
            var scopes: [String] = []
            if let value = fields.take("scopes") {
                switch value {
                case .string(let text): scopes = text.split(separator: " ").map(String.init)
                case .array(let elements):
                    for (index, element) in elements.enumerated() {
                        if let scope = reader.string(element, at: "\(fields.path("scopes"))[\(index)]") {
                            scopes.append(scope)
                        }
                    }
                default: reader.report(fields.path("scopes"), "must be an array of strings, or one string")
                }
                if scopes.contains(where: { $0.isEmpty || $0.contains(" ") }) {
                    reader.report(fields.path("scopes"), "must not hold empty scopes or spaces inside one")
                }
            }
            let audience = text("audience")
            var extraParams: [OAuth2Settings.Parameter] = []
            if let value = fields.take("extraParams"),
                let object = reader.object(value, at: fields.path("extraParams"))
            {
                object.takeEach(reader) { member, path in
                    guard let raw = reader.string(member.value, at: path), let value = substitute(raw, at: path)
                    else { return }
                    extraParams.append(OAuth2Settings.Parameter(name: member.name, value: value))
                }
            }
            let clientAuth =
                reader.choice(fields, "clientAuth", else: "must be \"basic\" or \"body\"")
                ?? OAuth2Settings.ClientAuth.basic
            guard reader.problems.count == problemsBefore, let tokenURL, let clientID else { return nil }
            var settings = OAuth2Settings(
                identity: name.map { "auths.\($0)" } ?? "oauth2:" + FNV1a.hex(tokenURL + " " + clientID),
                tokenURL: tokenURL,
                clientID: clientID, clientSecret: clientSecret, grant: grant,
                refreshToken: grant == .refreshToken ? refreshToken : nil)
            settings.scopes = scopes
            settings.audience = audience
            settings.extraParams = extraParams
            settings.clientAuth = clientAuth
            return settings
        }

        /// `retry.on`: a list of rules, each a response test and what it is taken for.
        func retryRules(_ value: JSONValue, at path: String) -> [RetryRule] {
            guard case .array(let elements) = value else {
                reader.report(
                    path, "must be an array of rules such as {\"status\": 403, \"bodyContains\": \"rateLimit\"}")
                return []
            }
            var rules: [RetryRule] = []
            for (index, element) in elements.enumerated() {
                let elementPath = "\(path)[\(index)]"
                guard let fields = reader.object(element, at: elementPath) else { continue }
                let treatment =
                    reader.choice(fields, "as", else: "must be \"transient\" or \"rateLimit\"")
                    ?? RetryRule.Treatment.transient
                let match = responseMatch(fields, statusAllowed: true)
                fields.finish(reader)
                if let match { rules.append(RetryRule(match: match, treatment: treatment)) }
            }
            return rules
        }

        /// The parts of a response test in `fields`: `status`, `bodyContains`, `pointer` and `equals`.
        func responseMatch(_ fields: ObjectFields, statusAllowed: Bool) -> ResponseMatch? {
            var match = ResponseMatch()
            let before = reader.problems.count
            if statusAllowed, let value = fields.take("status") {
                match.status = reader.integer(value, at: fields.path("status"), in: 100...599)
            }
            if statusAllowed, let value = fields.take("bodyContains"),
                let text = reader.string(value, at: fields.path("bodyContains"))
            {
                if text.isEmpty { reader.report(fields.path("bodyContains"), "must not be empty") }
                match.bodyContains = text
            }
            if let value = fields.take("pointer") { match.pointer = reader.pointer(value, at: fields.path("pointer")) }
            if let value = fields.take("equals") {
                match.equals = value
                if !fields.has("pointer") {
                    reader.report(fields.path("equals"), "needs a \"pointer\" to the value it compares")
                }
            }
            guard reader.problems.count == before else { return nil }
            if match.status == nil, match.bodyContains == nil, match.pointer == nil {
                reader.report(
                    fields.path,
                    statusAllowed
                        ? "must test something: \"status\", \"bodyContains\" or \"pointer\""
                        : "needs a \"pointer\" (and usually \"equals\")")
                return nil
            }
            return match
        }

        /// `retry.never`: statuses.
        func statuses(_ value: JSONValue, at path: String) -> Set<Int> {
            guard case .array(let elements) = value else {
                reader.report(path, "must be an array of HTTP statuses, e.g. [503]")
                return []
            }
            return Set(elements.enumerated().compactMap { reader.integer($1, at: "\(path)[\($0)]", in: 100...599) })
        }

        /// `errorWhen`: `pointer`, `equals` and `message`.
        func errorWhen(_ value: JSONValue, at path: String) -> ErrorWhen? {
            guard let fields = reader.object(value, at: path) else { return nil }
            let match = responseMatch(fields, statusAllowed: false)
            let message = fields.take("message").flatMap { reader.pointer($0, at: fields.path("message")) }
            fields.finish(reader)
            return match.map { ErrorWhen(match: $0, message: message) }
        }

        /// `rateLimit`: `requests` per `per` with a `burst`, a `scope`, and `maxWait`.
        func rateLimit(_ fields: ObjectFields, base: RateLimitSettings) -> RateLimitSettings {
            var limit = base
            let requests = fields.take("requests").flatMap {
                reader.integer($0, at: fields.path("requests"), in: 1...1_000_000)
            }
            let per = fields.take("per").flatMap {
                reader.duration($0, at: fields.path("per"), atLeast: .milliseconds(1))
            }
            let burst = fields.take("burst").flatMap { reader.integer($0, at: fields.path("burst"), in: 1...1_000_000) }
            switch (requests, per) {
            case (let requests?, let per?):
                limit.budget = RateLimitSettings.Budget(requests: requests, per: per, burst: burst ?? requests)
            case (nil, nil):
                if let burst, var budget = limit.budget {
                    budget.burst = burst
                    limit.budget = budget
                } else if burst != nil {
                    reader.report(fields.path("burst"), "needs \"requests\" and \"per\"")
                }
            case (_?, nil):
                if fields.has("per") { break }
                reader.report(fields.path("per"), "is required with \"requests\": the period, e.g. \"1h\"")
            case (nil, _?):
                if fields.has("requests") { break }
                reader.report(fields.path("requests"), "is required with \"per\": how many requests per period")
            }
            if let value = fields.take("scope"), let text = reader.string(value, at: fields.path("scope")) {
                if text.isEmpty { reader.report(fields.path("scope"), "must not be empty") }
                limit.scope = text
            }
            if let value = fields.take("maxWait"),
                let wait = reader.duration(value, at: fields.path("maxWait"), atLeast: .zero)
            {
                limit.maxWait = wait
            }
            return limit
        }

        func retry(_ fields: ObjectFields, base: RetryPolicy) -> RetryPolicy {
            var policy = base
            fields.assign(&policy.maxAttempts, "maxAttempts") { reader.integer($0, at: $1, in: 1...100) }
            fields.assign(&policy.initialDelay, "initialDelay") { reader.duration($0, at: $1, atLeast: .zero) }
            fields.assign(&policy.maxDelay, "maxDelay") { reader.duration($0, at: $1, atLeast: .zero) }
            fields.assign(&policy.multiplier, "multiplier") { reader.number($0, at: $1, in: 1...10) }
            fields.assign(&policy.jitter, "jitter") { reader.number($0, at: $1, in: 0...1) }
            if policy.maxDelay < policy.initialDelay {
                reader.report(
                    fields.path("maxDelay"),
                    "must be at least initialDelay (\(DurationText.format(policy.initialDelay)))")
            }
            return policy
        }

        package func connectivity(_ value: JSONValue?, at path: String) -> Connectivity {
            var connectivity = Connectivity(probe: nil, maxProbeInterval: .seconds(30))
            guard let value, let fields = reader.object(value, at: path) else { return connectivity }
            if let value = fields.take("probe"), let text = reader.string(value, at: fields.path("probe")) {
                connectivity.probe = Self.probeTarget(text)
                if connectivity.probe == nil {
                    reader.report(
                        fields.path("probe"), "must look like \"tcp://host:port\", e.g. \"tcp://api.example.com:443\"")
                }
            }
            if let value = fields.take("maxProbeInterval"),
                let interval = reader.duration(value, at: fields.path("maxProbeInterval"), atLeast: .seconds(1))
            {
                connectivity.maxProbeInterval = interval
            }
            fields.finish(reader)
            return connectivity
        }

        /// `store`: `{"type": "sqlite"}` (the file `database`, the default) or
        /// `{"type": "postgres", "url": "postgres://USER@HOST/DB", "password", "schema", "leaseTime"}`
        /// (docs/configuration.md#the-store), and the fleet's lease time.
        mutating func store(_ value: JSONValue?, at path: String) -> (StoreChoice, Duration) {
            var leaseTime = PostgresLeases.defaultLeaseTime
            guard let value, let fields = reader.object(value, at: path) else { return (.sqlite, leaseTime) }
            defer { fields.finish(reader) }
            if let value = fields.take("leaseTime"),
                let time = reader.duration(value, at: fields.path("leaseTime"), atLeast: .seconds(1))
            {
                leaseTime = time
            }
            return (choice(fields), leaseTime)
        }

        private mutating func choice(_ fields: ObjectFields) -> StoreChoice {
            func text(_ key: String) -> String? {
                guard let value = fields.take(key), let raw = reader.string(value, at: fields.path(key)) else {
                    return nil
                }
                return substitute(raw, at: fields.path(key))
            }
            switch text("type") ?? "sqlite" {
            case "sqlite":
                return .sqlite
            case "postgres":
                let password = text("password")
                let schema = text("schema") ?? PostgresLocation.defaultSchema
                guard let url = text("url") else {
                    reader.report(fields.path("url"), "is required: postgres://USER@HOST:PORT/DATABASE")
                    return .sqlite
                }
                do {
                    var location = try PostgresLocation(url: url, schema: schema)
                    if let password { location.password = password }
                    if let secret = location.password, !secret.isEmpty {
                        substitution.keepSecret(secret, as: "[password]")
                        let encoded = URLComponents(string: url)?.percentEncodedPassword
                        if let encoded, !encoded.isEmpty { substitution.keepSecret(encoded, as: "[password]") }
                    }
                    return .postgres(location)
                } catch {
                    reader.report(fields.path(error.message.contains("schema") ? "schema" : "url"), error.message)
                    return .sqlite
                }
            default:
                reader.report(fields.path("type"), "must be \"sqlite\" or \"postgres\"")
                return .sqlite
            }
        }

        /// `http`: `{"listen": "127.0.0.1:9464", "control": false, "token": "${credential:http-token}"}`
        /// (docs/configuration.md#the-http-listener).
        mutating func httpListener(_ value: JSONValue?, at path: String) -> HTTPListenerSettings? {
            guard let value, let fields = reader.object(value, at: path) else { return nil }
            defer { fields.finish(reader) }
            var settings: HTTPListenerSettings?
            if let value = fields.take("listen") {
                switch reader.string(value, at: fields.path("listen")).map(HTTPListenerSettings.parse(listen:)) {
                case .success(let parsed): settings = parsed
                case .failure(let problem): reader.report(fields.path("listen"), problem.message)
                case nil: break
                }
            } else {
                reader.report(fields.path("listen"), "is required: an address and a port, such as \"127.0.0.1:9464\"")
            }
            let control = fields.take("control").flatMap { reader.boolean($0, at: fields.path("control")) } ?? false
            var token: String?
            if let value = fields.take("token"), let raw = reader.string(value, at: fields.path("token")) {
                if !(raw.hasPrefix("${") && raw.hasSuffix("}")) {
                    reader.report(
                        fields.path("token"),
                        "must come from a credential, a file or the environment, such as "
                            + "\"${credential:http-token}\": a token written in the configuration is read by "
                            + "whoever reads the file")
                } else if let text = substitute(raw, at: fields.path("token")) {
                    token = text
                    if !text.isEmpty { substitution.keepSecret(text, as: "[token]") }
                }
            }
            switch (control, token) {
            case (true, nil):
                reader.report(
                    fields.path("token"),
                    "is required with \"control\": true: the bearer token of the requests that change something, "
                        + "such as \"${credential:http-token}\"")
            case (true, let token?) where token.count < HTTPListenerSettings.minimumTokenLength:
                reader.report(
                    fields.path("token"),
                    "must be at least \(HTTPListenerSettings.minimumTokenLength) characters (e.g. from "
                        + "`openssl rand -hex 32`)")
            case (false, _?):
                reader.report(
                    fields.path("token"), "has no use without \"control\": true (the listener is read-only then)")
            default:
                break
            }
            settings?.control = control
            settings?.token = token
            return settings
        }

        /// `changes`: `{"keep": "7d", "maxRows": 1000000}`.
        package func changeRetention(_ value: JSONValue?, at path: String) -> ChangeRetention {
            var retention = ChangeRetention()
            guard let value, let fields = reader.object(value, at: path) else { return retention }
            if let value = fields.take("keep"),
                let keep = reader.duration(value, at: fields.path("keep"), atLeast: .seconds(60))
            {
                retention.keep = keep
            }
            if let value = fields.take("maxRows"),
                let rows = reader.integer(value, at: fields.path("maxRows"), in: 1000...1_000_000_000)
            {
                retention.maxRows = rows
            }
            fields.finish(reader)
            return retention
        }

        static func probeTarget(_ text: String) -> ProbeTarget? {
            guard text.hasPrefix("tcp://") else { return nil }
            let rest = text.dropFirst("tcp://".count)
            guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]),
                (1...65535).contains(port)
            else { return nil }
            var host = String(rest[..<colon])
            if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
            guard !host.isEmpty, !host.contains("/") else { return nil }
            return ProbeTarget(host: host, port: port)
        }

        mutating func resources(
            _ value: JSONValue?, at path: String, defaults: SyncSettings
        ) -> [(
            String, ResourceConfig
        )] {
            guard let value else {
                reader.report(path, "is required: list the resources to sync")
                return []
            }
            guard case .array(let elements) = value else {
                reader.report(path, "must be an array of resources, not \(value.kindDescription)")
                return []
            }
            guard !elements.isEmpty else {
                reader.report(path, "must list at least one resource")
                return []
            }
            var resources: [(String, ResourceConfig)] = []
            var firstPathByName: [String: String] = [:]
            for (index, element) in elements.enumerated() {
                let elementPath = "\(path)[\(index)]"
                let resource = resource(element, at: elementPath, defaults: defaults)
                // Names are compared even when a resource has other problems, so all are reported at once.
                if case .string(let name) = element["name"], ConfigLoader.isValidName(name) {
                    if let first = firstPathByName[name] {
                        reader.report("\(elementPath).name", "\"\(name)\" is already the name of \(first)")
                        continue
                    }
                    firstPathByName[name] = elementPath
                }
                if let resource { resources.append((elementPath, resource)) }
            }
            return resources
        }

        package mutating func resource(_ value: JSONValue, at path: String, defaults: SyncSettings) -> ResourceConfig? {
            guard let fields = reader.object(value, at: path) else { return nil }
            let problemsBefore = reader.problems.count
            var name: String?
            if let value = fields.take("name") {
                if let text = reader.string(value, at: fields.path("name")) {
                    if ConfigLoader.isValidName(text) {
                        name = text
                    } else {
                        reader.report(
                            fields.path("name"),
                            "must be 1 to 64 characters of a-z, 0-9, \"_\" and \"-\", e.g. \"users\"")
                    }
                }
            } else {
                reader.report(fields.path("name"), "is required")
            }
            let url = url(fields)
            var method = HTTPMethod.get
            if let value = fields.take("method"), let text = reader.string(value, at: fields.path("method")) {
                if let parsed = HTTPMethod(rawValue: text.uppercased()) {
                    method = parsed
                } else {
                    reader.report(fields.path("method"), "must be GET or POST")
                }
            }
            var headers = headers(fields)
            let query = query(fields)
            let body = body(fields, method: method)
            let items = fields.take("items").flatMap { reader.pointer($0, at: fields.path("items")) } ?? .root
            var key: JSONPointer?
            if let value = fields.take("key") {
                key = reader.pointer(value, at: fields.path("key"))
            } else {
                reader.report(fields.path("key"), "is required: a JSON pointer to each item's key, e.g. \"/id\"")
            }
            let pagination = pagination(fields.take("pagination"), at: fields.path("pagination"))
            if pagination?.placement == .body {
                var bodyIsObject = false
                if case .object = fields.members.last(where: { $0.name == "body" })?.value { bodyIsObject = true }
                if method != .post {
                    reader.report("\(fields.path("pagination")).in", "\"body\" needs \"method\": \"POST\"")
                } else if body != nil, !bodyIsObject {
                    reader.report(
                        fields.path("body"), "must be a JSON object when the pagination is sent in the body")
                }
            }
            let incremental = incremental(fields, method: method)
            let settings = settings(fields, base: defaults)
            if let auth = settings.auth {
                if headers.contains(where: { $0.name.lowercased() == "authorization" }) {
                    reader.report(
                        fields.path("headers"), "sets Authorization, and so does auth (here or in defaults): keep one")
                } else if let header = auth.header {
                    headers.append(("Authorization", header))
                }
            }
            fields.finish(reader)
            guard reader.problems.count == problemsBefore, let name, let url, let key, let pagination else {
                return nil
            }
            return ResourceConfig(
                name: name, url: url, method: method, headers: headers, query: query, body: body, items: items,
                key: key, pagination: pagination, settings: settings, incremental: incremental ?? nil)
        }

        /// `mode`, `since`, `deleted` and `fullResyncEvery` (docs/configuration.md#incremental-resources):
        /// `nil` for a snapshot resource; `.some(nil)` for an incremental one with problems.
        mutating func incremental(_ fields: ObjectFields, method: HTTPMethod) -> IncrementalSettings?? {
            let mode = reader.choice(fields, "mode", else: "must be \"snapshot\" or \"incremental\"") ?? Mode.snapshot
            let since = fields.take("since")
            let deleted = fields.take("deleted")
            let every = fields.take("fullResyncEvery")
            guard mode == .incremental else {
                for (key, value) in [("since", since), ("deleted", deleted), ("fullResyncEvery", every)]
                where value != nil {
                    reader.report(fields.path(key), "needs \"mode\": \"incremental\"")
                }
                return nil
            }
            guard let since else {
                reader.report(
                    fields.path("since"),
                    #"is required in incremental mode, e.g. {"field": "/updated_at", "param": "updated_since"}"#)
                return .some(nil)
            }
            guard let object = reader.object(since, at: fields.path("since")) else { return .some(nil) }
            let problems = reader.problems.count
            var source: IncrementalSettings.Source?
            let field = object.take("field").flatMap { reader.pointer($0, at: object.path("field")) }
            let fromBody = object.take("fromBody").flatMap { reader.pointer($0, at: object.path("fromBody")) }
            switch (field, fromBody) {
            case (let field?, nil): source = .field(field)
            case (nil, let body?): source = .body(body)
            case (nil, nil):
                reader.report(
                    object.path("field"), "or fromBody is required: where the next sync's value comes from")
            case (_?, _?): reader.report(object.path("fromBody"), "and field cannot both be set: choose one")
            }
            var placement: IncrementalSettings.Placement?
            let param = object.take("param").flatMap { reader.string($0, at: object.path("param")) }
            let bodyField = object.take("bodyField").flatMap { reader.pointer($0, at: object.path("bodyField")) }
            switch (param, bodyField) {
            case (let param?, nil):
                if param.isEmpty { reader.report(object.path("param"), "must not be empty") }
                placement = .query(param)
            case (nil, let pointer?):
                if method != .post { reader.report(object.path("bodyField"), "needs \"method\": \"POST\"") }
                if pointer == .root { reader.report(object.path("bodyField"), "must name a field, e.g. \"/since\"") }
                placement = .body(pointer)
            case (nil, nil):
                reader.report(object.path("param"), "or bodyField is required: where the value is sent")
            case (_?, _?): reader.report(object.path("bodyField"), "and param cannot both be set: choose one")
            }
            let format =
                reader.choice(object, "format", else: "must be \"iso8601\", \"unixSeconds\" or \"unixMilliseconds\"")
                ?? IncrementalSettings.Format.iso8601
            var initial = Date(timeIntervalSince1970: 0)
            if let value = object.take("initial") {
                if let date = format.date(from: value) {
                    initial = date
                } else {
                    reader.report(
                        object.path("initial"),
                        "must be a time: an ISO 8601 date such as \"2024-01-01T00:00:00Z\", or a Unix time")
                }
            }
            var lookback = Duration.zero
            if let value = object.take("lookback"),
                let duration = reader.duration(value, at: object.path("lookback"), atLeast: .zero)
            {
                lookback = duration
            }
            object.finish(reader)
            var rule: DeletedRule?
            if let deleted, let object = reader.object(deleted, at: fields.path("deleted")) {
                if let value = object.take("pointer"), let pointer = reader.pointer(value, at: object.path("pointer")) {
                    rule = DeletedRule(pointer: pointer, equals: object.take("equals") ?? .bool(true))
                } else {
                    reader.report(object.path("pointer"), "is required: the item field that marks a deletion")
                }
                object.finish(reader)
            }
            let fullResyncEvery = every.flatMap {
                reader.duration($0, at: fields.path("fullResyncEvery"), atLeast: .seconds(1))
            }
            guard reader.problems.count == problems, let source, let placement else { return .some(nil) }
            return IncrementalSettings(
                source: source, placement: placement, format: format, initial: initial, lookback: lookback,
                deleted: rule, fullResyncEvery: fullResyncEvery)
        }

        /// `mode`: how a resource syncs.
        enum Mode: String {
            /// Every sync reads the whole collection (the default).
            case snapshot
            /// Each sync asks only for what changed since the last (`since`).
            case incremental
        }

        mutating func url(_ fields: ObjectFields) -> URLTemplate? {
            let path = fields.path("url")
            guard let value = fields.take("url") else {
                reader.report(path, "is required")
                return nil
            }
            guard let text = reader.string(value, at: path) else { return nil }
            let template: URLTemplate
            do {
                template = try URLTemplate.parse(text, substitution: &substitution)
            } catch {
                reader.report(path, error.message)
                return nil
            }
            // Check the URL's shape with every placeholder filled by a sample value.
            let sample = template.render(Dictionary(uniqueKeysWithValues: template.dependencies.map { ($0, "1") }))
            guard let components = URLComponents(string: sample), let scheme = components.scheme?.lowercased(),
                scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
            else {
                reader.report(path, "must be an absolute http:// or https:// URL with a host")
                return nil
            }
            // Credentials written in the URL itself are secrets too (filled ones already are).
            // Only the password as written counts: a `${…}` elsewhere (the user name) fills no password.
            let authority = text.components(separatedBy: "://").dropFirst().first?.split(separator: "/").first ?? ""
            let userinfo = authority.lastIndex(of: "@").map { authority[..<$0] } ?? ""
            let writtenPassword = userinfo.firstIndex(of: ":").map { userinfo[userinfo.index(after: $0)...] } ?? ""
            if let password = components.password, !password.isEmpty, !writtenPassword.contains("${") {
                substitution.keepSecret(password, as: "[password]")
                // As written too: percent-encoded, perhaps otherwise than the redactor would.
                if let encoded = components.percentEncodedPassword {
                    substitution.keepSecret(encoded, as: "[password]")
                }
            }
            let written = text.split(separator: "?", maxSplits: 1).dropFirst().first ?? ""
            for pair in written.split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, CredentialNames.isCredential(query: parts[0]), !parts[1].contains("${")
                else { continue }
                substitution.keepSecret(parts[1].removingPercentEncoding ?? parts[1], as: "[\(parts[0])]")
            }
            return template
        }

        mutating func headers(_ fields: ObjectFields) -> [(name: String, value: String)] {
            guard let value = fields.take("headers"), let object = reader.object(value, at: fields.path("headers"))
            else {
                return []
            }
            var headers: [(name: String, value: String)] = []
            object.takeEach(reader, named: Self.isToken, else: "is not a valid header name") { member, path in
                guard let raw = reader.string(member.value, at: path), let text = substitute(raw, at: path) else {
                    return
                }
                guard !text.contains("\r"), !text.contains("\n") else {
                    reader.report(path, "must not contain line breaks")
                    return
                }
                if CredentialNames.isCredential(header: member.name), !raw.contains("${") {
                    // A credential written in the file is never shown either; nor is the
                    // token of an `Authorization: Bearer TOKEN` without its scheme.
                    if CredentialNames.hasScheme(header: member.name), let space = text.firstIndex(of: " ") {
                        substitution.keepSecret(String(text[text.index(after: space)...]), as: "[\(member.name)]")
                        substitution.keepSecret(text, as: "\(text[..<space]) [\(member.name)]")
                    } else {
                        substitution.keepSecret(text, as: "[\(member.name)]")
                    }
                }
                headers.append((member.name, text))
            }
            return headers
        }

        mutating func query(_ fields: ObjectFields) -> [(name: String, value: String)] {
            guard let value = fields.take("query"), let object = reader.object(value, at: fields.path("query")) else {
                return []
            }
            var query: [(name: String, value: String)] = []
            object.takeEach(reader) { member, path in
                let raw: String
                switch member.value {
                case .string(let text): raw = text
                case .number(let text): raw = text
                case .bool(let flag): raw = flag ? "true" : "false"
                default:
                    reader.report(path, "must be a string, a number or a boolean, not \(member.value.kindDescription)")
                    return
                }
                guard let text = substitute(raw, at: path) else { return }
                if CredentialNames.isCredential(query: member.name), !raw.contains("${") {
                    substitution.keepSecret(text, as: "[\(member.name)]")
                }
                query.append((member.name, text))
            }
            return query
        }

        mutating func body(_ fields: ObjectFields, method: HTTPMethod) -> RequestBody? {
            guard let value = fields.take("body") else { return nil }
            let path = fields.path("body")
            guard method == .post else {
                reader.report(path, "needs \"method\": \"POST\"")
                return nil
            }
            if case .string(let raw) = value {
                return substitute(raw, at: path).map { RequestBody(text: $0, contentType: "text/plain; charset=utf-8") }
            }
            guard let filled = substituteStrings(in: value, at: path) else { return nil }
            return RequestBody(text: filled.serialized(), contentType: "application/json")
        }

        mutating func substituteStrings(in value: JSONValue, at path: String) -> JSONValue? {
            switch value {
            case .string(let text): return substitute(text, at: path).map { .string($0) }
            case .array(let elements):
                var filled: [JSONValue] = []
                for (index, element) in elements.enumerated() {
                    guard let value = substituteStrings(in: element, at: "\(path)[\(index)]") else { return nil }
                    filled.append(value)
                }
                return .array(filled)
            case .object(let members):
                var filled: [JSONValue.Member] = []
                for member in members {
                    guard let value = substituteStrings(in: member.value, at: ObjectFields.path(path, member.name))
                    else { return nil }
                    filled.append(JSONValue.Member(member.name, value))
                }
                return .object(filled)
            default: return value
            }
        }

        mutating func substitute(_ text: String, at path: String) -> String? {
            do {
                return try substitution.apply(text)
            } catch {
                reader.report(path, error.message)
                return nil
            }
        }

        func pagination(_ value: JSONValue?, at path: String) -> Pagination? {
            guard let value else { return Pagination.none }
            guard let fields = reader.object(value, at: path) else { return nil }
            let allKeys = ConfigLoader.paginationKeys + ConfigLoader.pageEndKeys
            guard let styleValue = fields.take("style") else {
                reader.report(
                    fields.path("style"), "is required: one of \(ConfigLoader.styles.joined(separator: ", "))")
                fields.finish(reader, known: allKeys)
                return nil
            }
            guard let style = reader.string(styleValue, at: fields.path("style")) else { return nil }
            func text(_ key: String, default fallback: String) -> String {
                guard let value = fields.take(key), let text = reader.string(value, at: fields.path(key)) else {
                    return fallback
                }
                if text.isEmpty { reader.report(fields.path(key), "must not be empty") }
                return text
            }
            func required<T>(_ key: String, _ read: (JSONValue, String) -> T?, hint: String) -> T? {
                guard let value = fields.take(key) else {
                    reader.report(fields.path(key), "is required for style \(style): \(hint)")
                    return nil
                }
                return read(value, fields.path(key))
            }
            let result: Pagination.Style?
            switch style {
            case "none":
                result = Pagination.Style.none
            case "page":
                let param = text("param", default: "page")
                let sizeParam = text("sizeParam", default: "per_page")
                let size = required(
                    "size", { reader.integer($0, at: $1, in: 1...10_000) },
                    hint: "the page size the API returns (a shorter page is the last)")
                let start = fields.take("start").flatMap {
                    reader.integer($0, at: fields.path("start"), in: 0...1_000_000)
                }
                result = size.map { .page(param: param, sizeParam: sizeParam, size: $0, start: start ?? 1) }
            case "offset":
                let param = text("param", default: "offset")
                let limitParam = text("limitParam", default: "limit")
                let limit = required(
                    "limit", { reader.integer($0, at: $1, in: 1...10_000) },
                    hint: "the page size the API returns (a shorter page is the last)")
                result = limit.map { .offset(param: param, limitParam: limitParam, limit: $0) }
            case "cursor":
                let param = text("param", default: "cursor")
                if fields.has("cursorFromLastItem") {
                    if fields.has("next") {
                        reader.report(
                            fields.path("cursorFromLastItem"),
                            "and \"next\" cannot both be given: the cursor comes from the body or from the last item")
                    }
                    _ = fields.take("next")
                    let pointer = fields.take("cursorFromLastItem").flatMap {
                        reader.pointer($0, at: fields.path("cursorFromLastItem"))
                    }
                    result = pointer.map { .cursor(from: .lastItem($0), param: param) }
                } else {
                    let next = required(
                        "next", { reader.pointer($0, at: $1) },
                        hint: "a JSON pointer to the next cursor, e.g. \"/next_cursor\" "
                            + "(or \"cursorFromLastItem\": \"/id\")")
                    result = next.map { .cursor(from: .body($0), param: param) }
                }
            case "link":
                result = .link
            case "nextUrl":
                let next = required(
                    "next", { reader.pointer($0, at: $1) },
                    hint: "a JSON pointer to the next page's URL, e.g. \"/next\"")
                result = next.map { .nextURL(next: $0) }
            default:
                reader.report(fields.path("style"), "must be one of \(ConfigLoader.styles.joined(separator: ", "))")
                fields.finish(reader, known: allKeys)
                return nil
            }
            var pagination = result.map { Pagination(style: $0) }
            if style != "none" {
                if let value = fields.take("hasMore") {
                    pagination?.hasMore = reader.pointer(value, at: fields.path("hasMore"))
                }
                if let value = fields.take("stopWhen"), let object = reader.object(value, at: fields.path("stopWhen")) {
                    pagination?.stopWhen = responseMatch(object, statusAllowed: false)
                    object.finish(reader)
                }
                if let placement: Pagination.Placement = reader.choice(
                    fields, "in", else: "must be \"query\" or \"body\"")
                {
                    pagination?.placement = placement
                    if ["link", "nextUrl"].contains(style), placement == .body {
                        reader.report(fields.path("in"), "is not used by style \(style): its next page is a URL")
                    }
                }
            }
            // A key of another style is a mistake worth naming precisely.
            for member in fields.members where allKeys.contains(member.name) {
                if !fields.wasTaken(member.name) {
                    _ = fields.take(member.name)
                    reader.report(fields.path(member.name), "is not used by style \(style)")
                }
            }
            fields.finish(reader)
            return pagination
        }

        /// The valid names the resources array declares, even for resources with other problems.
        static func declaredNames(_ value: JSONValue?) -> Set<String> {
            guard case .array(let elements) = value else { return [] }
            return Set(
                elements.compactMap {
                    guard case .string(let name) = $0["name"], ConfigLoader.isValidName(name) else { return nil }
                    return name
                })
        }

        func checkDependencies(_ resources: [(String, ResourceConfig)], declared: Set<String>) {
            let byName = Dictionary(uniqueKeysWithValues: resources.map { ($0.1.name, $0.1) })
            for (resourcePath, resource) in resources {
                for dependency in resource.url.dependencies where !declared.contains(dependency.resource) {
                    reader.report("\(resourcePath).url", "refers to unknown resource \"\(dependency.resource)\"")
                }
            }
            // Depth-first search; each cycle is reported once, at its first resource in file order.
            var reported = Set<String>()
            for (resourcePath, resource) in resources where !reported.contains(resource.name) {
                if let cycle = Self.cycle(from: resource.name, byName) {
                    reported.formUnion(cycle)
                    reader.report(
                        "\(resourcePath).url", "dependency cycle: \((cycle + [cycle[0]]).joined(separator: " → "))")
                }
            }
        }

        /// Resources of one scope share one budget: two different ones are a mistake.
        func checkBudgets(_ resources: [(String, ResourceConfig)]) {
            var first: [String: (path: String, budget: RateLimitSettings.Budget)] = [:]
            for (resourcePath, resource) in resources {
                guard let budget = resource.settings.rateLimit.budget else { continue }
                let scope = resource.rateLimitScope
                guard let earlier = first[scope] else {
                    first[scope] = (resourcePath, budget)
                    continue
                }
                if earlier.budget != budget {
                    reader.report(
                        "\(resourcePath).rateLimit",
                        "differs from the budget of \(earlier.path) in the same scope \"\(scope)\" "
                            + "(\(earlier.budget.requests) per \(DurationText.format(earlier.budget.per)), "
                            + "burst \(earlier.budget.burst)); resources of one scope share one budget: "
                            + "give them the same, or set \"scope\"")
                }
            }
        }

        static func cycle(from start: String, _ byName: [String: ResourceConfig]) -> [String]? {
            func visit(_ name: String, _ trail: [String]) -> [String]? {
                for next in byName[name]?.dependencies ?? [] {
                    if next == start { return trail }
                    if trail.contains(next) { continue }
                    if let found = visit(next, trail + [next]) { return found }
                }
                return nil
            }
            return visit(start, [start])
        }

        static func isToken(_ name: String) -> Bool {
            !name.isEmpty
                && name.unicodeScalars.allSatisfy {
                    ($0.isASCIILetterOrDigit || "!#$%&'*+-.^_`|~".unicodeScalars.contains($0))
                }
        }
    }
}
