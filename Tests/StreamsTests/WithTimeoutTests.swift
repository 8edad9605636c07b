import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct WithTimeoutTests {
    @Test(arguments: DeadlineKeeper.allCases)
    func returnsTheValueOfAnOperationThatFinishesInTime(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        let value = try await deadlines.timeout(.seconds(5)) { 42 }
        #expect(value == 42)
        #expect(deadlines.pending == 0)
        #expect(await deadlines.settled())
    }

    @Test(arguments: DeadlineKeeper.allCases)
    func throwsTimeoutErrorAndCancelsTheOperationAtTheDeadline(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        let clock = deadlines.clock
        let cancelled = Recorder<Bool>()
        let task = Task.inheritingExecutor {
            try await deadlines.timeout(.seconds(5)) { () -> Int in
                do {
                    try await clock.sleep(for: .seconds(60))
                } catch {
                    cancelled.record(true)
                    throw error
                }
                return 1
            }
        }
        // The deadline's sleeper and the operation's.
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 2)
        await clock.advance(by: .seconds(1))
        await #expect(throws: TimeoutError.self) { try await task.value }
        await letTasksRun()
        #expect(cancelled.values == [true])
        #expect(clock.sleeperCount == 0)
        #expect(deadlines.pending == 0)
    }

    @Test func onTimersTheCallEndsAtTheDeadlineEvenIfTheOperationIgnoresItsCancellation() async throws {
        let deadlines = Deadlines(.timers)
        let clock = deadlines.clock
        let ended = Recorder<Bool>()
        // Work shared with others: the operation waits for it, cancelled or not.
        let shared = Task.inheritingExecutor { try? await clock.sleep(for: .seconds(30)) }
        let task = Task.inheritingExecutor {
            try await deadlines.timeout(.seconds(5)) { () -> Int in
                await shared.value
                ended.record(true)
                return 1
            }
        }
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(5))
        await #expect(throws: TimeoutError.self) { try await task.value }
        #expect(ended.values.isEmpty)
        // The operation ends later, on its own.
        await clock.advance(by: .seconds(25))
        await letTasksRun()
        #expect(ended.values == [true])
    }

    @Test func onTimersAnOperationThatEndsBeforeTheDeadlineWinsOverIt() async throws {
        let deadlines = Deadlines(.timers)
        let clock = deadlines.clock
        let task = Task.inheritingExecutor {
            try await deadlines.timeout(.seconds(5)) { () -> Int in
                try await clock.sleep(for: .seconds(4))
                return 7
            }
        }
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(4))
        #expect(try await task.value == 7)
        #expect(deadlines.pending == 0)
    }

    struct Failed: Error {}

    @Test(arguments: DeadlineKeeper.allCases)
    func passesOnTheOperationsError(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        await #expect(throws: Failed.self) {
            try await deadlines.timeout(.seconds(5)) { () -> Int in throw Failed() }
        }
        #expect(deadlines.pending == 0)
    }

    @Test(arguments: DeadlineKeeper.allCases)
    func cancellingTheCallerCancelsTheOperation(_ keeper: DeadlineKeeper) async throws {
        let deadlines = Deadlines(keeper)
        let clock = deadlines.clock
        let task = Task.inheritingExecutor {
            try await deadlines.timeout(.seconds(5)) { () -> Int in
                try await clock.sleep(for: .seconds(60))
                return 1
            }
        }
        await clock.waitForSleepers(2)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(deadlines.pending == 0)
        #expect(await deadlines.settled())
    }
}
