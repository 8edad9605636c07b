import Logging
import Synchronization

/// A logger whose messages a test can read.
final class LogCapture: Sendable {
    struct Line: Sendable, Equatable {
        var level: Logger.Level
        var message: String
    }

    private let lines = Mutex<[Line]>([])

    var logger: Logger {
        Logger(label: "test") { _ in Handler(capture: self) }
    }

    var messages: [Line] { lines.withLock { $0 } }

    fileprivate func append(_ line: Line) {
        lines.withLock { $0.append(line) }
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var logLevel: Logger.Level = .trace
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append(Line(level: event.level, message: "\(event.message)"))
        }
    }
}
