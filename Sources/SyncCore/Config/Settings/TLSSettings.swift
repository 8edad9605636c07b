/// `tls` (docs/configuration.md#tls): the certificate authorities HTTPS
/// trusts, the client certificate it presents, its lowest TLS version.
package struct TLSSettings: Sendable, Hashable {
    /// `caFile`: the CA certificates (PEM) trusted instead of the system's.
    package var caFile: String?
    /// `clientCertificate` and `clientKey`: PEM files.
    package var clientCertificate: String?
    package var clientKey: String?
    /// `minimumVersion`: `"1.2"` (default) or `"1.3"`.
    package var minimumVersion = "1.2"
    /// `serverName`: the name the server's certificate must carry, sent as SNI and
    /// `Host`, when the URL reaches the server by another (its address).
    package var serverName: String?

    package init() {}
}
