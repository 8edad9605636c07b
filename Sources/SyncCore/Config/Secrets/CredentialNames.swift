/// The header and query parameter names whose values are credentials
/// (docs/configuration.md#substitution-and-secrets): kept secret even when
/// written in the configuration file rather than filled by `${…}`.
enum CredentialNames {
    /// Words that make a name a credential's, wherever they appear in it.
    private static let words = ["token", "secret", "password", "passwd", "apikey", "api_key", "api-key", "signature"]

    /// Whether header `name` carries a credential: `Authorization`,
    /// `Proxy-Authorization`, `Cookie`, or a name such as `X-Api-Key` or `Private-Token`.
    static func isCredential(header name: String) -> Bool {
        let name = name.lowercased()
        return ["authorization", "proxy-authorization", "cookie"].contains(name) || contains(name)
    }

    /// Whether header `name` holds a scheme and a credential (`Bearer TOKEN`), not a credential alone.
    static func hasScheme(header name: String) -> Bool {
        ["authorization", "proxy-authorization"].contains(name.lowercased())
    }

    /// Whether query parameter `name` carries a credential: `access_token`,
    /// `api_key`, `key` (Google's), `sig`, `client_secret`, `password`…
    static func isCredential(query name: String) -> Bool {
        let name = name.lowercased()
        return ["key", "sig", "auth", "code"].contains(name) || contains(name)
    }

    private static func contains(_ name: String) -> Bool {
        words.contains { name.contains($0) }
    }
}
