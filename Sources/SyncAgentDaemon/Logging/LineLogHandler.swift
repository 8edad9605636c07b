import Foundation
import Logging
import Store
import SyncCore

/// Writes each log message as one line on standard error:
/// `2026-11-21T10:00:00.123Z warning users: taking longer than expected attempt=2`.
///
/// Under systemd (`$JOURNAL_STREAM` set) the journal stamps the time itself, so
/// the line starts with the syslog level as `<N>` instead (sd-daemon(3)).
///
/// Thread-safety: `Sendable`; lines are written with one `write(2)` each, so
/// concurrent messages never interleave.
package struct LineLogHandler: LogHandler {
    /// The least important level written.
    package var logLevel: Logger.Level = .info
    /// Metadata added to every line.
    package var metadata: Logger.Metadata = [:]
    private let label: String
    private let journal: Bool
    private let terminal: Bool

    /// A handler for `label` that writes to standard error.
    package init(label: String, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.label = label
        self.journal = environment["JOURNAL_STREAM"] != nil
        self.terminal = isatty(STDERR_FILENO) == 1
    }

    /// One metadata value.
    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Writes one line.
    package func log(event: LogEvent) {
        // On a terminal, a progress line may be showing: start by erasing it.
        var line = terminal ? "\r\u{1B}[K" : ""
        if journal {
            line += "<\(Self.syslogPriority(event.level))>"
        } else {
            line += "\(Self.timestamp()) \(event.level) "
        }
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        if let resource = merged[LogKey.resource] {
            line += "\(resource): "
        }
        line += event.message.description
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where key != LogKey.resource {
            line += " \(key)=\(value)"
        }
        line += "\n"
        line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// The syslog priority of a level, as sd-daemon(3) prefixes expect.
    static func syslogPriority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    private static func timestamp() -> String {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let date = Date(timeIntervalSince1970: Double(now.tv_sec) + Double(now.tv_nsec) / 1e9)
        return Timestamp.string(from: date)
    }
}
