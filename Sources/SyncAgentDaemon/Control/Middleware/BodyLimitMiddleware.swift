import Hummingbird
import NIOCore

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
