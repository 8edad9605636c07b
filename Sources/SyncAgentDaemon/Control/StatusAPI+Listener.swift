import Hummingbird

extension StatusAPI {
    /// Where the API is served, and so who may change something.
    enum Listener: Sendable {
        /// The Unix socket: whoever may open it (its mode says) may do everything.
        case socket
        /// The TCP listener: read-only, or with `control` the requests that
        /// change something need the bearer token `token()` gives now. With
        /// `loopbackHosts`, only requests for a loopback name (`Host:
        /// localhost`, `127.0.0.1`, `[::1]`) are answered: a page of another
        /// site that rebinds its name to 127.0.0.1 reads nothing.
        case network(control: Bool, token: @Sendable () -> String?, loopbackHosts: Bool)
    }

    /// Lets a request that changes something through: on the socket always;
    /// on the HTTP listener only with control on and the token as
    /// `Authorization: Bearer TOKEN` (compared in constant time).
    func authorize(_ request: Request) throws(APIError) {
        guard case .network(let control, let token, _) = listener else { return }
        guard control else {
            throw APIError(
                status: .forbidden, code: "read_only",
                message: "the HTTP listener is read-only; this request needs \"http\": {\"control\": true} and a "
                    + "token, or the Unix socket")
        }
        // The scheme is case-insensitive (RFC 9110); the token is read only for a request that sends one.
        let header = Array((request.headers[.authorization] ?? "").utf8)
        let scheme = Array("bearer ".utf8)
        guard header.count > scheme.count, header.prefix(scheme.count).map({ $0 | 0x20 }) == scheme else {
            throw APIError.unauthorized(
                "this request changes something: send the agent's token as \"Authorization: Bearer TOKEN\"")
        }
        guard let expected = token(),
            Self.constantTimeEqual(Array(header.dropFirst(scheme.count)), Array(expected.utf8))
        else {
            throw APIError.unauthorized("the token was refused")
        }
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for index in 0..<max(a.count, b.count) {
            difference |= (index < a.count ? a[index] : 0) ^ (index < b.count ? b[index] : 0)
        }
        return difference == 0
    }
}
