import Foundation

/// How the agent follows HTTP redirects (RFC 9110 §15.4): at most
/// ``maximumCount`` in a row, never in a circle, and — because configured
/// headers often carry credentials (`X-Api-Key: ${API_TOKEN}`) — never taking
/// the configured headers to another origin.
///
/// A pure value: the transport asks it what the next request is.
enum Redirect {
    /// The most redirects followed for one request.
    static let maximumCount = 5

    /// Why a redirect cannot be followed.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The request that follows a redirect answer, or `nil` when `status` is not a redirect.
    ///
    /// - Parameters:
    ///   - request: The request that was answered.
    ///   - status: The answer's status.
    ///   - location: The answer's `Location` header.
    ///   - visited: The URLs requested so far for this page, the first included.
    static func follow(
        _ request: HTTPRequestSpec, status: Int, location: String?, visited: [String]
    ) throws(Problem) -> HTTPRequestSpec? {
        guard [301, 302, 303, 307, 308].contains(status) else { return nil }
        guard let location, !location.isEmpty else {
            throw Problem(message: "the server answered \(status) without a Location to go to")
        }
        guard let target = URL(string: location, relativeTo: URL(string: request.url))?.absoluteURL,
            let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else {
            throw Problem(message: "the server redirected to \"\(location)\", which is not an http(s) URL")
        }
        let url = target.absoluteString
        guard visited.count <= maximumCount else {
            throw Problem(message: "more than \(maximumCount) redirects")
        }
        guard !visited.contains(url) else {
            throw Problem(message: "the redirects go in a circle back to \(url)")
        }
        var next = request
        next.url = url
        // 303, and 301/302 after a POST, turn the request into a GET without a body (as browsers do).
        if status == 303 || (request.method == .post && (status == 301 || status == 302)) {
            next.method = .get
            next.body = nil
        }
        if origin(of: url) != origin(of: request.url) {
            next.headers = []
        }
        return next
    }

    /// The origin (scheme, host, port) of a URL, with default ports made explicit.
    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let scheme = components.scheme?.lowercased() ?? ""
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(components.host?.lowercased() ?? ""):\(port)"
    }
}
