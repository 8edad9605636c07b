import Foundation
import Store
import Synchronization

/// The running agent's counters: syncs by outcome, upstream requests by
/// status, joins, retries, records changed, syncs in flight and a duration histogram per resource,
/// kept as syncs and requests happen. The status server renders them as
/// `GET /metrics` (docs/observability.md#metrics).
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
package final class AgentMetrics: Sendable {
    /// The upper bounds of the sync duration histogram's buckets, in seconds.
    package static let durationBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]

    /// A histogram of sync durations.
    package struct Histogram: Sendable {
        package var counts = [Int](repeating: 0, count: AgentMetrics.durationBuckets.count)
        package var sum = 0.0
        package var count = 0

        /// An empty histogram.
        package init() {}

        mutating func observe(_ value: Double) {
            for (index, bound) in AgentMetrics.durationBuckets.enumerated() where value <= bound {
                counts[index] += 1
            }
            sum += value
            count += 1
        }
    }

    /// Every counter, by resource.
    package struct Counts: Sendable {
        /// Syncs that ended, by outcome.
        package var syncs: [String: [SyncOutcome: Int]] = [:]
        /// Upstream requests, by status (`error`: no answer).
        package var requests: [String: [String: Int]] = [:]
        /// Requests for a sync that joined the one in flight.
        package var joined: [String: Int] = [:]
        /// Syncs running now.
        package var inFlight: [String: Int] = [:]
        /// How long syncs took.
        package var durations: [String: Histogram] = [:]
        /// Rate-limit waits, by reason (`server`: a rate limit answered;
        /// `budget`: the request budget spacing requests): how many, and seconds.
        package var rateLimitWaits: [String: [String: (count: Int, seconds: Double)]] = [:]
        /// Bytes of response bodies received: on the wire, and decoded.
        package var responseBytes: [String: (wire: Int, decoded: Int)] = [:]
        /// Requests retried after a failure that can succeed later.
        package var retries: [String: Int] = [:]
        /// Records the syncs changed in the snapshot: inserted, updated, deleted.
        package var recordsChanged: [String: SnapshotChanges] = [:]
        /// Values the syncs stored as NULL in a typed column because they did
        /// not fit its type (docs/schema.md#typed-tables).
        package var misfits: [String: Int] = [:]
    }

    /// The reasons of a rate-limit wait, in the order shown.
    package static let waitReasons = ["server", "budget"]

    /// The resources, in configuration order.
    package var resources: [String] { names.withLock { $0 } }
    private let names: Mutex<[String]>
    private let state: Mutex<Counts>

    /// Metrics for these resources.
    init(resources: [String]) {
        names = Mutex(resources)
        state = Mutex(Counts())
        setResources(resources)
    }

    /// The resources are now `resources` (a reloaded configuration): a new
    /// one starts at zero, one that stays keeps its counts, one removed is
    /// no longer shown.
    func setResources(_ resources: [String]) {
        names.withLock { $0 = resources }
        state.withLock { state in
            for name in resources where state.syncs[name] == nil {
                state.syncs[name] = Dictionary(uniqueKeysWithValues: SyncOutcome.allCases.map { ($0, 0) })
                state.requests[name] = [:]
                state.joined[name] = 0
                state.inFlight[name] = 0
                state.durations[name] = Histogram()
            }
        }
    }

    /// A sync of `resource` started.
    func syncStarted(_ resource: String) {
        state.withLock { $0.inFlight[resource, default: 0] += 1 }
    }

    /// A sync ended with `result` after `seconds`.
    func syncEnded(_ result: SyncResult, seconds: Double) {
        state.withLock { state in
            state.inFlight[result.resource, default: 1] -= 1
            state.syncs[result.resource, default: [:]][result.outcome, default: 0] += 1
            state.durations[result.resource, default: Histogram()].observe(seconds)
            var changed = state.recordsChanged[result.resource] ?? SnapshotChanges()
            changed.added += result.changes.added
            changed.changed += result.changes.changed
            changed.removed += result.changes.removed
            state.recordsChanged[result.resource] = changed
            if let misfits = result.misfits { state.misfits[result.resource, default: 0] += misfits }
        }
    }

    /// A request of `resource` failed and is tried again.
    func retried(_ resource: String) {
        state.withLock { $0.retries[resource, default: 0] += 1 }
    }

    /// Someone asked for a sync of `resource` and joined the one in flight.
    func joined(_ resource: String) {
        state.withLock { $0.joined[resource, default: 0] += 1 }
    }

    /// An upstream request of `resource` was answered with `status`, or
    /// failed without an answer (`nil`).
    func request(_ resource: String, status: Int?) {
        let label = status.map(String.init) ?? "error"
        state.withLock { $0.requests[resource, default: [:]][label, default: 0] += 1 }
    }

    /// A response body of `resource` arrived: `wire` bytes, `decoded` once decompressed.
    func received(_ resource: String, wire: Int, decoded: Int) {
        state.withLock { state in
            let sum = state.responseBytes[resource] ?? (0, 0)
            state.responseBytes[resource] = (sum.wire + wire, sum.decoded + decoded)
        }
    }

    /// A request of `resource` waits `seconds` for a rate limit or its budget.
    func rateLimitWait(_ resource: String, budget: Bool, seconds: Double) {
        state.withLock { state in
            var wait = state.rateLimitWaits[resource, default: [:]][budget ? "budget" : "server"] ?? (0, 0)
            wait.count += 1
            wait.seconds += seconds
            state.rateLimitWaits[resource, default: [:]][budget ? "budget" : "server"] = wait
        }
    }

    /// The counters as they are now.
    package var counts: Counts { state.withLock { $0 } }
}
