import Foundation
import Logging
import NIOCore
import Store
import Streams
import Synchronization

/// Access tokens from OAuth2 token endpoints (docs/configuration.md#oauth2),
/// shared by every resource of the agent that uses the same `auth`:
///
/// - a token is fetched before the first request that needs it, and kept
///   until shortly before its `expires_in` runs out (until the API refuses it
///   when the endpoint tells no lifetime, as Salesforce's does);
/// - one request at a time fetches it, however many resources need it at once:
///   the others join that request;
/// - a request the API answers 401 is sent once more with a new token, within
///   the same attempt;
/// - a refresh token the server rotates is kept in the state database and
///   used from then on, across restarts; the configured one is only the first.
///
/// Tokens appear in no log line, status or error: errors tell the endpoint's
/// `error` and `error_description` only, and ``scrub(_:)`` takes out any token
/// a server echoes back.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
package final class OAuth2Tokens: Sendable {
    private struct Token: Sendable {
        var value: String
        /// When to fetch the next one, on ``elapsed``'s count; `nil`: when the API refuses it.
        var renewAt: Duration?
        /// What it was fetched with: a reload that changes the scopes or audience needs another.
        var settings: OAuth2Settings
    }

    /// What shares a token request: the same settings; for the `refresh_token`
    /// grant, the same auth and first refresh token (whatever else changed), since
    /// a rotating server takes each refresh token once, so its requests go one by one.
    private struct Key: Hashable {
        var settings: OAuth2Settings?
        var refreshChain: String?

        init(_ auth: OAuth2Settings) {
            if auth.grant == .refreshToken {
                refreshChain = OAuth2Tokens.chain(of: auth)
            } else {
                settings = auth
            }
        }
    }

    private struct State {
        var tokens: [Key: Token] = [:]
        var fetching: [Key: Task<Token, any Error>] = [:]
        /// Rotated refresh tokens the database could not keep, by ``chain(of:)``: used first, and saved again.
        var unsaved: [String: String] = [:]
        /// The newest refresh token of each chain (the database's copy when there is one).
        var rotated: [String: String] = [:]
    }

    private let state = Mutex(State())
    private let transport: any PageTransport
    private let store: (any SyncStore)?
    private let logger: Logger
    /// Time since some fixed start, on `clock`.
    private let elapsed: @Sendable () -> Duration
    /// The clock a token request's time limit runs on.
    private let clock: any Clock<Duration>
    /// The wall-clock time: when a rotated refresh token is kept, what an HTTP date means.
    private let now: @Sendable () -> Date

    /// The most a token endpoint's answer may hold.
    static let maxAnswerBytes = 1024 * 1024
    /// The longest a token request may take, whatever the resource's timeout: a
    /// request all the auth's resources wait for must end.
    static let timeout: Duration = .seconds(30)

    /// Creates the agent's tokens, fetched through `transport`; rotated
    /// refresh tokens are kept in `store` (in memory only without one).
    /// `elapsed` counts time on `clock`; `now` is the wall-clock time.
    package init(
        transport: any PageTransport, store: (any SyncStore)?, logger: Logger,
        clock: any Clock<Duration> = ContinuousClock(),
        elapsed: (@Sendable () -> Duration)? = nil, now: @escaping @Sendable () -> Date = SystemSources.now
    ) {
        self.transport = transport
        self.store = store
        self.logger = logger
        self.clock = clock
        self.now = now
        let start = ContinuousClock.now
        self.elapsed = elapsed ?? { start.duration(to: .now) }
    }

    /// Waits for the token requests in flight, so that a refresh token they
    /// rotate is kept before the agent stops; at most `limit` on the clock, and
    /// not past the caller's cancellation: then they are cancelled.
    package func finish(within limit: Duration = .seconds(3)) async {
        let pending = state.withLock { Array($0.fetching.values) }
        guard !pending.isEmpty else { return }
        let clock = clock
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for task in pending { _ = try? await task.value }
            }
            group.addTask { try? await clock.sleep(for: limit) }
            // The first to end: the requests, the limit, or the caller's cancellation.
            await group.next()
            for task in pending { task.cancel() }
            group.cancelAll()
        }
    }

    /// `text` with every token this process holds (access tokens, rotated
    /// refresh tokens) replaced by `[access token]` or `[refresh token]`: what
    /// a server may echo back in an error.
    package func scrub(_ text: String) -> String {
        let (access, refresh) = state.withLock { state in
            (state.tokens.values.map(\.value), Array(state.rotated.values) + Array(state.unsaved.values))
        }
        var result = text
        for (values, shown) in [(access, "[access token]"), (refresh, "[refresh token]")] {
            for value in values where value.count >= Redactor.minimumLength && result.contains(value) {
                result = result.replacingOccurrences(of: value, with: shown)
            }
        }
        return result
    }

    /// Sends `spec` with a bearer token of `auth`; if the API answers 401, fetches a
    /// new token and sends it once more.
    ///
    /// - Throws: what `transport` throws, or ``Failure`` from the token endpoint.
    package func send(
        _ spec: HTTPRequestSpec, auth: OAuth2Settings, via transport: any PageTransport, maxBytes: Int
    ) async throws -> HTTPResponseData {
        let token = try await self.token(for: auth, like: spec)
        let response = try await transport.send(Self.authorized(spec, token), maxBytes: maxBytes)
        guard response.status == 401 else { return response }
        let renewed = try await self.token(for: auth, like: spec, rejected: token)
        return try await transport.send(Self.authorized(spec, renewed), maxBytes: maxBytes)
    }

    private static func authorized(_ spec: HTTPRequestSpec, _ token: String) -> HTTPRequestSpec {
        var spec = spec
        spec.headers.append(("Authorization", "Bearer " + token))
        return spec
    }

    /// The token to send for `auth`: the one kept, unless it is `rejected` (the API
    /// just refused it) or about to expire; else a new one, fetched by one request
    /// for every caller that asks meanwhile, with the TLS and proxy settings of `page`.
    package func token(
        for auth: OAuth2Settings, like page: HTTPRequestSpec, rejected: String? = nil
    ) async throws -> String {
        enum Source {
            case kept(String)
            case fetching(Task<Token, any Error>)
        }
        let key = Key(auth)
        while true {
            let now = elapsed()
            let source: Source = try state.withLock { state in
                if let task = state.fetching[key] { return .fetching(task) }
                if let token = state.tokens[key], token.settings == auth, token.value != rejected,
                    token.renewAt.map({ now < $0 }) ?? true
                {
                    return .kept(token.value)
                }
                try Task.checkCancellation()
                state.tokens[key] = nil
                let task = Task { try await self.fetchAndKeep(auth, key: key, like: page) }
                state.fetching[key] = task
                return .fetching(task)
            }
            switch source {
            case .kept(let token): return token
            case .fetching(let task):
                let token = try await task.value
                // Joined a request made with settings since changed: the next one is made with these.
                if token.settings == auth { return token.value }
            }
        }
    }

    private func fetchAndKeep(_ auth: OAuth2Settings, key: Key, like page: HTTPRequestSpec) async throws -> Token {
        do {
            let token = try await fetch(auth, like: page)
            state.withLock { state in
                state.tokens[key] = token
                state.fetching[key] = nil
            }
            return token
        } catch {
            state.withLock { $0.fetching[key] = nil }
            throw error
        }
    }

    // MARK: - The token request

    /// A token endpoint that did not give a token, classified like any request
    /// (docs/configuration.md#oauth2).
    package struct Failure: Error, Sendable {
        /// The token request, as `POST https://…`.
        package var request: String
        package var kind: FetchError.Kind
        package var cause: String
        package var status: Int?
        package var retryAfter: Duration?
        package var ofMachine = false
    }

    private func fetch(_ auth: OAuth2Settings, like page: HTTPRequestSpec) async throws -> Token {
        let shown = "POST \(auth.tokenURL)"
        let refreshToken = try await currentRefreshToken(auth, request: shown)
        var form: [(String, String)] = [("grant_type", auth.grant.rawValue)]
        if let refreshToken { form.append(("refresh_token", refreshToken)) }
        if !auth.scopes.isEmpty { form.append(("scope", auth.scopes.joined(separator: " "))) }
        if let audience = auth.audience { form.append(("audience", audience)) }
        form += auth.extraParams.map { ($0.name, $0.value) }
        var headers: [(name: String, value: String)] = []
        if auth.clientAuth == .basic, let secret = auth.clientSecret {
            // RFC 6749 §2.3.1: the id and secret are form-encoded, then joined.
            let pair = Self.formEncode(auth.clientID) + ":" + Self.formEncode(secret)
            headers.append(("Authorization", "Basic " + Data(pair.utf8).base64EncodedString()))
        } else {
            form.append(("client_id", auth.clientID))
            if let secret = auth.clientSecret { form.append(("client_secret", secret)) }
        }
        let body = form.map { Self.formEncode($0.0) + "=" + Self.formEncode($0.1) }.joined(separator: "&")
        var spec = HTTPRequestSpec(
            method: .post, url: auth.tokenURL, headers: headers,
            body: RequestBody(text: body, contentType: "application/x-www-form-urlencoded"))
        // The resource's CAs, client certificate and proxy; not its serverName, which names the API's server.
        spec.tls = page.tls
        spec.tls.serverName = nil
        spec.proxy = page.proxy
        let started = elapsed()
        let response: HTTPResponseData
        do {
            let transport = transport
            response = try await clock.limiting(to: Self.timeout) { [spec] in
                try await transport.send(spec, maxBytes: Self.maxAnswerBytes)
            }
        } catch {
            let classified = FetchError.classify(
                error, resource: "", request: shown, host: URLComponents(string: auth.tokenURL)?.host ?? "?",
                proxy: page.proxy.server(for: auth.tokenURL), timeout: Self.timeout, maxBytes: Self.maxAnswerBytes)
            throw Failure(
                request: shown, kind: classified.kind, cause: "the token endpoint: " + classified.cause,
                ofMachine: classified.ofMachine)
        }
        let answer = try? JSONValue(parsing: Array(response.body.readableBytesView))
        guard (200..<300).contains(response.status) else {
            throw Self.refusal(response, answer: answer, request: shown, scrubbing: refreshToken, now: now())
        }
        // Kept first: the server may have spent the one presented, whatever else the answer holds.
        if case .string(let rotated)? = answer?["refresh_token"], !rotated.isEmpty, rotated != refreshToken,
            auth.grant == .refreshToken
        {
            await keep(rotated, for: auth)
        }
        guard case .string(let value)? = answer?["access_token"], !value.isEmpty else {
            throw Failure(
                request: shown, kind: .unrecoverable,
                cause: "the token endpoint answered \(response.status) without an access_token")
        }
        if case .string(let type)? = answer?["token_type"], type.lowercased() != "bearer" {
            throw Failure(
                request: shown, kind: .unrecoverable,
                cause: "the token endpoint gave a token of type \"\(type)\"; the agent sends Bearer tokens only")
        }
        let lifetime = Self.lifetime(answer?["expires_in"])
        logger.debug(
            "fetched an access token",
            metadata: ["auth": "\(auth.identity)", "expiresIn": "\(lifetime.map { DurationText.format($0) } ?? "-")"])
        // Renewed a little early: a tenth of its life, at most a minute, before it ends.
        return Token(
            value: value, renewAt: lifetime.map { started + $0 - min(.seconds(60), $0 / 10) }, settings: auth)
    }

    /// `expires_in`: seconds, as a number or (as some servers send it) a string.
    private static func lifetime(_ value: JSONValue?) -> Duration? {
        let seconds: Double?
        switch value {
        case .number(let text)?, .string(let text)?: seconds = Double(text)
        default: seconds = nil
        }
        guard let seconds, seconds.isFinite, seconds > 0 else { return nil }
        return .milliseconds(Int64(min(seconds, 365 * 86_400) * 1000))
    }

    /// The error of a token endpoint's answer that is no success (RFC 6749 §5.2).
    private static func refusal(
        _ response: HTTPResponseData, answer: JSONValue?, request: String, scrubbing refreshToken: String?, now: Date
    ) -> Failure {
        let status = response.status
        let retryAfter = RetryAfter.parse(response.headers.first(name: "Retry-After"), now: now)
        guard case .string(let code)? = answer?["error"] else {
            return Failure(
                request: request, kind: FetchError.kind(ofStatus: status),
                cause: "the token endpoint answered \(status) \(HTTPReason.phrase(status))", status: status,
                retryAfter: retryAfter)
        }
        var cause = "the token endpoint refused: \(code)"
        if case .string(let description)? = answer?["error_description"], !description.isEmpty {
            // A server may quote the refresh token it refuses.
            let shown = refreshToken.map { description.replacingOccurrences(of: $0, with: "[refresh token]") }
            cause += " (\(shown ?? description))"
        }
        let kind: FetchError.Kind =
            code == "temporarily_unavailable" ? .transient : FetchError.kind(ofStatus: status)
        return Failure(request: request, kind: kind, cause: cause, status: status, retryAfter: retryAfter)
    }

    // MARK: - Refresh tokens

    /// The refresh token to present: the one the server rotated to last
    /// (from the database, where another process may have rotated it too),
    /// else the configured one.
    private func currentRefreshToken(_ auth: OAuth2Settings, request: String) async throws -> String? {
        guard auth.grant == .refreshToken, let configured = auth.refreshToken else { return nil }
        let chain = Self.chain(of: auth)
        let (unsaved, rotated) = state.withLock { ($0.unsaved[chain], $0.rotated[chain]) }
        if let unsaved {
            await keep(unsaved, for: auth)
            return unsaved
        }
        guard let store else { return rotated ?? configured }
        do {
            let stored = try await store.rotatedRefreshToken(
                for: auth.identity, configured: Self.fingerprint(configured))
            if let stored { state.withLock { $0.rotated[chain] = stored } }
            return stored ?? configured
        } catch {
            throw Failure(
                request: request, kind: .transient,
                cause: "the rotated refresh token cannot be read: \(error.message)")
        }
    }

    /// Keeps `token`, to which the server rotated the refresh token of `auth`.
    private func keep(_ token: String, for auth: OAuth2Settings) async {
        let chain = Self.chain(of: auth)
        state.withLock { $0.rotated[chain] = token }
        guard let store, let configured = auth.refreshToken else { return }
        do {
            try await store.saveRotatedRefreshToken(
                token, for: auth.identity, configured: Self.fingerprint(configured), at: now())
            let wasUnsaved = state.withLock { $0.unsaved.removeValue(forKey: chain) != nil }
            let message: Logger.Message =
                wasUnsaved
                ? "the rotated refresh token is kept in the database now"
                : "the token endpoint rotated the refresh token; the new one is kept in the database"
            logger.info(
                message,
                metadata: ["auth": "\(auth.identity)"])
        } catch {
            let first = state.withLock { $0.unsaved.updateValue(token, forKey: chain) == nil }
            if first {
                logger.error(
                    """
                    the rotated refresh token cannot be kept in the database (\(error.message)): the agent \
                    uses it from memory and saves it at the next token request; a restart before then loses it
                    """,
                    metadata: ["auth": "\(auth.identity)"])
            }
        }
    }

    /// What identifies the configured refresh token in the database.
    static func fingerprint(_ token: String) -> String { FNV1a.hex(token) }

    /// The refresh tokens rotated from the configured one of `auth`: its identity and that one's fingerprint.
    static func chain(of auth: OAuth2Settings) -> String {
        auth.identity + " " + fingerprint(auth.refreshToken ?? "")
    }

    /// `application/x-www-form-urlencoded` (the percent-encoding of the agent's URLs).
    static func formEncode(_ text: String) -> String {
        PercentEncoding.encode(text)
    }
}

extension Clock where Duration == Swift.Duration {
    /// `operation`, ended with `TimeoutError` after `limit` on this clock. (A
    /// method of the clock, so that a clock held as `any Clock` is opened.)
    fileprivate func limiting<T: Sendable>(
        to limit: Duration, _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withTimeout(limit, clock: self, operation: operation)
    }
}
