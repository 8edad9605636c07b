import Foundation
import Logging
import Store
import SyncCore
import Synchronization

/// Writes each log message as one line on standard error:
/// `2026-11-21T10:00:00.123Z warning users: taking longer than expected attempt=2`.
///
/// Under systemd (`$JOURNAL_STREAM` set) the journal stamps the time itself, so
/// the line starts with the syslog level as `<N>` instead (sd-daemon(3)).
///
/// With `"logFormat": "json"` (``format``), each line is one JSON object for
/// log shippers instead (docs/observability.md#logs):
/// `{"time":"…","level":"warning","message":"taking longer than expected","resource":"users","attempt":2}`.
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

    /// How every handler writes its lines: the configuration's `logFormat`,
    /// set once it is loaded (the logging system is bootstrapped before).
    package static var format: LogFormat {
        get { currentFormat.withLock { $0 } }
        set { currentFormat.withLock { $0 = newValue } }
    }
    private static let currentFormat = Mutex(LogFormat.text)

    /// The metadata keys whose values are numbers in JSON lines.
    static let numericKeys: Set<String> = [
        LogKey.syncID, LogKey.attempt, LogKey.duration, "page", "items", "pages", "status",
    ]

    /// Writes one line.
    package func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        var line: String
        switch Self.format {
        case .text:
            line = textLine(event, merged)
        case .json:
            // The journal takes the level from the prefix, and keeps the object as the message.
            line =
                (journal ? "<\(Self.syslogPriority(event.level))>" : "")
                + Self.jsonLine(event, merged, time: Self.timestamp())
        }
        line += "\n"
        line.withUTF8 { bytes in _ = write(STDERR_FILENO, bytes.baseAddress, bytes.count) }
    }

    /// The line as text.
    private func textLine(_ event: LogEvent, _ merged: Logger.Metadata) -> String {
        // On a terminal, a progress line may be showing: start by erasing it.
        var line = terminal ? "\r\u{1B}[K" : ""
        if journal {
            line += "<\(Self.syslogPriority(event.level))>"
        } else {
            line += "\(Self.timestamp()) \(event.level) "
        }
        if let resource = merged[LogKey.resource] {
            line += "\(resource): "
        }
        line += event.message.description
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where key != LogKey.resource {
            line += " \(key)=\(value)"
        }
        return line
    }

    /// The line as one JSON object: `time`, `level`, `message`, then the
    /// metadata by key (`resource`, `sync_id`, `attempt`, `outcome`,
    /// `duration` in seconds, …), numbers as numbers.
    static func jsonLine(_ event: LogEvent, _ merged: Logger.Metadata, time: String) -> String {
        var members: [JSONValue.Member] = [
            .init("time", .string(time)), .init("level", .string(event.level.rawValue)),
            .init("message", .string(event.message.description)),
        ]
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) where !["time", "level", "message"].contains(key) {
            members.append(.init(key, json(value, numeric: numericKeys.contains(key))))
        }
        return JSONValue.object(members).serialized()
    }

    /// A metadata value in JSON: lists and dictionaries as such, a number
    /// where `numeric` and the text is one.
    private static func json(_ value: Logger.MetadataValue, numeric: Bool) -> JSONValue {
        switch value {
        case .array(let values):
            return .array(values.map { json($0, numeric: false) })
        case .dictionary(let values):
            return .object(values.sorted { $0.key < $1.key }.map { .init($0.key, json($0.value, numeric: false)) })
        case .string, .stringConvertible:
            let text = value.description
            guard numeric else { return .string(text) }
            if let integer = Int(text) { return .number(String(integer)) }
            if let number = Double(text), number.isFinite { return .number(String(number)) }
            return .string(text)
        }
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
