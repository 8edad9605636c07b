import Foundation
import Hummingbird
import NIOCore
import Store
import Streams
import SyncCore
import Synchronization

/// What the status API needs of the running agent: ``SyncEngine`` in the
/// agent, a stand-in in the routes' unit tests.
protocol AgentControl: Sendable {
    /// When the agent started.
    var startedAt: Date { get }
    /// Whether the machine is online.
    var isOnline: Bool { get }
    /// Every resource's status, in configuration order.
    func statuses() -> [ResourceStatus]
    /// The status of `name`, or `nil` for an unknown resource.
    func status(of name: String) -> ResourceStatus?
    /// A count that changes whenever a status changes (so answers can be reused until it does).
    var statusVersion: Int { get }
    /// Every resource's status and the version of the changes they show.
    func statusSnapshot() -> (version: Int, statuses: [ResourceStatus])
    /// Syncs `name` now or joins its sync in flight (`nil` for an unknown
    /// resource); `onActivity`, if set, is told what the sync reports as it
    /// happens, all of it before the result is returned.
    func refresh(_ name: String, onActivity: (@Sendable (SyncActivity) -> Void)?) async -> SyncResult?
    /// Refreshes every resource.
    func refreshAll() async -> [SyncResult]
    /// Every change of a resource's status, numbered; it ends when the agent stops.
    var changes: PassthroughSubject<StatusChange, Never> { get }
    /// The Prometheus text of `GET /metrics`.
    func metricsPage() -> String
    /// Up to `limit` changes of the feed after `seq`, of `resource` or of all.
    func changeFeed(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage
    /// The last `limitEach` sync runs of each of `resources`, newest first, in one read.
    func recentRuns(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]]
    /// Why the database cannot be read now, or `nil` when it can.
    func storeProblem() async -> String?
}

extension AgentControl {
    /// Syncs `name` now or joins its sync in flight (`nil` for an unknown resource).
    func refresh(_ name: String) async -> SyncResult? {
        await refresh(name, onActivity: nil)
    }
}

extension SyncEngine: AgentControl {
    func statusSnapshot() -> (version: Int, statuses: [ResourceStatus]) { publication.snapshot() }

    var isOnline: Bool { connectivity.online.value }

    /// `GET /metrics`: the counters, and the gauges of the current statuses.
    func metricsPage() -> String {
        metrics.render(statuses: statuses(), online: isOnline, startedAt: startedAt)
    }

    func changeFeed(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage {
        try await store.changes(of: resource, after: seq, limit: limit)
    }

    func recentRuns(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]] {
        try await store.runs(of: resources, limitEach: limitEach)
    }

    /// A read of the database: `nil` when it answers.
    func storeProblem() async -> String? {
        do throws(StoreError) {
            _ = try await store.lastChangeSeq()
            return nil
        } catch {
            return "the database cannot be read: \(error.message)"
        }
    }
}

/// The routes of the status API (docs/api.md#requests): JSON in and out, errors as
/// `{"error": {"code", "message"}}` with a fitting status.
///
/// | request | answer |
/// | --- | --- |
/// | `GET /v1/status` | the agent and every Resource |
/// | `GET /v1/resources/NAME` | one Resource |
/// | `POST /v1/resources/NAME/refresh` | waits for the sync it started or joined; a Result |
/// | `POST /v1/refresh` | refreshes every resource; `{"results": [Result…]}` |
/// | `GET /v1/events` | server-sent events: every resource at once, then each change |
/// | `POST /v1/reload` | reloads the configuration; `{"added", "removed", "changed"}` or 422 |
/// | `GET /v1/changes?resource=NAME&after=SEQ&limit=N` | the change feed: `{"changes", "next", "missed"}` |
/// | `GET /v1/resources/NAME/runs?limit=N` | its last sync runs, newest first: `{"runs": [Run…]}` |
/// | `GET /metrics` | Prometheus text (docs/observability.md#metrics) |
/// | `GET /healthz`, `GET /readyz` | health checks (docs/observability.md#health-checks) |
/// | `GET /` | the status page (docs/observability.md#the-status-page) |
///
/// With `Accept: text/event-stream`, a refresh streams `progress`, `retry`
/// and `slow` events while it waits, then its `result`.
///
/// The Unix socket serves every request; the HTTP listener (``Listener/network(control:token:)``)
/// serves the requests that change something (refresh, reload) only with
/// control on and the bearer token.
struct StatusAPI<Control: AgentControl>: Sendable {
    /// Where the API is served, and so who may change something.
    enum Listener: Sendable {
        /// The Unix socket: whoever may open it (its mode says) may do everything.
        case socket
        /// The TCP listener: read-only, or with `control` the requests that
        /// change something need the bearer token `token()` gives now. With
        /// `loopbackHosts`, only requests for a loopback name (`Host:
        /// localhost`, `127.0.0.1`, `[::1]`) are answered: a page of another
        /// site that rebinds its name to 127.0.0.1 reads nothing.
        case network(control: Bool, token: @Sendable () -> String?, loopbackHosts: Bool)
    }

    /// How long the database's check of `GET /readyz` may take.
    static var storeCheckLimit: Duration { .seconds(3) }
    /// The most runs `GET /v1/resources/NAME/runs` returns.
    static var maxRuns: Int { 100 }
    /// The runs of each resource whose durations the status page draws.
    static var pageRuns: Int { 20 }

    /// The `resource` events of `GET /v1/events`, as the stream carries them.
    typealias ResourceEvents = AsyncShareSequence<
        AsyncMapSequence<PassthroughSubject<StatusChange, Never>, ResourceEvent>
    >

    let control: Control
    /// The agent's process ID, as the status shows it.
    var pid: Int32
    /// How often an event stream sends a comment, so a client that has gone
    /// away is noticed and one that waits knows the agent is alive.
    var keepAlive: Duration = .seconds(15)
    /// How much an event stream holds for a client that reads too slowly.
    var eventLimits = EventSink.Limits()
    /// Where it is served.
    var listener = Listener.socket
    /// What `GET /readyz` checks besides the database.
    var readiness = Readiness()
    /// Keeps the deadline of `GET /readyz`'s read of the database.
    var timers = Timers(clock: ContinuousClock())
    /// Reloads the agent's configuration, for `POST /v1/reload`.
    var reload: @Sendable () async -> ReloadOutcome = {
        .refused(ConfigError(file: "", problems: [ConfigProblem("", "this agent cannot reload")]))
    }
    /// The last `GET /v1/status` answer, reused while no status changes:
    /// many clients polling cost one rendering per change.
    private let statusCache = StatusCache()
    /// Each change encoded once, and shared (`share`) by every client of
    /// `GET /v1/events`.
    let resourceEvents: ResourceEvents

    /// The API of the agent `control`, running as process `pid`.
    init(control: Control, pid: Int32 = getpid()) {
        self.control = control
        self.pid = pid
        resourceEvents = control.changes.map(ResourceEvent.init).share(replay: 0, buffering: .unbounded)
    }

    /// Keeps the shared change events subscribed until the agent stops, so
    /// that a client who joins is sure to get every change from then on (the
    /// shared iteration otherwise starts at a client's first request).
    func followChanges() async {
        do {
            for try await _ in resourceEvents {}
        } catch {
            // Cancelled: the agent is stopping.
        }
    }

    /// The router, with JSON errors for everything that goes wrong.
    func router() -> Router<ControlRequestContext> {
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        if case .network(_, _, loopbackHosts: true) = listener { router.add(middleware: LoopbackHostMiddleware()) }
        router.add(middleware: BodyLimitMiddleware())
        router.get("/v1/status") { _, _ in
            let key = StatusCache.Key(version: control.statusVersion, online: control.isOnline)
            let body = statusCache.body(for: key) { APIResponse.jsonBody(encoding: status()) }
            return Response(
                status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
        }
        router.get("/v1/resources/:name") { _, context in
            let name = try context.parameters.require("name")
            guard let status = control.status(of: name) else { throw APIError.unknownResource(name) }
            return APIResponse.json(encoding: status)
        }
        router.get("/v1/resources/:name/runs") { request, context in
            let name = try context.parameters.require("name")
            guard control.status(of: name) != nil else { throw APIError.unknownResource(name) }
            let limit = try Self.limit(request.uri.queryParameters["limit"].map(String.init), default: 20)
            let runs: [SyncRunRow]
            do throws(StoreError) {
                runs = try await control.recentRuns(of: [name], limitEach: limit)[name] ?? []
            } catch {
                throw APIError(status: .serviceUnavailable, code: "database_unavailable", message: error.message)
            }
            return APIResponse.json(["runs": .array(runs.map(\.json))])
        }
        router.get("/healthz") { _, _ in
            APIResponse.json(["status": "ok"])
        }
        router.get("/readyz") { _, _ in
            var problems = readiness.problems()
            if let problem = await databaseProblem() { problems.append(problem) }
            guard problems.isEmpty else {
                let answer: JSONValue = ["status": "not ready", "reasons": .array(problems.map(JSONValue.string))]
                return APIResponse.json(answer, status: .serviceUnavailable)
            }
            return APIResponse.json(["status": "ready"])
        }
        router.get("/") { _, _ in
            await statusPage()
        }
        router.post("/v1/resources/:name/refresh") { request, context in
            try authorize(request)
            let name = try context.parameters.require("name")
            guard control.status(of: name) != nil else { throw APIError.unknownResource(name) }
            if request.headers[.accept]?.contains(ServerSentEvent.contentType) == true {
                return APIResponse.eventStream(keepAlive: keepAlive, limits: eventLimits, closing: context.channel) {
                    sink in await streamRefresh(of: name, to: sink)
                }
            }
            guard let result = await control.refresh(name) else { throw APIError.unknownResource(name) }
            return APIResponse.json(encoding: result)
        }
        router.post("/v1/refresh") { request, _ in
            try authorize(request)
            let results = await control.refreshAll()
            return APIResponse.json(encoding: ResultsAnswer(results: results))
        }
        router.get("/v1/events") { _, context in
            APIResponse.eventStream(keepAlive: keepAlive, limits: eventLimits, closing: context.channel) { sink in
                await streamChanges(to: sink)
            }
        }
        router.post("/v1/reload") { request, _ in
            try authorize(request)
            switch await reload() {
            case .reloaded(let summary):
                return APIResponse.json(encoding: summary)
            case .refused(let error):
                let answer = ErrorAnswer(
                    code: "invalid_config",
                    message: "the configuration \(error.file) is not loaded; the agent goes on with the one it has",
                    problems: error.problems.map(\.description))
                return APIResponse.json(encoding: answer, status: .unprocessableContent)
            }
        }
        router.get("/v1/changes") { request, _ in
            try await changes(request)
        }
        router.get("/metrics") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: control.metricsPage())))
        }
        return router
    }

    /// Why the database cannot be read now, if it cannot: a read that does
    /// not answer within ``storeCheckLimit`` is left to end on its own, so a
    /// probe never waits longer, however the database is stuck.
    private func databaseProblem() async -> String? {
        do {
            return try await withTimeout(Self.storeCheckLimit, timers: timers) { await control.storeProblem() }
        } catch is TimeoutError {
            return "the database did not answer within \(DurationText.format(Self.storeCheckLimit))"
        } catch {
            return "the agent is shutting down"
        }
    }

    /// Lets a request that changes something through: on the socket always;
    /// on the HTTP listener only with control on and the token as
    /// `Authorization: Bearer TOKEN` (compared in constant time).
    private func authorize(_ request: Request) throws(APIError) {
        guard case .network(let control, let token, _) = listener else { return }
        guard control else {
            throw APIError(
                status: .forbidden, code: "read_only",
                message: "the HTTP listener is read-only; this request needs \"http\": {\"control\": true} and a "
                    + "token, or the Unix socket")
        }
        // The scheme is case-insensitive (RFC 9110); the token is read only for a request that sends one.
        let header = Array((request.headers[.authorization] ?? "").utf8)
        let scheme = Array("bearer ".utf8)
        guard header.count > scheme.count, header.prefix(scheme.count).map({ $0 | 0x20 }) == scheme else {
            throw APIError.unauthorized(
                "this request changes something: send the agent's token as \"Authorization: Bearer TOKEN\"")
        }
        guard let expected = token(),
            Self.constantTimeEqual(Array(header.dropFirst(scheme.count)), Array(expected.utf8))
        else {
            throw APIError.unauthorized("the token was refused")
        }
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }

    /// A `limit` query parameter: 1 to ``maxRuns``, `fallback` when absent.
    private static func limit(_ text: String?, default fallback: Int) throws(APIError) -> Int {
        guard let text else { return fallback }
        guard let limit = Int(text), (1...maxRuns).contains(limit) else {
            throw APIError(
                status: .badRequest, code: "bad_request", message: "limit must be a number from 1 to \(maxRuns)")
        }
        return limit
    }

    /// `GET /`: the status page, with the durations of each resource's last runs.
    private func statusPage() async -> Response {
        let statuses = control.statuses()
        // A database that cannot be read leaves the sparklines out, not the page.
        let runs = (try? await control.recentRuns(of: statuses.map(\.name), limitEach: Self.pageRuns)) ?? [:]
        let durations = runs.mapValues { runs in
            runs.reversed().map {
                StatusPage.RecentRun(
                    milliseconds: $0.durationMilliseconds, failed: [.failed, .gaveUp].contains($0.outcome))
            }
        }
        var control = false
        if case .network(let enabled, _, _) = listener { control = enabled }
        let page = StatusPage.render(
            StatusPage.Input(
                agent: agentInfo(), resources: statuses, durations: durations, control: control, now: Date()))
        return Response(
            status: .ok,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: StatusPage.contentSecurityPolicy, .xContentTypeOptions: "nosniff",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// `GET /v1/changes?resource=NAME&after=SEQ&limit=N`: a part of the change feed.
    private func changes(_ request: Request) async throws -> Response {
        let query = request.uri.queryParameters
        let resource = query["resource"].map(String.init)
        if let resource, control.status(of: resource) == nil { throw APIError.unknownResource(resource) }
        let after: Int64
        let limit: Int
        do {
            (after, limit) = try ChangeFeed.parse(
                after: query["after"].map(String.init), limit: query["limit"].map(String.init))
        } catch let problem as ChangeFeed.Problem {
            throw APIError(status: .badRequest, code: "bad_request", message: problem.message)
        }
        let page: ChangePage
        do {
            page = try await control.changeFeed(of: resource, after: after, limit: limit)
        } catch {
            throw APIError(status: .serviceUnavailable, code: "database_unavailable", message: error.message)
        }
        return APIResponse.json(ChangeFeed.json(page))
    }

    /// `GET /v1/events`: a `resource` event for every resource as it is now,
    /// then one for each change, until the agent stops or the client leaves.
    private func streamChanges(to sink: EventSink) async {
        // Subscribed before the snapshot is taken: no change falls between.
        // Changes the snapshot already shows (numbered up to its version, but
        // still on their way) are not sent again: a client never sees a
        // resource go back to an older status.
        var changes = resourceEvents.makeAsyncIterator()
        let snapshot = control.statusSnapshot()
        for status in snapshot.statuses {
            guard sink.send(ServerSentEvent(name: "resource", encoding: status), bounded: false) else { return }
        }
        do {
            while let event = try await changes.next() {
                guard event.change.version > snapshot.version else { continue }
                guard sink.send(text: event.text) else { return }
            }
        } catch {
            // The client left.
        }
    }

    /// A refresh with `Accept: text/event-stream`: the `progress`, `retry`
    /// and `slow` events of the sync it started or joined, then its `result`.
    private func streamRefresh(of name: String, to sink: EventSink) async {
        if control.status(of: name)?.slow == true {
            // It joins a sync that is already slow.
            sink.send(ServerSentEvent(activity: .slow(resource: name)))
        }
        let result = await control.refresh(name) { report in
            // The result is the refresh's own, told last.
            if case .finished = report { return }
            sink.send(ServerSentEvent(activity: report))
        }
        if let result { sink.send(ServerSentEvent(activity: .finished(result))) }
    }

    /// The answer of `GET /v1/status`.
    func status() -> StatusAnswer {
        StatusAnswer(agent: agentInfo(), resources: control.statuses())
    }

    /// The agent, as the status shows it.
    func agentInfo() -> AgentInfo {
        AgentInfo(
            version: SyncAgentVersion.current, pid: Int(pid), startedAt: control.startedAt, online: control.isOnline)
    }
}

/// The request context of the status API: Hummingbird's basic one, and the
/// client's connection, so that an event stream can close it.
struct ControlRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's connection.
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// One change as a `resource` event of `GET /v1/events`, encoded when a
/// client first asks for it and then reused by every other: nothing is
/// encoded while no client listens.
///
/// Thread-safety: `Sendable`; the text is behind a `Mutex`.
final class ResourceEvent: Sendable {
    let change: StatusChange
    private let encoded = Mutex<String?>(nil)

    init(_ change: StatusChange) {
        self.change = change
    }

    /// The event as the stream carries it, followed by a `changes` event
    /// when the sync that ended with it changed records.
    var text: String {
        encoded.withLock { encoded in
            if let encoded { return encoded }
            var text = ServerSentEvent(name: "resource", encoding: change.status).encoded
            if let feed = change.feed {
                let changes: JSONValue = [
                    "resource": .string(change.status.name), "first": .number(Int(feed.lowerBound)),
                    "last": .number(Int(feed.upperBound)),
                ]
                text += ServerSentEvent(name: "changes", data: changes).encoded
            }
            encoded = text
            return text
        }
    }
}

/// Building the API's answers.
enum APIResponse {
    /// A JSON answer.
    package static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: jsonBody(value)))
    }

    /// A JSON answer with `value` as its body.
    package static func json(encoding value: some Encodable, status: HTTPResponse.Status = .ok) -> Response {
        json(JSONValue(encoding: value), status: status)
    }

    /// The body of a JSON answer: pretty, for people reading curl's output.
    static func jsonBody(_ value: JSONValue) -> ByteBuffer {
        ByteBuffer(string: value.serialized(pretty: true) + "\n")
    }

    /// The body of a JSON answer with `value`.
    static func jsonBody(encoding value: some Encodable) -> ByteBuffer {
        jsonBody(JSONValue(encoding: value))
    }

    /// A stream of server-sent events: `produce` sends them to its sink
    /// and returns when the stream is done. The stream sends a comment every
    /// `keepAlive`; when the client leaves, `produce` is cancelled. A client
    /// that falls `limits` behind gets a last `overflow` event if it still
    /// reads, and its `connection` is closed either way.
    static func eventStream(
        keepAlive: Duration, limits: EventSink.Limits, closing connection: any Channel,
        _ produce: @escaping @Sendable (EventSink) async -> Void
    ) -> Response {
        Response(
            status: .ok,
            headers: [.contentType: ServerSentEvent.contentType, .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                let sink = EventSink(limits: limits) {
                    // A client that reads nothing never takes the last event:
                    // its connection is closed all the same, freeing its backlog.
                    connection.eventLoop.scheduleTask(in: .seconds(1)) { connection.close(promise: nil) }
                }
                await withTaskGroup(of: Void.self) { group in
                    group.addTask {
                        await produce(sink)
                        sink.finish()
                    }
                    group.addTask {
                        while (try? await Task.sleep(for: keepAlive)) != nil {
                            guard sink.send(text: ": keep-alive\n\n") else { return }
                        }
                    }
                    do {
                        for await text in sink.texts {
                            try await writer.write(ByteBuffer(string: text))
                            sink.written(text)
                        }
                        if sink.overflowed {
                            try await writer.write(ByteBuffer(string: ServerSentEvent.overflow.encoded))
                        }
                    } catch {
                        // The client left.
                    }
                    group.cancelAll()
                }
                try await writer.finish(nil)
                // Not kept for another request: the timer above must not cut one.
                if sink.overflowed { connection.close(promise: nil) }
            })
    }

    /// The routes, for telling a wrong method from an unknown path.
    static let routes: [(method: HTTPRequest.Method, pattern: [String])] = [
        (.get, ["v1", "status"]),
        (.get, ["v1", "resources", "*"]),
        (.get, ["v1", "resources", "*", "runs"]),
        (.post, ["v1", "resources", "*", "refresh"]),
        (.post, ["v1", "refresh"]),
        (.get, ["v1", "events"]),
        (.post, ["v1", "reload"]),
        (.get, ["v1", "changes"]),
        (.get, ["metrics"]),
        (.get, ["healthz"]),
        (.get, ["readyz"]),
        (.get, []),
    ]

    /// The methods the API answers at `path`, if it knows the path.
    static func methods(at path: String) -> [HTTPRequest.Method] {
        let parts = path.split(separator: "/").map(String.init)
        return routes.filter { route in
            route.pattern.count == parts.count && zip(route.pattern, parts).allSatisfy { $0 == "*" || $0 == $1 }
        }.map(\.method)
    }
}

/// An error the API answers with.
struct APIError: Error {
    package var status: HTTPResponse.Status
    var code: String
    var message: String

    static func unknownResource(_ name: String) -> APIError {
        APIError(status: .notFound, code: "unknown_resource", message: "no resource named \"\(name)\"")
    }

    /// A request that changes something came to the HTTP listener without the right token.
    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: "unauthorized", message: message)
    }

    /// The body of an error (docs/api.md#errors): `{"error": {"code", "message"}}`.
    var answer: ErrorAnswer { ErrorAnswer(code: code, message: message) }
}

/// Turns every error into the API's JSON error: unknown paths, wrong
/// methods, unknown resources and anything unexpected.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            var response = APIResponse.json(encoding: error.answer, status: error.status)
            if error.status == .unauthorized { response.headers[.wwwAuthenticate] = "Bearer realm=\"sync-agent\"" }
            return response
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = APIResponse.methods(at: request.uri.path)
            let error =
                allowed.isEmpty
                ? APIError(status: .notFound, code: "not_found", message: "no such endpoint: \(request.uri.path)")
                : APIError(
                    status: .methodNotAllowed, code: "method_not_allowed",
                    message: "\(request.uri.path) answers \(allowed.map(\.rawValue).joined(separator: ", ")) only")
            return APIResponse.json(encoding: error.answer, status: error.status)
        } catch let error as HTTPError {
            let failure = APIError(status: error.status, code: "bad_request", message: error.body ?? "\(error.status)")
            return APIResponse.json(encoding: failure.answer, status: error.status)
        } catch {
            let failure = APIError(status: .internalServerError, code: "internal", message: "\(error)")
            return APIResponse.json(encoding: failure.answer, status: failure.status)
        }
    }
}

/// Answers only requests for a loopback name (`Host: localhost`,
/// `127.0.0.1`, `[::1]`, any port), with 403 otherwise: a web page of another
/// site whose name was rebound to 127.0.0.1 (DNS rebinding) cannot read the
/// listener from a browser on this machine (docs/observability.md#the-http-listener).
struct LoopbackHostMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        // A request without a host (HTTP/1.0) is no browser's.
        guard let host = request.head.authority, !Self.isLoopback(host) else {
            return try await next(request, context)
        }
        throw APIError(
            status: .forbidden, code: "forbidden_host",
            message: "this listener answers requests for localhost, 127.0.0.1 or [::1] only, not \(host)")
    }

    /// Whether `authority` (`HOST[:PORT]`) names this machine's loopback.
    static func isLoopback(_ authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            host = host.dropFirst().prefix { $0 != "]" }
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        return HTTPListenerSettings.isLoopback(host: String(host))
    }
}

/// Refuses a request body larger than ``limit`` with 413, without reading it
/// to the end, and closes the connection (docs/api.md#errors): no request of
/// the API needs more than a few bytes.
struct BodyLimitMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The largest request body accepted.
    static var limit: Int { 64 * 1024 }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var request = request
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.limit {
            return Self.tooLarge
        }
        do {
            _ = try await request.collectBody(upTo: Self.limit)
        } catch is NIOTooManyBytesError {
            return Self.tooLarge
        }
        return try await next(request, context)
    }

    private static var tooLarge: Response {
        let error = APIError(
            status: .contentTooLarge, code: "too_large",
            message: "the request body is larger than \(limit / 1024) KiB; no request of this API needs one")
        var response = APIResponse.json(encoding: error.answer, status: error.status)
        response.headers[.connection] = "close"
        return response
    }
}

/// The latest `GET /v1/status` body and what it was rendered from.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
final class StatusCache: Sendable {
    /// What a body depends on besides the agent's fixed fields.
    struct Key: Sendable, Hashable {
        var version: Int
        package var online: Bool
    }

    private let latest = Mutex<(key: Key, body: ByteBuffer)?>(nil)

    /// The body for `key`: the cached one if it was rendered for `key`, else a new one from `render`.
    func body(for key: Key, render: () -> ByteBuffer) -> ByteBuffer {
        if let cached = latest.withLock({ $0 }), cached.key == key { return cached.body }
        let body = render()
        latest.withLock { $0 = (key, body) }
        return body
    }
}
