import Hummingbird

/// One route of the API: a method, a path, and what answers it. ``StatusAPI/routes``
/// lists them all, once: the router is built from that list, and
/// ``JSONErrorMiddleware`` tells a wrong method from an unknown path by it.
struct APIRoute<Context: RequestContext>: Sendable {
    /// What answers a request of the route.
    typealias Answer = @Sendable (Request, Context) async throws -> Response

    /// The method it answers.
    let method: HTTPRequest.Method
    /// Its path, as Hummingbird's router reads it: a `:name` part matches any one part.
    let path: RouterPath
    /// What answers it.
    let answer: Answer

    init(_ method: HTTPRequest.Method, _ path: RouterPath, answer: @escaping Answer) {
        self.method = method
        self.path = path
        self.answer = answer
    }

    /// Whether its path matches `uriPath`, whatever the request's method: part for part,
    /// each part as the router matches it (no route here has a `**` part, which would
    /// match several).
    func matches(_ uriPath: String) -> Bool {
        let parts = uriPath.split(separator: "/")
        return path.components.count == parts.count && zip(path.components, parts).allSatisfy { $0 ~= $1 }
    }
}
