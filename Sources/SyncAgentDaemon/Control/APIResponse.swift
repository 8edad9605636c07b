import Hummingbird
import NIOCore
import SyncCore

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
