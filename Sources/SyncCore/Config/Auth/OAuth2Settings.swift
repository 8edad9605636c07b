/// `auth` of type `oauth2` (docs/configuration.md#oauth2): where access tokens
/// come from, and how the agent proves who it is there.
package struct OAuth2Settings: Sendable, Hashable {
    /// The grant the agent presents (RFC 6749 §4.4 and §6).
    package enum Grant: String, Sendable, Hashable {
        case clientCredentials = "client_credentials"
        case refreshToken = "refresh_token"
    }

    /// How the client authenticates at the token endpoint (RFC 6749 §2.3.1).
    package enum ClientAuth: String, Sendable, Hashable {
        /// `Authorization: Basic` with the form-encoded id and secret.
        case basic
        /// `client_id` and `client_secret` in the form.
        case body
    }

    /// What identifies its tokens: the name of a top-level `auths` entry, else
    /// the token URL and client id. Rotated refresh tokens are stored under it.
    package var identity: String
    /// `tokenUrl`.
    package var tokenURL: String
    /// `clientId`.
    package var clientID: String
    /// `clientSecret`: none for a public client.
    package var clientSecret: String?
    package var grant: Grant
    /// `refreshToken`: the first one; the server may rotate it.
    package var refreshToken: String?
    package var scopes: [String] = []
    package var audience: String?
    /// `extraParams`: more form fields, in order.
    package var extraParams: [Parameter] = []
    package var clientAuth = ClientAuth.basic

    /// A form field.
    package struct Parameter: Sendable, Hashable {
        package var name: String
        package var value: String
    }
}
