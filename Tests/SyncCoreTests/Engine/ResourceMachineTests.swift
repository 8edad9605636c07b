import Foundation
import Store
import Testing

@testable import SyncCore

private let start = Date(timeIntervalSince1970: 1_795_000_000)

private func at(_ seconds: Double) -> Date { start.addingTimeInterval(seconds) }

private func result(_ outcome: SyncOutcome, items: Int = 0) -> SyncResult {
    SyncResult(
        resource: "users", outcome: outcome, counts: SyncCounts(items: items),
        error: [.success, .notModified].contains(outcome)
            ? nil : StoredError(kind: .unrecoverable, message: "users: 404"))
}

private func report(_ outcome: SyncOutcome, items: Int = 0) -> SyncReport {
    SyncReport(result(outcome, items: items))
}

private let notice = RetryNotice(
    request: "GET http://upstream.test/users", cause: "the server answered 503", attempt: 2, maxAttempts: 5,
    delay: .seconds(1))

private let progress = SyncProgress(resource: "users", pages: 1, items: 3, attempts: 2)

/// One transition: from the state `given` leads to (from a new machine), an
/// event, and the state and actions that follow.
struct Transition: Sendable, CustomTestStringConvertible {
    typealias State = ResourceMachine.State
    typealias Running = ResourceMachine.RunningSync

    var name: String
    var given: [ResourceMachine.Event]
    var event: ResourceMachine.Event
    var state: State
    var actions: [ResourceMachine.Action]

    var testDescription: String { name }

    /// Every transition of the machine: each state with each event.
    static let all: [Transition] = [
        // idle
        Transition(
            name: "idle, scheduled: the next poll moves", given: [], event: .scheduled(at(60)), state: .idle,
            actions: [.publishStatus]),
        Transition(
            name: "idle, started: syncing, back to idle if cancelled", given: [], event: .started(sync: 1, at: at(0)),
            state: .syncing(Running(id: 1, resumes: .idle)), actions: [.publishStatus]),
        Transition(
            name: "idle, progress of no sync: ignored", given: [], event: .progressed(sync: 1, progress), state: .idle,
            actions: []),
        Transition(
            name: "idle, finished sync no longer current: told, state kept", given: [],
            event: .finished(sync: 1, report(.success), at: at(1)), state: .idle,
            actions: [.report(.finished(result(.success)))]),
        // syncing
        Transition(
            name: "syncing, progress: the attempt moves, the page is told", given: [.started(sync: 1, at: at(0))],
            event: .progressed(sync: 1, progress), state: .syncing(Running(id: 1, resumes: .idle, attempt: 2)),
            actions: [.publishStatus, .report(.progress(progress))]),
        Transition(
            name: "syncing, progress without a change: told only", given: [.started(sync: 1, at: at(0))],
            event: .progressed(sync: 1, SyncProgress(resource: "users", pages: 1, items: 3)),
            state: .syncing(Running(id: 1, resumes: .idle)),
            actions: [.report(.progress(SyncProgress(resource: "users", pages: 1, items: 3)))]),
        Transition(
            name: "syncing, retrying: retrying with the notice", given: [.started(sync: 1, at: at(0))],
            event: .retrying(sync: 1, notice),
            state: .syncing(Running(id: 1, resumes: .idle, attempt: 2, retry: notice)),
            actions: [.publishStatus, .report(.retry(resource: "users", notice))]),
        Transition(
            name: "retrying, progress: syncing again",
            given: [.started(sync: 1, at: at(0)), .retrying(sync: 1, notice)],
            event: .progressed(sync: 1, progress), state: .syncing(Running(id: 1, resumes: .idle, attempt: 2)),
            actions: [.publishStatus, .report(.progress(progress))]),
        Transition(
            name: "syncing, slow: flagged, told and warned", given: [.started(sync: 1, at: at(0))],
            event: .slow(sync: 1), state: .syncing(Running(id: 1, resumes: .idle, slow: true)),
            actions: [.publishStatus, .report(.slow(resource: "users")), .warnSlow]),
        Transition(
            name: "slow, slow again: nothing", given: [.started(sync: 1, at: at(0)), .slow(sync: 1)],
            event: .slow(sync: 1), state: .syncing(Running(id: 1, resumes: .idle, slow: true)), actions: []),
        Transition(
            name: "syncing, success: idle", given: [.started(sync: 1, at: at(0))],
            event: .finished(sync: 1, report(.success, items: 12), at: at(2)), state: .idle,
            actions: [.publishStatus, .report(.finished(result(.success, items: 12)))]),
        Transition(
            name: "syncing, not modified: idle", given: [.started(sync: 1, at: at(0))],
            event: .finished(sync: 1, report(.notModified), at: at(2)), state: .idle,
            actions: [.publishStatus, .report(.finished(result(.notModified)))]),
        Transition(
            name: "syncing, failed: failed", given: [.started(sync: 1, at: at(0))],
            event: .finished(sync: 1, report(.failed), at: at(2)), state: .failed,
            actions: [.publishStatus, .report(.finished(result(.failed)))]),
        Transition(
            name: "syncing, gave up: failed", given: [.started(sync: 1, at: at(0))],
            event: .finished(sync: 1, report(.gaveUp), at: at(2)), state: .failed,
            actions: [.publishStatus, .report(.finished(result(.gaveUp)))]),
        Transition(
            name: "syncing, offline: idle", given: [.started(sync: 1, at: at(0))],
            event: .finished(sync: 1, report(.offline), at: at(2)), state: .idle,
            actions: [.publishStatus, .report(.finished(result(.offline)))]),
        Transition(
            name: "syncing, cancelled: back to idle, nobody told", given: [.started(sync: 1, at: at(0))],
            event: .finished(sync: 1, report(.cancelled), at: at(2)), state: .idle, actions: [.publishStatus]),
        Transition(
            name: "syncing, scheduled: the next poll moves, the sync goes on", given: [.started(sync: 1, at: at(0))],
            event: .scheduled(at(60)), state: .syncing(Running(id: 1, resumes: .idle)), actions: [.publishStatus]),
        // a newer sync replaces an older one
        Transition(
            name: "syncing, started again: the newer sync is current", given: [.started(sync: 1, at: at(0))],
            event: .started(sync: 2, at: at(5)), state: .syncing(Running(id: 2, resumes: .idle)),
            actions: [.publishStatus]),
        Transition(
            name: "superseded sync's slowness: ignored",
            given: [.started(sync: 1, at: at(0)), .started(sync: 2, at: at(5))],
            event: .slow(sync: 1), state: .syncing(Running(id: 2, resumes: .idle)), actions: []),
        Transition(
            name: "superseded sync's retry: ignored",
            given: [.started(sync: 1, at: at(0)), .started(sync: 2, at: at(5))],
            event: .retrying(sync: 1, notice), state: .syncing(Running(id: 2, resumes: .idle)), actions: []),
        Transition(
            name: "superseded sync cancelled: ignored",
            given: [.started(sync: 1, at: at(0)), .started(sync: 2, at: at(5))],
            event: .finished(sync: 1, report(.cancelled), at: at(6)), state: .syncing(Running(id: 2, resumes: .idle)),
            actions: []),
        // failed
        Transition(
            name: "failed, started: syncing, back to failed if cancelled",
            given: [.started(sync: 1, at: at(0)), .finished(sync: 1, report(.failed), at: at(1))],
            event: .started(sync: 2, at: at(10)), state: .syncing(Running(id: 2, resumes: .failed)),
            actions: [.publishStatus]),
        Transition(
            name: "failed, its refresh cancelled: failed again",
            given: [
                .started(sync: 1, at: at(0)), .finished(sync: 1, report(.failed), at: at(1)),
                .started(sync: 2, at: at(10)),
            ],
            event: .finished(sync: 2, report(.cancelled), at: at(11)), state: .failed, actions: [.publishStatus]),
        Transition(
            name: "failed, its refresh succeeds: idle",
            given: [
                .started(sync: 1, at: at(0)), .finished(sync: 1, report(.failed), at: at(1)),
                .started(sync: 2, at: at(10)),
            ],
            event: .finished(sync: 2, report(.success), at: at(11)), state: .idle,
            actions: [.publishStatus, .report(.finished(result(.success)))]),
        Transition(
            name: "failed, scheduled nowhere: nothing changes",
            given: [.started(sync: 1, at: at(0)), .finished(sync: 1, report(.failed), at: at(1))],
            event: .scheduled(nil), state: .failed, actions: []),
    ]
}

@Suite struct ResourceMachineTests {
    func machine(row: ResourceRow? = nil) -> ResourceMachine {
        ResourceMachine(name: "users", row: row, nextSyncAt: start)
    }

    @Test(arguments: Transition.all)
    func eachTransitionLeadsToItsStateWithAllItsActions(_ transition: Transition) {
        var machine = machine()
        for event in transition.given { _ = machine.handle(event) }
        let actions = machine.handle(transition.event)
        #expect(machine.state == transition.state)
        #expect(actions == transition.actions)
    }

    @Test func aSyncGoesFromIdleThroughSyncingBackToIdle() {
        var machine = machine()
        #expect(machine.status(online: true).state == .idle)
        #expect(machine.status(online: true).nextSyncAt == start)
        _ = machine.handle(.started(sync: 1, at: at(0)))
        #expect(machine.status(online: true).state == .syncing)
        #expect(machine.status(online: true).lastAttemptAt == at(0))
        #expect(machine.status(online: true).attempt == 1)
        _ = machine.handle(.finished(sync: 1, report(.success, items: 12), at: at(2)))
        _ = machine.handle(.scheduled(at(62)))
        let status = machine.status(online: true)
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
        #expect(machine.status(online: true).state == .retrying)
        #expect(machine.status(online: true).attempt == 2)
        #expect(machine.status(online: true).message == notice.sentence)
        _ = machine.handle(.progressed(sync: 1, progress))
        #expect(machine.status(online: true).state == .syncing)
        #expect(machine.status(online: true).message == nil)
    }

    @Test(arguments: [SyncOutcome.failed, .gaveUp])
    func aFailureForGoodStopsThePollsUntilASuccess(outcome: SyncOutcome) {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.finished(sync: 1, report(outcome), at: at(1)))
        #expect(machine.status(online: true).state == .failed)
        #expect(machine.status(online: true).nextSyncAt == nil)
        #expect(machine.status(online: true).lastError?.message == "users: 404")
        // A manual refresh that succeeds resumes polling.
        _ = machine.handle(.started(sync: 2, at: at(10)))
        _ = machine.handle(.finished(sync: 2, report(.success), at: at(11)))
        _ = machine.handle(.scheduled(at(71)))
        #expect(machine.status(online: true).state == .idle)
        #expect(machine.status(online: true).lastError == nil)
        #expect(machine.status(online: true).nextSyncAt == at(71))
    }

    @Test func givingUpOnAPassingStorageConditionNeverFailsTheResource() {
        var machine = machine()
        _ = machine.handle(.scheduled(at(60)))
        _ = machine.handle(.started(sync: 1, at: at(0)))
        var ended = result(.gaveUp)
        ended.error = StoredError(
            kind: .storage, message: "users: disk full: /var/lib/sync-agent")
        _ = machine.handle(.finished(sync: 1, SyncReport(ended), at: at(1)))
        #expect(machine.status(online: true).state == .idle)
        #expect(machine.status(online: true).nextSyncAt == at(60))
        #expect(machine.status(online: true).lastError?.message == "users: disk full: /var/lib/sync-agent")
    }

    @Test func inAFleetAResourceAnotherAgentHoldsShowsAsStoredWithItsHolder() {
        var machine = machine()
        _ = machine.handle(.scheduled(at(60)))
        var row = ResourceRow(
            name: "users", state: .failed, lastSuccessAt: at(-30), lastAttemptAt: at(-5),
            lastError: StoredError(kind: .unrecoverable, message: "users: 404"), validators: Validators(),
            itemCount: 12)
        #expect(machine.handle(.stored(row, owner: "b:7:1f")) == [.publishStatus])
        var status = machine.status(online: true)
        #expect(status.owner == "b:7:1f" && status.state == .failed && status.items == 12)
        #expect(status.lastSuccessAt == at(-30) && status.nextSyncAt == nil)
        // The same row again changes nothing; this agent taking the lease shows it as the holder.
        #expect(machine.handle(.stored(row, owner: "b:7:1f")) == [])
        row.state = .idle
        _ = machine.handle(.stored(row, owner: nil))
        #expect(machine.status(online: true).owner == nil && machine.status(online: true).state == .idle)
        _ = machine.handle(.owned(by: "a:3:9c"))
        #expect(machine.status(online: true).owner == "a:3:9c")
        // A sync of this agent's in flight says more than a stored row.
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.stored(row, owner: "b:7:1f"))
        status = machine.status(online: true)
        #expect(status.state == .syncing && status.owner == "b:7:1f")
    }

    @Test func theSlowFlagIsRaisedOnceAndClearedWhenTheSyncEnds() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        #expect(machine.handle(.slow(sync: 1)).contains(.warnSlow))
        #expect(machine.handle(.slow(sync: 1)) == [])
        #expect(machine.status(online: true).slow)
        #expect(machine.status(online: true).message == "taking longer than expected")
        _ = machine.handle(.finished(sync: 1, report(.success), at: at(9)))
        #expect(!machine.status(online: true).slow)
        #expect(machine.status(online: true).message == nil)
        // The next sync may be slow again, and is told again.
        _ = machine.handle(.started(sync: 2, at: at(70)))
        #expect(machine.handle(.slow(sync: 2)).contains(.warnSlow))
    }

    @Test func offlineCoversEveryStateAndComesBackToIt() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.retrying(sync: 1, notice))
        #expect(machine.status(online: false).state == .offline)
        #expect(machine.status(online: false).message == ResourceMachine.offlineMessage)
        #expect(machine.status(online: true).state == .retrying)
        #expect(machine.status(online: true).message == notice.sentence)
    }

    @Test func eventsOfASupersededSyncAreIgnored() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.started(sync: 2, at: at(5)))
        #expect(machine.handle(.slow(sync: 1)) == [])
        _ = machine.handle(.retrying(sync: 1, notice))
        _ = machine.handle(.finished(sync: 1, report(.cancelled), at: at(6)))
        #expect(machine.status(online: true).state == .syncing)
        #expect(!machine.status(online: true).slow)
        _ = machine.handle(.finished(sync: 2, report(.success), at: at(7)))
        #expect(machine.status(online: true).state == .idle)
        #expect(machine.status(online: true).lastSuccessAt == at(7))
    }

    @Test func aCancelledSyncRestoresTheStateBeforeIt() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.finished(sync: 1, report(.failed), at: at(1)))
        _ = machine.handle(.started(sync: 2, at: at(5)))
        _ = machine.handle(.finished(sync: 2, report(.cancelled), at: at(6)))
        #expect(machine.status(online: true).state == .failed)
        #expect(machine.status(online: true).lastError?.message == "users: 404")
    }

    @Test func anOfflineAnswerKeepsTheScheduleAndTheError() {
        var machine = machine()
        _ = machine.handle(.started(sync: 1, at: at(0)))
        _ = machine.handle(.finished(sync: 1, report(.offline), at: at(1)))
        #expect(machine.status(online: true).state == .idle)
        #expect(machine.status(online: true).nextSyncAt == start)
        #expect(machine.status(online: true).lastError != nil)
    }
}
