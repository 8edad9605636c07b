import Foundation

/// `auth`: how a resource's requests prove who sends them
/// (docs/configuration.md#authentication).
package enum Auth: Sendable, Hashable {
    /// HTTP Basic (RFC 7617): a username and a password.
    case basic(username: String, password: String)
    /// A bearer token (RFC 6750).
    case bearer(token: String)
    /// Bearer tokens from an OAuth2 token endpoint (RFC 6749), fetched when needed.
    case oauth2(OAuth2Settings)

    /// The value of the `Authorization` header it sends, when it is fixed;
    /// `nil` for OAuth2, whose token comes from ``OAuth2Tokens`` at each request.
    package var header: String? {
        switch self {
        case .basic(let username, let password): "Basic " + Data("\(username):\(password)".utf8).base64EncodedString()
        case .bearer(let token): "Bearer " + token
        case .oauth2: nil
        }
    }
}
