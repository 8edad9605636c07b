import Foundation
import Testing

@testable import Store

/// A run's duration is read from the times its row holds, whatever they are.
@Suite struct SyncRunRowTests {
    static func row(startedAt: Date, finishedAt: Date?) -> SyncRunRow {
        SyncRunRow(
            id: 1, resource: "users", trigger: .poll, startedAt: startedAt, finishedAt: finishedAt,
            outcome: finishedAt == nil ? nil : .success, counts: SyncCounts(), error: nil,
            changes: SnapshotChanges(), since: nil)
    }

    @Test func aDurationIsInMillisecondsRounded() {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        #expect(Self.row(startedAt: start, finishedAt: start.addingTimeInterval(1.2345)).durationMilliseconds == 1235)
        #expect(Self.row(startedAt: start, finishedAt: nil).durationMilliseconds == nil)
    }

    @Test func timesTooFarApartForIntSaturateInsteadOfTrapping() {
        let start = Date(timeIntervalSince1970: 0)
        #expect(Self.row(startedAt: start, finishedAt: Date(timeIntervalSince1970: 1e300)).durationMilliseconds == .max)
        #expect(
            Self.row(startedAt: start, finishedAt: Date(timeIntervalSince1970: -1e300)).durationMilliseconds == .min)
    }
}
