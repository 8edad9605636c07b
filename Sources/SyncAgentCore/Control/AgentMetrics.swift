import Foundation
import Store
import Synchronization

/// The running agent's counters, served as `GET /metrics` in the Prometheus
/// text exposition format (version 0.0.4).
///
/// Counters and the duration histogram are kept here as syncs and requests
/// happen; the gauges that mirror state (last success, records, online) are
/// read from the resources' statuses when the page is rendered. Every
/// resource has its series from the start, at zero, so `rate()` and alerts
/// see them before the first sync.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
final class AgentMetrics: Sendable {
    /// The upper bounds of the sync duration histogram's buckets, in seconds.
    static let durationBuckets: [Double] = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]

    private struct Histogram {
        var counts = [Int](repeating: 0, count: AgentMetrics.durationBuckets.count)
        var sum = 0.0
        var count = 0

        mutating func observe(_ value: Double) {
            for (index, bound) in AgentMetrics.durationBuckets.enumerated() where value <= bound {
                counts[index] += 1
            }
            sum += value
            count += 1
        }
    }

    private struct State {
        var syncs: [String: [SyncOutcome: Int]] = [:]
        var requests: [String: [String: Int]] = [:]
        var joined: [String: Int] = [:]
        var inFlight: [String: Int] = [:]
        var durations: [String: Histogram] = [:]
    }

    /// The resources, in configuration order.
    let resources: [String]
    private let state: Mutex<State>

    /// Metrics for these resources.
    init(resources: [String]) {
        self.resources = resources
        var state = State()
        for name in resources {
            state.syncs[name] = Dictionary(uniqueKeysWithValues: SyncOutcome.allCases.map { ($0, 0) })
            state.requests[name] = [:]
            state.joined[name] = 0
            state.inFlight[name] = 0
            state.durations[name] = Histogram()
        }
        self.state = Mutex(state)
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
        }
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

    /// The page: every metric with its `HELP` and `TYPE`, the counters and
    /// histograms kept here, and the gauges read from `statuses` and `online`.
    func render(statuses: [ResourceStatus], online: Bool) -> String {
        let state = state.withLock { $0 }
        var page = Exposition()
        page.family("sync_agent_syncs_total", type: "counter", help: "Syncs that ended, by outcome.")
        for name in resources {
            for outcome in SyncOutcome.allCases {
                page.sample(
                    "sync_agent_syncs_total", ["resource": name, "outcome": outcome.rawValue],
                    state.syncs[name]?[outcome] ?? 0)
            }
        }
        page.family(
            "sync_agent_upstream_requests_total", type: "counter",
            help: "Requests sent upstream, by HTTP status (\"error\": no answer, such as a reset or timeout).")
        for name in resources {
            for (status, count) in (state.requests[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                page.sample("sync_agent_upstream_requests_total", ["resource": name, "status": status], count)
            }
        }
        page.family(
            "sync_agent_joined_requests_total", type: "counter",
            help: "Requests for a sync (refresh, poll, dependency) that joined the sync already in flight.")
        for name in resources {
            page.sample("sync_agent_joined_requests_total", ["resource": name], state.joined[name] ?? 0)
        }
        page.family("sync_agent_syncs_in_flight", type: "gauge", help: "Syncs running now.")
        for name in resources {
            page.sample("sync_agent_syncs_in_flight", ["resource": name], state.inFlight[name] ?? 0)
        }
        page.family(
            "sync_agent_last_success_timestamp_seconds", type: "gauge",
            help: "When the last successful sync finished, in seconds since the Unix epoch.")
        for status in statuses {
            guard let date = status.lastSuccessAt else { continue }
            page.sample(
                "sync_agent_last_success_timestamp_seconds", ["resource": status.name],
                Exposition.number(date.timeIntervalSince1970))
        }
        page.family("sync_agent_records", type: "gauge", help: "Records in the resource's snapshot.")
        for status in statuses {
            page.sample("sync_agent_records", ["resource": status.name], status.items)
        }
        page.family("sync_agent_sync_duration_seconds", type: "histogram", help: "How long syncs took.")
        for name in resources {
            let histogram = state.durations[name] ?? Histogram()
            for (index, bound) in Self.durationBuckets.enumerated() {
                page.sample(
                    "sync_agent_sync_duration_seconds_bucket", ["resource": name, "le": Exposition.number(bound)],
                    histogram.counts[index])
            }
            page.sample("sync_agent_sync_duration_seconds_bucket", ["resource": name, "le": "+Inf"], histogram.count)
            page.sample("sync_agent_sync_duration_seconds_sum", ["resource": name], Exposition.number(histogram.sum))
            page.sample("sync_agent_sync_duration_seconds_count", ["resource": name], histogram.count)
        }
        page.family("sync_agent_online", type: "gauge", help: "1 while the machine is online, 0 while offline.")
        page.sample("sync_agent_online", [:], online ? 1 : 0)
        return page.text
    }
}

/// Writing the Prometheus text format: `# HELP` and `# TYPE` lines, then
/// `name{label="value",…} value` samples, labels in the order given.
struct Exposition {
    private(set) var text = ""

    /// Starts a metric family.
    mutating func family(_ name: String, type: String, help: String) {
        text += "# HELP \(name) \(Self.escapeHelp(help))\n# TYPE \(name) \(type)\n"
    }

    /// One sample with an integer value.
    mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: Int) {
        sample(name, labels, String(value))
    }

    /// One sample with a value already written as text.
    mutating func sample(_ name: String, _ labels: KeyValuePairs<String, String>, _ value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.key)=\"\(Self.escapeLabel($0.value))\"" }.joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    /// A floating-point value as the format writes it.
    static func number(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// A label value: backslash, double quote and line feed escaped.
    static func escapeLabel(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A help text: backslash and line feed escaped.
    static func escapeHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
