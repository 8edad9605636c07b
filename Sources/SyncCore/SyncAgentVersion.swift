/// The agent's version, as `--version`, the status API and the `User-Agent` report it.
package enum SyncAgentVersion {
    /// The current version.
    package static let current = "0.1.0"
}
