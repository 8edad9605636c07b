import NIOHTTP1

/// Reason phrases for HTTP statuses.
enum HTTPReason {
    static func phrase(_ status: Int) -> String {
        HTTPResponseStatus(statusCode: status).reasonPhrase
    }
}
