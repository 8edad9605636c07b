/// The agent's version, as `--version`, the status API and the `User-Agent` report it.
public enum SyncAgentVersion {
    /// The current version.
    public static let current = "0.1.0"
}
