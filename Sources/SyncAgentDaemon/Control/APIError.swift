import Hummingbird

/// An error the API answers with.
struct APIError: Error {
    package var status: HTTPResponse.Status
    var code: String
    var message: String

    static func unknownResource(_ name: String) -> APIError {
        APIError(status: .notFound, code: "unknown_resource", message: "no resource named \"\(name)\"")
    }

    /// `GET /v1/resources/NAME/columns` of a resource that declares no `columns`.
    static func noColumns(_ name: String) -> APIError {
        APIError(
            status: .notFound, code: "no_columns",
            message: "the resource \"\(name)\" declares no columns: it has no typed table")
    }

    /// A request that changes something came to the HTTP listener without the right token.
    static func unauthorized(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: "unauthorized", message: message)
    }

    /// The body of an error (docs/api.md#errors): `{"error": {"code", "message"}}`.
    var answer: ErrorAnswer { ErrorAnswer(code: code, message: message) }
}
