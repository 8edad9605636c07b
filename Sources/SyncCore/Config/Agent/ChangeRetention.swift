/// How long the change feed keeps its changes (docs/configuration.md#the-change-feed):
/// a change goes when it is older than `keep` or beyond the newest `maxRows`.
package struct ChangeRetention: Sendable, Hashable {
    package var keep: Duration = .seconds(7 * 86_400)
    package var maxRows = 1_000_000
}
