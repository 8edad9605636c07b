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

}
