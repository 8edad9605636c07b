import DemoUpstream
import Foundation

/// An OAuth2 authorization server (RFC 6749) in front of the generic routes, as
/// internal APIs, Salesforce, Google and Microsoft have one: `POST /oauth/token`
/// takes a form (`application/x-www-form-urlencoded`) and answers JSON.
///
/// - Grants: `client_credentials` (§4.4) and `refresh_token` (§6), with the client
///   authenticated by HTTP Basic or by `client_id` and `client_secret` in the form (§2.3.1).
/// - Answer (§5.1): `{"access_token", "token_type": "Bearer", "expires_in", "scope",
///   "refresh_token"}`, `Cache-Control: no-store`. Without a ``tokenLifetime`` there is no
///   `expires_in`, as Salesforce's client credentials flow answers: the token lasts until
///   the API refuses it.
/// - Rotation: with ``rotatesRefreshTokens`` each refresh answers a new refresh token and
///   the one presented is spent (Microsoft identity platform, Xero, QuickBooks); presenting
///   it again is `invalid_grant`. Google and Salesforce keep one refresh token.
/// - Errors (§5.2): 400 `{"error": "invalid_grant" | "unsupported_grant_type" |
///   "invalid_request", "error_description"}`; 401 `invalid_client` (with
///   `WWW-Authenticate: Basic` when Basic was tried).
/// - The protected routes (every generic route) take `Authorization: Bearer TOKEN` of a
///   token issued and not expired, else 401 with `WWW-Authenticate: Bearer
///   error="invalid_token"` (RFC 6750 §3).
public struct OAuth2Server: Sendable {
    /// The client id it accepts.
    public var clientID: String
    /// The client secret it accepts.
    public var clientSecret: String
    /// How long access tokens last; `nil`: no `expires_in`, and they never expire.
    public var tokenLifetime: Duration?
    /// The refresh token accepted now; `nil`: the `refresh_token` grant is refused.
    public var refreshToken: String?
    /// Whether each refresh spends the refresh token presented and answers a new one.
    public var rotatesRefreshTokens: Bool

    /// A server for one client: tokens valid `tokenLifetime`, refreshed with `refreshToken`.
    public init(
        clientID: String, clientSecret: String, tokenLifetime: Duration? = .seconds(3600),
        refreshToken: String? = nil, rotatesRefreshTokens: Bool = false
    ) {
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.tokenLifetime = tokenLifetime
        self.refreshToken = refreshToken
        self.rotatesRefreshTokens = rotatesRefreshTokens
    }
}

/// The server's tokens: those issued, and how many.
struct OAuth2Authority {
    static let tokenPath = "/oauth/token"

    var server: OAuth2Server
    /// Access tokens issued, with when they expire.
    var issued: [String: Date?] = [:]
    var count = 0

    init(_ server: OAuth2Server) {
        self.server = server
    }

    /// The answer to a token request.
    mutating func token(_ request: SeenRequest) -> ResponsePlan.Outcome {
        let form = Routes.parameters(request.body)
        var clientID = form["client_id"]
        var clientSecret = form["client_secret"]
        let basic = request.headers["authorization"].flatMap(Self.basicCredentials)
        if let basic { (clientID, clientSecret) = basic }
        guard request.method == "POST" else {
            return Self.error(400, "invalid_request", "The token endpoint takes POST")
        }
        guard clientID == server.clientID, clientSecret == server.clientSecret else {
            return Self.error(
                401, "invalid_client", "Client authentication failed",
                headers: basic == nil ? [] : [("WWW-Authenticate", #"Basic realm="test-upstream""#)])
        }
        var rotated: String?
        switch form["grant_type"] {
        case "client_credentials":
            break
        case "refresh_token":
            guard let presented = form["refresh_token"], let current = server.refreshToken, presented == current else {
                return Self.error(400, "invalid_grant", "The refresh token is invalid, expired or revoked")
            }
            if server.rotatesRefreshTokens {
                count += 1
                rotated = "rt-\(count)-\(UUID().uuidString.prefix(8))"
                server.refreshToken = rotated
            }
        case nil:
            return Self.error(400, "invalid_request", "grant_type is missing")
        case let other?:
            return Self.error(400, "unsupported_grant_type", "The grant type \(other) is not supported")
        }
        count += 1
        let token = "at-\(count)-\(UUID().uuidString.prefix(8))"
        // (`updateValue`: assigning a `nil` expiry would remove the token.)
        issued.updateValue(
            server.tokenLifetime.map { request.receivedAt.addingTimeInterval(Self.seconds($0)) }, forKey: token)
        var fields = [#""access_token":"\#(token)""#, #""token_type":"Bearer""#]
        if let lifetime = server.tokenLifetime { fields.append(#""expires_in":\#(Int(Self.seconds(lifetime)))"#) }
        if let scope = form["scope"] { fields.append(#""scope":"\#(scope)""#) }
        if let rotated { fields.append(#""refresh_token":"\#(rotated)""#) }
        return Routes.json(
            status: 200, "{" + fields.joined(separator: ",") + "}",
            headers: [("Cache-Control", "no-store"), ("Pragma", "no-cache")])
    }

    /// Forgets every access token issued, as a server does when a session ends.
    mutating func revokeAccessTokens() {
        issued.removeAll()
    }

    /// The refusal of a protected request without a valid token, or `nil` to answer it.
    func refusal(_ request: SeenRequest) -> ResponsePlan.Outcome? {
        let header = request.headers["authorization"] ?? ""
        if header.lowercased().hasPrefix("bearer "), case let token = String(header.dropFirst(7)),
            let expiry = issued[token], expiry.map({ request.receivedAt < $0 }) ?? true
        {
            return nil
        }
        let description = header.isEmpty ? "no token" : "the token is unknown or expired"
        return Routes.json(
            status: 401, #"{"error":"invalid_token","error_description":"\#(description)"}"#,
            headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
    }

    private static func error(
        _ status: Int, _ code: String, _ description: String, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(
            status: status, #"{"error":"\#(code)","error_description":"\#(description)"}"#,
            headers: [("Cache-Control", "no-store")] + headers)
    }

    /// The id and secret of `Authorization: Basic`, each form-decoded (RFC 6749 §2.3.1).
    private static func basicCredentials(_ header: String) -> (String, String)? {
        guard header.lowercased().hasPrefix("basic "), let data = Data(base64Encoded: String(header.dropFirst(6))),
            let pair = String(data: data, encoding: .utf8), let colon = pair.firstIndex(of: ":")
        else { return nil }
        let decode = { (text: Substring) in
            String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
        }
        return (decode(pair[..<colon]), decode(pair[pair.index(after: colon)...]))
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
