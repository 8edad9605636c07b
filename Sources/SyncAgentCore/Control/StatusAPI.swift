import Foundation
import Hummingbird
import Store

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
    /// Syncs `name` now or joins its sync in flight (`nil` for an unknown resource).
    func refresh(_ name: String) async -> SyncResult?
    /// Refreshes every resource.
    func refreshAll() async -> [SyncResult]
}

extension SyncEngine: AgentControl {
    var isOnline: Bool { connectivity.online.value }
}

/// The routes of the status API (SPEC §4): JSON in and out, errors as
/// `{"error": {"code", "message"}}` with a fitting status.
///
/// | request | answer |
/// | --- | --- |
/// | `GET /v1/status` | the agent and every Resource |
/// | `GET /v1/resources/NAME` | one Resource |
/// | `POST /v1/resources/NAME/refresh` | waits for the sync it started or joined; a Result |
/// | `POST /v1/refresh` | refreshes every resource; `{"results": [Result…]}` |
struct StatusAPI<Control: AgentControl>: Sendable {
    let control: Control
    /// The agent's process ID, as the status shows it.
    var pid = getpid()

    /// The router, with JSON errors for everything that goes wrong.
    func router() -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: JSONErrorMiddleware())
        router.get("/v1/status") { _, _ in
            APIResponse.json(status())
        }
        router.get("/v1/resources/:name") { _, context in
            let name = try context.parameters.require("name")
            guard let status = control.status(of: name) else { throw APIError.unknownResource(name) }
            return APIResponse.json(status.json)
        }
        router.post("/v1/resources/:name/refresh") { _, context in
            let name = try context.parameters.require("name")
            guard let result = await control.refresh(name) else { throw APIError.unknownResource(name) }
            return APIResponse.json(result.json)
        }
        router.post("/v1/refresh") { _, _ in
            let results = await control.refreshAll()
            return APIResponse.json(["results": .array(results.map(\.json))])
        }
        return router
    }

    /// `{"agent": {"version", "pid", "startedAt", "online"}, "resources": [Resource…]}`.
    func status() -> JSONValue {
        [
            "agent": [
                "version": .string(SyncAgentVersion.current),
                "pid": .number(Int(pid)),
                "startedAt": TimestampText.json(control.startedAt),
                "online": .bool(control.isOnline),
            ],
            "resources": .array(control.statuses().map(\.json)),
        ]
    }
}

/// Building the API's answers.
enum APIResponse {
    /// A JSON answer.
    static func json(_ value: JSONValue, status: HTTPResponse.Status = .ok) -> Response {
        Response(
            status: status, headers: [.contentType: "application/json"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: value.serialized(pretty: true) + "\n")))
    }

    /// The routes, for telling a wrong method from an unknown path.
    static let routes: [(method: HTTPRequest.Method, pattern: [String])] = [
        (.get, ["v1", "status"]),
        (.get, ["v1", "resources", "*"]),
        (.post, ["v1", "resources", "*", "refresh"]),
        (.post, ["v1", "refresh"]),
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
    var status: HTTPResponse.Status
    var code: String
    var message: String

    static func unknownResource(_ name: String) -> APIError {
        APIError(status: .notFound, code: "unknown_resource", message: "no resource named \"\(name)\"")
    }

    /// The body of SPEC §4: `{"error": {"code", "message"}}`.
    var json: JSONValue {
        ["error": ["code": .string(code), "message": .string(message)]]
    }
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
            return APIResponse.json(error.json, status: error.status)
        } catch let error as HTTPError where error.status == .notFound {
            let allowed = APIResponse.methods(at: request.uri.path)
            let error =
                allowed.isEmpty
                ? APIError(status: .notFound, code: "not_found", message: "no such endpoint: \(request.uri.path)")
                : APIError(
                    status: .methodNotAllowed, code: "method_not_allowed",
                    message: "\(request.uri.path) answers \(allowed.map(\.rawValue).joined(separator: ", ")) only")
            return APIResponse.json(error.json, status: error.status)
        } catch let error as HTTPError {
            let failure = APIError(status: error.status, code: "bad_request", message: error.body ?? "\(error.status)")
            return APIResponse.json(failure.json, status: error.status)
        } catch {
            let failure = APIError(status: .internalServerError, code: "internal", message: "\(error)")
            return APIResponse.json(failure.json, status: failure.status)
        }
    }
}
