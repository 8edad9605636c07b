import Foundation
import Hummingbird
import NIOCore
import Store
import Streams
import SyncCore

/// The routes of the status API (docs/api.md#requests says what each answers): JSON in
/// and out, errors as `{"error": {"code", "message"}}` with a fitting status.
///
/// With `Accept: text/event-stream`, a refresh streams `progress`, `retry`
/// and `slow` events while it waits, then its `result`.
///
/// The Unix socket serves every request; the HTTP listener (``Listener/network(control:token:loopbackHosts:)``)
/// serves the requests that change something (refresh, reload) only with
/// control on and the bearer token.
struct StatusAPI<Control: AgentControl>: Sendable {
    /// How long the database's check of `GET /readyz` may take.
    static var storeCheckLimit: Duration { .seconds(3) }
    /// The most runs `GET /v1/resources/NAME/runs` returns.
    static var maxRuns: Int { 100 }
    /// The runs of each resource whose durations the status page draws.
    static var pageRuns: Int { 20 }

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
    /// The last `GET /v1/status` answer, reused while no status changes, and
    /// built anew only from the resources that changed: many clients polling
    /// cost one build per change, however many resources there are.
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

    /// The router: ``routes``, behind JSON errors for everything that goes wrong.
    func router() -> Router<ControlRequestContext> {
        let routes = self.routes
        let router = Router(context: ControlRequestContext.self)
        router.add(middleware: JSONErrorMiddleware(routes: routes))
        if case .network(_, _, loopbackHosts: true) = listener { router.add(middleware: LoopbackHostMiddleware()) }
        router.add(middleware: BodyLimitMiddleware())
        for route in routes {
            router.on(route.path, method: route.method, use: route.answer)
        }
        return router
    }

    /// Every route of the API, the one list of them: ``router()`` is built from it, and
    /// its ``JSONErrorMiddleware`` answers 405 for a path it lists with another method.
    var routes: [APIRoute<ControlRequestContext>] {
        [
            APIRoute(.get, "/v1/status") { _, _ in
                let key = StatusCache.Key(version: control.statusVersion, online: control.isOnline)
                let body = statusCache.body(for: key, agent: agentInfo, changes: control.statusChanges(since:))
                return Response(
                    status: .ok, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: body))
            },
            APIRoute(.get, "/v1/resources/:name") { _, context in
                let name = try context.parameters.require("name")
                guard let status = control.status(of: name) else { throw APIError.unknownResource(name) }
                return APIResponse.json(encoding: status)
            },
            APIRoute(.get, "/v1/resources/:name/runs") { request, context in
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
            },
            APIRoute(.get, "/v1/resources/:name/columns") { _, context in
                let name = try context.parameters.require("name")
                guard let status = control.status(of: name) else { throw APIError.unknownResource(name) }
                guard let table = control.typedTable(of: name) else { throw APIError.noColumns(name) }
                return APIResponse.json(encoding: ColumnsAnswer(table: table, misfit: status.columns?.misfit))
            },
            APIRoute(.post, "/v1/resources/:name/refresh") { request, context in
                try authorize(request)
                let name = try context.parameters.require("name")
                guard control.status(of: name) != nil else { throw APIError.unknownResource(name) }
                if request.headers[.accept]?.contains(ServerSentEvent.contentType) == true {
                    return APIResponse.eventStream(
                        keepAlive: keepAlive, limits: eventLimits, closing: context.channel
                    ) { sink in
                        await streamRefresh(of: name, to: sink)
                    }
                }
                guard let result = await Self.offControlThread({ await control.refresh(name) }) else {
                    throw APIError.unknownResource(name)
                }
                return APIResponse.json(encoding: result)
            },
            APIRoute(.post, "/v1/refresh") { request, _ in
                try authorize(request)
                // Encoding a result per resource is the refresh's work too, not the thread's that answers status.
                return await Self.offControlThread {
                    APIResponse.json(encoding: ResultsAnswer(results: await control.refreshAll()))
                }
            },
            APIRoute(.get, "/v1/events") { _, context in
                APIResponse.eventStream(keepAlive: keepAlive, limits: eventLimits, closing: context.channel) { sink in
                    await streamChanges(to: sink)
                }
            },
            APIRoute(.post, "/v1/reload") { request, _ in
                try authorize(request)
                switch await Self.offControlThread({ await reload() }) {
                case .reloaded(let summary):
                    return APIResponse.json(encoding: summary)
                case .refused(let error):
                    let answer = ErrorAnswer(
                        code: "invalid_config",
                        message: "the configuration \(error.file) is not loaded; the agent goes on with the one it has",
                        problems: error.problems.map(\.description))
                    return APIResponse.json(encoding: answer, status: .unprocessableContent)
                }
            },
            APIRoute(.get, "/v1/changes") { request, _ in
                try await changes(request)
            },
            APIRoute(.get, "/metrics") { _, _ in
                Response(
                    status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: control.metricsPage())))
            },
            APIRoute(.get, "/healthz") { _, _ in
                APIResponse.json(["status": "ok"])
            },
            APIRoute(.get, "/readyz") { _, _ in
                var problems = readiness.problems()
                if let problem = await databaseProblem() { problems.append(problem) }
                guard problems.isEmpty else {
                    let answer: JSONValue = ["status": "not ready", "reasons": .array(problems.map(JSONValue.string))]
                    return APIResponse.json(answer, status: .serviceUnavailable)
                }
                return APIResponse.json(["status": "ready"])
            },
            APIRoute(.get, "/") { _, _ in
                await statusPage()
            },
        ]
    }

    /// Runs `work` of the engine (syncs, a reload) on the global executor:
    /// the tasks it starts take the executor of the task that starts them
    /// (`InFlightSyncs`), and must not take ``ControlThread``, where the
    /// API answers.
    static func offControlThread<T>(_ work: () async -> T) async -> T {
        await withTaskExecutorPreference(globalConcurrentExecutor, operation: work)
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
        // A sync still running has no duration yet: it is left out.
        let durations = runs.mapValues { runs in
            runs.reversed().compactMap { run in
                run.durationMilliseconds.map { milliseconds in
                    StatusPage.RecentRun(
                        milliseconds: milliseconds, failed: run.outcome == .failed || run.outcome == .gaveUp)
                }
            }
        }
        var control = false
        if case .network(let enabled, _, _) = listener { control = enabled }
        let page = StatusPage.render(
            StatusPage.Input(
                agent: agentInfo(), resources: statuses, durations: durations, control: control,
                now: self.control.wallClock()))
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

    /// The agent, as the status shows it.
    func agentInfo() -> AgentInfo {
        AgentInfo(
            version: SyncAgentVersion.current, pid: Int(pid), startedAt: control.startedAt, online: control.isOnline)
    }
}
