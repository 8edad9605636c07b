import Foundation
import Store
import Testing

@testable import SyncCore

@Suite struct ResourceMachineTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func machine(row: ResourceRow? = nil) -> ResourceMachine {
        ResourceMachine(name: "users", row: row, nextSyncAt: start)
    }

    func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

    func result(_ outcome: SyncOutcome, items: Int = 0) -> SyncResult {
        SyncResult(
            resource: "users", outcome: outcome, items: items,
            error: outcome == .success ? nil : StoredError(kind: "unrecoverable", message: "users: 404"))
    }

    let notice = RetryNotice(
        request: "GET http://upstream.test/users", cause: "the server answered 503", attempt: 2, maxAttempts: 5,
        delay: .seconds(1))

    @Test func aSyncGoesFromIdleThroughSyncingBackToIdle() {
        var machine = machine()
        #expect(machine.status.state == .idle)
        #expect(machine.status.nextSyncAt == start)
        _ = machine.handle(.started(sync: 1, at: at(0)))
        #expect(machine.status.state == .syncing)
        #expect(machine.status.lastAttemptAt == at(0))
        #expect(machine.status.attempt == 1)
        _ = machine.handle(.finished(sync: 1, result(.success, items: 12), at: at(2)))
        _ = machine.handle(.scheduled(at(62)))
        let status = machine.status
        #expect(status.state == .idle)
        #expect(status.lastSuccessAt == at(2))
        #expect(status.items == 12)
        #expect(status.attempt == 0)
        #expect(status.nextSyncAt == at(62))
        #expect(status.message == nil)
    }

    @Test func aRetryShowsItsSentenceUntilThePageComes() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.retrying(sync: 1, notice))
        #expect(machine.status.state == .retrying)
        #expect(machine.status.attempt == 2)
        #expect(machine.status.message == notice.sentence)
        _ = machine.handle(.progressed(sync: 1, SyncProgress(resource: "users", pages: 1, items: 3, attempts: 2)))
        #expect(machine.status.state == .syncing)
        #expect(machine.status.message == nil)
    }

    @Test(arguments: [SyncOutcome.failed, .gaveUp])
    func aFailureForGoodStopsThePollsUntilASuccess(outcome: SyncOutcome) {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.finished(sync: 1, result(outcome), at: at(1)))
        #expect(machine.status.state == .failed)
        #expect(machine.status.nextSyncAt == nil)
        #expect(machine.status.lastError?.message == "users: 404")
        // A manual refresh that succeeds resumes polling.
        _ = machine.handle(.started(sync: 2, at: at(10)))
        _ = machine.handle(.finished(sync: 2, result(.success), at: at(11)))
        _ = machine.handle(.scheduled(at(71)))
        #expect(machine.status.state == .idle)
        #expect(machine.status.lastError == nil)
        #expect(machine.status.nextSyncAt == at(71))
    }

    @Test func theSlowFlagIsRaisedOnceAndClearedWhenTheSyncEnds() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        #expect(machine.handle(.slow(sync: 1)) == [.warnSlow])
        #expect(machine.handle(.slow(sync: 1)) == [])
        #expect(machine.status.slow)
        #expect(machine.status.message == "taking longer than expected")
        _ = machine.handle(.finished(sync: 1, result(.success), at: at(9)))
        #expect(!machine.status.slow)
        #expect(machine.status.message == nil)
        // The next sync may be slow again, and is told again.
        _ = machine.handle(.started(sync: 2, at: at(70)))
        #expect(machine.handle(.slow(sync: 2)) == [.warnSlow])
    }

    @Test func offlineCoversEveryPhaseAndComesBackToIt() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.retrying(sync: 1, notice))
        _ = machine.handle(.connectivity(online: false))
        #expect(machine.status.state == .offline)
        #expect(machine.status.message == ResourceMachine.offlineMessage)
        _ = machine.handle(.connectivity(online: true))
        #expect(machine.status.state == .retrying)
        #expect(machine.status.message == notice.sentence)
    }

    @Test func eventsOfASupersededSyncAreIgnored() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.started(sync: 2, at: at(5)))
        #expect(machine.handle(.slow(sync: 1)) == [])
        _ = machine.handle(.retrying(sync: 1, notice))
        _ = machine.handle(.finished(sync: 1, result(.cancelled), at: at(6)))
        #expect(machine.status.state == .syncing)
        #expect(!machine.status.slow)
        _ = machine.handle(.finished(sync: 2, result(.success), at: at(7)))
        #expect(machine.status.state == .idle)
        #expect(machine.status.lastSuccessAt == at(7))
    }

    @Test func aCancelledSyncRestoresThePhaseBeforeIt() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.finished(sync: 1, result(.failed), at: at(1)))
        _ = machine.handle(.started(sync: 2, at: at(5)))
        _ = machine.handle(.finished(sync: 2, result(.cancelled), at: at(6)))
        #expect(machine.status.state == .failed)
        #expect(machine.status.lastError?.message == "users: 404")
    }

    @Test func anOfflineAnswerKeepsTheScheduleAndTheError() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.finished(sync: 1, result(.offline), at: at(1)))
        #expect(machine.status.state == .idle)
        #expect(machine.status.nextSyncAt == start)
        #expect(machine.status.lastError != nil)
    }
}
