import Hummingbird
import NIOHTTP1

/// Turns every error into the API's JSON error: unknown paths, wrong
/// methods, unknown resources, malformed requests and anything unexpected.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The routes of the API, to tell a wrong method (405) from an unknown path (404).
    let routes: [APIRoute<Context>]

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
            let allowed = methods(at: request.uri.path)
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
        } catch let error as HTTPParserError {
            // A body that breaks HTTP/1.1's framing, found as it is read (a bad chunk,
            // fewer bytes than its Content-Length): the client's fault, and the
            // connection cannot go on.
            let failure = APIError(status: .badRequest, code: "bad_request", message: "malformed request: \(error)")
            var response = APIResponse.json(encoding: failure.answer, status: failure.status)
            response.headers[.connection] = "close"
            return response
        } catch {
            let failure = APIError(status: .internalServerError, code: "internal", message: "\(error)")
            return APIResponse.json(encoding: failure.answer, status: failure.status)
        }
    }

    /// The methods the API answers at `path`, if it knows the path.
    func methods(at path: String) -> [HTTPRequest.Method] {
        routes.filter { $0.matches(path) }.map(\.method)
    }
}
