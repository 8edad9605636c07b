import Foundation
import Store
import SyncCore

/// `GET /metrics` in the Prometheus text exposition format (version 0.0.4)
/// (docs/observability.md#metrics).
///
/// The counters and the duration histogram are the engine's; the gauges
/// that mirror state (last success, records, online) are read from the
/// resources' statuses when the page is rendered. Every resource has its
/// series from the start, at zero, so `rate()` and alerts see them before
/// the first sync.
extension AgentMetrics {
    /// The page: every metric with its `HELP` and `TYPE`, the counters and
    /// histograms kept here, and the gauges read from `statuses`, `online`
    /// and `startedAt`.
    package func render(statuses: [ResourceStatus], online: Bool, startedAt: Date) -> String {
        let state = counts
        var page = Exposition()
        page.reserve(resources.count * 2_500)
        page.family("sync_agent_build_info", type: "gauge", help: "Always 1; the agent's version as a label.")
        page.sample("sync_agent_build_info", ["version": SyncAgentVersion.current], 1)
        page.family(
            "sync_agent_start_time_seconds", type: "gauge",
            help: "When the agent started, in seconds since the Unix epoch.")
        page.sample("sync_agent_start_time_seconds", [:], Exposition.number(startedAt.timeIntervalSince1970))
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
            help:
                "Requests sent upstream, by HTTP status and its class (2xx…5xx; \"error\": no answer, such as a reset "
                + "or timeout).")
        for name in resources {
            for (status, count) in (state.requests[name] ?? [:]).sorted(by: { $0.key < $1.key }) {
                page.sample(
                    "sync_agent_upstream_requests_total",
                    ["resource": name, "status": status, "status_class": Self.statusClass(status)], count)
            }
        }
        page.family(
            "sync_agent_joined_requests_total", type: "counter",
            help: "Requests for a sync (refresh, poll, dependency) that joined the sync already in flight.")
        for name in resources {
            page.sample("sync_agent_joined_requests_total", ["resource": name], state.joined[name] ?? 0)
        }
        page.family(
            "sync_agent_response_bytes_total", type: "counter",
            help: "Bytes of response bodies received, on the wire (form wire, compressed if they came so) and "
                + "decoded (form decoded).")
        for name in resources {
            let bytes = state.responseBytes[name] ?? (0, 0)
            page.sample("sync_agent_response_bytes_total", ["resource": name, "form": "wire"], bytes.wire)
            page.sample("sync_agent_response_bytes_total", ["resource": name, "form": "decoded"], bytes.decoded)
        }
        page.family(
            "sync_agent_rate_limit_waits_total", type: "counter",
            help: "Requests held back by a rate limit the server answered (reason server) or by the request budget "
                + "(reason budget).")
        for name in resources {
            for reason in Self.waitReasons {
                page.sample(
                    "sync_agent_rate_limit_waits_total", ["resource": name, "reason": reason],
                    state.rateLimitWaits[name]?[reason]?.count ?? 0)
            }
        }
        page.family(
            "sync_agent_rate_limit_wait_seconds_total", type: "counter",
            help: "Seconds requests were held back by rate limits and the request budget, by reason.")
        for name in resources {
            for reason in Self.waitReasons {
                page.sample(
                    "sync_agent_rate_limit_wait_seconds_total", ["resource": name, "reason": reason],
                    Exposition.number(state.rateLimitWaits[name]?[reason]?.seconds ?? 0))
            }
        }
        page.family(
            "sync_agent_retries_total", type: "counter",
            help: "Requests tried again after a failure that can succeed later (network fault, 5xx, 429).")
        for name in resources {
            page.sample("sync_agent_retries_total", ["resource": name], state.retries[name] ?? 0)
        }
        page.family(
            "sync_agent_records_changed_total", type: "counter",
            help: "Records the syncs changed in the copy, by operation (insert, update, delete).")
        for name in resources {
            let changes = state.recordsChanged[name] ?? SnapshotChanges()
            page.sample("sync_agent_records_changed_total", ["resource": name, "op": "insert"], changes.added)
            page.sample("sync_agent_records_changed_total", ["resource": name, "op": "update"], changes.changed)
            page.sample("sync_agent_records_changed_total", ["resource": name, "op": "delete"], changes.removed)
        }
        page.family(
            "sync_agent_column_misfits_total", type: "counter",
            help: "Values stored as NULL in a typed column because they did not fit its type.")
        let typed = Set(statuses.lazy.filter { $0.columns != nil }.map(\.name))
        for name in resources where state.misfits[name] != nil || typed.contains(name) {
            page.sample("sync_agent_column_misfits_total", ["resource": name], state.misfits[name] ?? 0)
        }
        page.family("sync_agent_resources", type: "gauge", help: "Resources in each state now.")
        for resourceState in ResourceState.allCases {
            page.sample(
                "sync_agent_resources", ["state": resourceState.rawValue],
                statuses.count { $0.state == resourceState })
        }
        page.family("sync_agent_slow_syncs", type: "gauge", help: "Syncs running now that take longer than expected.")
        page.sample("sync_agent_slow_syncs", [:], statuses.count(where: \.slow))
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
            for (index, bound) in Self.bucketLabels.enumerated() {
                page.sample(
                    "sync_agent_sync_duration_seconds_bucket", ["resource": name, "le": bound], histogram.counts[index])
            }
            page.sample("sync_agent_sync_duration_seconds_bucket", ["resource": name, "le": "+Inf"], histogram.count)
            page.sample("sync_agent_sync_duration_seconds_sum", ["resource": name], Exposition.number(histogram.sum))
            page.sample("sync_agent_sync_duration_seconds_count", ["resource": name], histogram.count)
        }
        page.family("sync_agent_online", type: "gauge", help: "1 while the machine is online, 0 while offline.")
        page.sample("sync_agent_online", [:], online ? 1 : 0)
        return page.text
    }

    /// The `le` labels of the duration histogram's buckets, written once.
    static let bucketLabels = durationBuckets.map(Exposition.number)

    /// The class of an upstream status label: `2xx` for `200`, `error` for no answer.
    static func statusClass(_ status: String) -> String {
        guard status.count == 3, let first = status.first, first.isNumber else { return "error" }
        return "\(first)xx"
    }
}

/// Writing the Prometheus text format: `# HELP` and `# TYPE` lines, then
/// `name{label="value",…} value` samples, labels in the order given.
struct Exposition {
    private(set) var text = ""

    /// Makes room for `bytes` of text.
    mutating func reserve(_ bytes: Int) {
        text.reserveCapacity(bytes)
    }

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
        // Appended piece by piece: a page holds tens of thousands of samples at thousands of resources.
        text += name
        var first = true
        for (key, label) in labels {
            text += first ? "{" : ","
            first = false
            text += key
            text += "=\""
            text += Self.escapeLabel(label)
            text += "\""
        }
        if !first { text += "}" }
        text += " "
        text += value
        text += "\n"
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
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") || $0 == 0x0A })
        else { return value }
        return value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// A help text: backslash and line feed escaped.
    static func escapeHelp(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }
}
