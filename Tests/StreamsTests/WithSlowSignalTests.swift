import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct WithSlowSignalTests {
    @Test(arguments: DeadlineKeeper.allCases)
    func signalsOnceWhenTheOperationOutlastsTheThreshold(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        let clock = deadlines.clock
        let signals = Recorder<Duration>()
        let origin = clock.now
        let task = Task.inheritingExecutor {
            try await deadlines.slowSignal(
                after: .seconds(5), onSlow: { signals.record(origin.duration(to: clock.now)) }
            ) {
                try await clock.sleep(for: .seconds(12))
                return "done"
            }
        }
        // The operation's sleep and the deadline's.
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(4))
        #expect(signals.values.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(signals.values == [.seconds(5)])
        await clock.advance(by: .seconds(7))
        #expect(try await task.value == "done")
        #expect(signals.count == 1)
        #expect(await deadlines.settled())
    }

    @Test(arguments: DeadlineKeeper.allCases)
    func aQuickOperationIsNeverSlow(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        let signals = Recorder<Bool>()
        let value = try await deadlines.slowSignal(after: .seconds(5), onSlow: { signals.record(true) }) { 42 }
        #expect(value == 42)
        #expect(deadlines.pending == 0)
        #expect(await deadlines.settled())
        #expect(signals.values.isEmpty)
    }

    struct Failed: Error {}

    @Test(arguments: DeadlineKeeper.allCases)
    func passesOnTheOperationsErrorAndAnOptionalNil(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        await #expect(throws: Failed.self) {
            try await deadlines.slowSignal(after: .seconds(1), onSlow: {}) { () -> Int in throw Failed() }
        }
        let none: Int? = try await deadlines.slowSignal(after: .seconds(1), onSlow: {}) { nil }
        #expect(none == nil)
        #expect(deadlines.pending == 0)
    }

    @Test(arguments: DeadlineKeeper.allCases)
    func cancellingTheCallerCancelsTheOperation(_ keeper: DeadlineKeeper) async {
        let deadlines = Deadlines(keeper)
        let clock = deadlines.clock
        let signals = Recorder<Bool>()
        let task = Task.inheritingExecutor {
            try await deadlines.slowSignal(after: .seconds(5), onSlow: { signals.record(true) }) {
                try await clock.sleep(for: .seconds(60))
            }
        }
        await clock.waitForSleepers(2)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(deadlines.pending == 0)
        #expect(await deadlines.settled())
        #expect(signals.values.isEmpty)
    }
}
