import Synchronization

/// The resources whose storage is failing on a passing condition (a busy
/// database, a full disk): an episode is logged once as it starts and once
/// as it ends, whatever the number of attempts and syncs between
/// (docs/configuration.md#failures-and-retries).
///
/// Thread-safety: `Sendable`; its set is behind a `Mutex`.
package final class StorageEpisodes: Sendable {
    private let failing = Mutex<Set<String>>([])

    package init() {}

    /// Notes a storage failure of `resource`; `true` if it starts an episode.
    func failed(_ resource: String) -> Bool {
        failing.withLock { $0.insert(resource).inserted }
    }

    /// Notes a sync of `resource` that was applied; `true` if it ends an episode.
    func succeeded(_ resource: String) -> Bool {
        failing.withLock { $0.remove(resource) != nil }
    }
}
