/// How many syncs the polls of an agent run at once
/// (docs/configuration.md#many-resources): a poll that comes due while
/// `total` syncs run, or `perHost` to its URL's host, waits for one to end.
package struct SyncLimits: Sendable, Hashable {
    /// The most syncs at once, all hosts together.
    package var total = 32
    /// The most syncs at once to one host.
    package var perHost = 8
}
