import Foundation
import Logging
import Testing

@testable import Store
@testable import SyncAgentDaemon
@testable import SyncCore

/// Log lines for shippers (docs/observability.md#logs).
@Suite struct LineLogHandlerTests {
    @Test func jsonLogLinesAreOneObjectWithTypedFields() throws {
        let event = LogEvent(
            level: .warning, message: "the server answered 503", metadata: nil, source: nil, file: "", function: "",
            line: 0)
        let metadata: Logger.Metadata = [
            "resource": "users", "sync_id": "17", "attempt": "2", "outcome": "failed", "duration": "1.25",
            "trigger": "poll",
        ]
        let line = LineLogHandler.jsonLine(event, metadata, time: "2026-11-26T10:00:00.123Z")
        #expect(!line.contains("\n"))
        let json = try JSONValue(parsing: Array(line.utf8))
        #expect(json["time"] == "2026-11-26T10:00:00.123Z" && json["level"] == "warning")
        #expect(json["message"] == "the server answered 503" && json["resource"] == "users")
        #expect(json["sync_id"] == 17 && json["attempt"] == 2 && json["duration"] == .number("1.25"))
        #expect(json["outcome"] == "failed" && json["trigger"] == "poll")
    }
}
