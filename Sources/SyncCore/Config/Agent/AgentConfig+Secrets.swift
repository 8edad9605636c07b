/// What a configuration was decoded from, kept to fill its `${…}` anew when
/// a file its secrets come from changes
/// (docs/configuration.md#substitution-and-secrets): the file's bytes as
/// they were read (an edit of the file takes a reload), the environment,
/// and the files its secrets were read from.
///
/// Thread-safety: a `Sendable` value.
package struct ConfigSource: Sendable {
    /// The configuration file's bytes, as decoded.
    package var bytes: [UInt8]
    /// The environment the references were filled from.
    package var environment: [String: String]
    /// Whether the references were filled (see ``Substitution``).
    package var fillingReferences: Bool
    /// The files `${credential:…}` and `${file:…}` read.
    package var secretFiles: SecretFiles
}

extension AgentConfig {
    /// This configuration decoded again from the same bytes and environment,
    /// its secrets read anew from their files, and its redactor scrubbing this
    /// one's values too (``Redactor/following(_:)``).
    package func rereadingSecrets() throws(ConfigError) -> AgentConfig {
        var fresh = try ConfigLoader.decode(
            source.bytes, file: file, environment: source.environment, fillingReferences: source.fillingReferences)
        fresh.redactor = fresh.redactor.following(redactor)
        return fresh
    }
}
