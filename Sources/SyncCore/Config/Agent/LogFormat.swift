/// How the agent writes its log lines (docs/observability.md#logs).
package enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// One line of text each (`<N>` level prefixes under systemd's journal).
    case text
    /// One JSON object per line, for log shippers (Vector, Loki, Fluent Bit).
    case json
}
