import Logging

/// The metadata keys of the agent's log lines (docs/observability.md#logs).
package enum LogKey {
    package static let resource = "resource"
    static let page = "page"
    static let items = "items"
    package static let attempt = "attempt"
    /// The number of a sync within the agent's run: every line of one sync carries the same.
    package static let syncID = "sync_id"
    /// How a sync ended (`success`, `failed`, …).
    package static let outcome = "outcome"
    /// How long a sync took, in seconds.
    package static let duration = "duration"
}
