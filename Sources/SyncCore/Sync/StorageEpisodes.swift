import Store
import Synchronization

/// The resources whose storage is failing on a passing condition (a busy
/// database, a full disk): an episode is logged once as it starts and once
/// as it ends, whatever the number of attempts and syncs between
/// (docs/configuration.md#failures-and-retries).
///
/// Thread-safety: `Sendable`; its set is behind a `Mutex`.
package final class StorageEpisodes: Sendable {
    private let failing = Mutex<Set<String>>([])
    /// The end of an incremental sync whose row could not be finished (the
    /// database failing still), by resource: written before its next sync,
    /// which would otherwise take the row for one cut off by a stopped process.
    private let unrecorded = Mutex<[String: (run: Int64, sync: FinishedSync)]>([:])

    package init() {}

    /// Notes a storage failure of `resource`; `true` if it starts an episode.
    func failed(_ resource: String) -> Bool {
        failing.withLock { $0.insert(resource).inserted }
    }

    /// Keeps the end of run `run` of `resource`, which could not be written.
    func leftRunning(_ resource: String, run: Int64, as sync: FinishedSync) {
        unrecorded.withLock { $0[resource] = (run, sync) }
    }

    /// Takes the end of a run of `resource` that could not be written, if any.
    func takeLeftRunning(_ resource: String) -> (run: Int64, sync: FinishedSync)? {
        unrecorded.withLock { $0.removeValue(forKey: resource) }
    }

    /// Notes a sync of `resource` that was applied; `true` if it ends an episode.
    func succeeded(_ resource: String) -> Bool {
        failing.withLock { $0.remove(resource) != nil }
    }
}
