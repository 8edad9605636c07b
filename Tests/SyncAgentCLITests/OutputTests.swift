import Foundation
import Testing

@testable import Store
@testable import SyncAgentCLI
@testable import SyncAgentDaemon
@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct OutputTests {
    @Test func tablesAlignTheirColumns() {
        var table = TextTable("NAME", "STATE", "NOTE")
        table.add(["users", "idle", "fine"])
        table.add(["a", "failed", "it broke"])
        #expect(table.render() == "NAME   STATE   NOTE\nusers  idle    fine\na      failed  it broke")
    }

    @Test func aTableCutsLinesToTheWidth() {
        var table = TextTable("A", "B")
        table.add(["x", "a long message that goes on"])
        #expect(table.render(width: 12).split(separator: "\n").last == "x  a long m…")
    }

    @Test func relativeTimesReadAtAGlance() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(TimestampText.relative(now.addingTimeInterval(-12), now: now) == "12s ago")
        #expect(TimestampText.relative(now.addingTimeInterval(-300), now: now) == "5m ago")
        #expect(TimestampText.relative(now.addingTimeInterval(7200), now: now) == "in 2h")
        #expect(TimestampText.relative(now.addingTimeInterval(-3 * 86_400), now: now) == "3d ago")
        #expect(TimestampText.relative(now, now: now) == "just now")
        #expect(TimestampText.relative(nil, now: now) == "never")
    }

    @Test func refreshExitCodesFollowTheSpecification() {
        func result(_ outcome: SyncOutcome) -> SyncResult { SyncResult(resource: "r", outcome: outcome) }
        #expect(RefreshCommand.exitCode([result(.success), result(.notModified)]) == nil)
        #expect(RefreshCommand.exitCode([result(.success), result(.failed)])?.rawValue == 1)
        #expect(RefreshCommand.exitCode([result(.gaveUp)])?.rawValue == 1)
        #expect(RefreshCommand.exitCode([result(.offline), result(.success)])?.rawValue == 75)
        #expect(RefreshCommand.exitCode([result(.offline), result(.failed)])?.rawValue == 1)
        #expect(RefreshCommand.exitCode([result(.rateLimited), result(.success)])?.rawValue == 75)
        #expect(RefreshCommand.outcomeText(result(.rateLimited)) == "rate limited")
    }

    @Test func theStatusTableSaysWhatAResourceIsDoing() {
        var status = ResourceStatus(name: "issues", state: .waiting)
        status.lastAttemptAt = Date()
        status.message = "rate limited until 10:42:07"
        #expect(StatusCommand.stateText(status) == "waiting: rate limited until 10:42:07")
        status.state = .retrying
        status.attempt = 2
        #expect(StatusCommand.stateText(status) == "retrying (attempt 2)")
    }

    @Test func aTerminalTooShortForTheTableGetsASummaryWithWhatNeedsAPersonFirst() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        var statuses = (0..<1000).map { index in
            var status = ResourceStatus(name: "store-\(index)", state: .idle)
            status.lastAttemptAt = now
            return status
        }
        statuses[10].state = .syncing
        statuses[500].state = .failed
        statuses[500].lastError = StoredError(kind: .unrecoverable, message: "HTTP 404")
        statuses[900].state = .retrying
        statuses[999].lastAttemptAt = nil
        let lines = StatusCommand.render(statuses, now: now, width: 200, height: 7).split(separator: "\n")
        #expect(lines.count == 6)
        #expect(lines[0] == "1000 resources: 996 idle, 1 failed, 1 never synced, 1 retrying, 1 syncing")
        #expect(lines[1].hasPrefix("RESOURCE"))
        #expect(lines[2].hasPrefix("store-500  failed") && lines[2].hasSuffix("HTTP 404"))
        #expect(lines[3].hasPrefix("store-900  retrying"))
        #expect(lines[4].hasPrefix("store-10 "))
        #expect(lines[5].hasPrefix("… and 1 more not idle. Every resource: sync-agent status --all"))
        // When it fits, or off a terminal, every resource is listed.
        #expect(StatusCommand.render(statuses, now: now, width: 200, height: nil).split(separator: "\n").count == 1001)
        #expect(
            StatusCommand.render(Array(statuses.prefix(6)), now: now, width: 200, height: 7).split(separator: "\n")
                .count == 7)
    }

    @Test func aResultIsTheResultObjectOfTheSpecification() {
        let result = SyncResult(
            resource: "users", outcome: .failed, joined: true, counts: SyncCounts(attempts: 1, pages: 2, items: 200),
            durationMilliseconds: 31, error: StoredError(kind: .transient, message: "boom", status: 503))
        #expect(
            JSONValue(encoding: result).serialized()
                == #"{"resource":"users","outcome":"failed","joined":true,"pages":2,"items":200,"attempts":1,"durationMs":31,"error":{"kind":"transient","message":"boom","status":503},"changes":{"added":0,"changed":0,"removed":0},"misfits":null}"#
        )
    }

    /// A sync still running and one that ended, as `history` shows them
    /// (docs/schema.md#running-finished-and-cut-off-rows).
    static func runs(now: Date) -> [SyncRunRow] {
        [
            SyncRunRow(
                id: 2, resource: "users", trigger: .poll, startedAt: now.addingTimeInterval(-3), finishedAt: nil,
                outcome: nil, counts: SyncCounts(attempts: 1, pages: 1, items: 50), error: nil,
                changes: SnapshotChanges(added: 50)),
            SyncRunRow(
                id: 1, resource: "users", trigger: .poll, startedAt: now.addingTimeInterval(-60),
                finishedAt: now.addingTimeInterval(-59.75), outcome: .success,
                counts: SyncCounts(attempts: 1, pages: 2, items: 100), error: nil,
                changes: SnapshotChanges(added: 100)),
        ]
    }

    @Test func historyShowsASyncStillRunningAsRunningWithNoDuration() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let lines = HistoryCommand.render(Self.runs(now: now), now: now).split(separator: "\n").map {
            $0.split(separator: " ").map(String.init)
        }
        #expect(lines.count == 3)
        #expect(lines[1].prefix(2) == ["2", "users"] && lines[1].contains("running") && lines[1].contains("-"))
        #expect(!lines[1].contains("ms"), "\(lines[1])")
        #expect(lines[2].contains("success") && lines[2].contains("250"), "\(lines[2])")
        let running = Self.runs(now: now)[0].json.serialized()
        #expect(running.contains(#""outcome":null"#) && running.contains(#""finishedAt":null"#), "\(running)")
        #expect(running.contains(#""durationMs":null"#), "\(running)")
        let ended = Self.runs(now: now)[1].json.serialized()
        #expect(ended.contains(#""outcome":"success""#) && ended.contains(#""durationMs":250"#), "\(ended)")
    }

    @Test func aStatusIsTheResourceObjectOfTheSpecification() {
        let status = ResourceStatus(name: "users", row: nil)
        #expect(
            JSONValue(encoding: status).serialized()
                == #"{"name":"users","state":"idle","slow":false,"message":null,"lastSuccessAt":null,"lastAttemptAt":null,"nextSyncAt":null,"attempt":0,"items":0,"lastError":null,"since":null,"owner":null,"columns":null}"#
        )
    }
}
