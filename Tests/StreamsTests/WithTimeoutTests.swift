import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct WithTimeoutTests {
    @Test func returnsTheValueOfAnOperationThatFinishesInTime() async throws {
        let clock = VirtualClock()
        let value = try await withTimeout(.seconds(5), clock: clock) { 42 }
        #expect(value == 42)
    }

    @Test func throwsTimeoutErrorAndCancelsTheOperationAtTheDeadline() async throws {
        let clock = VirtualClock()
        let cancelled = Recorder<Bool>()
        let task = Task.inheritingExecutor {
            try await withTimeout(.seconds(5), clock: clock) { () -> Int in
                do {
                    try await clock.sleep(for: .seconds(60))
                } catch {
                    cancelled.record(true)
                    throw error
                }
                return 1
            }
        }
        // The deadline sleeper and the operation's sleeper.
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 2)
        await clock.advance(by: .seconds(1))
        await #expect(throws: TimeoutError.self) { try await task.value }
        #expect(cancelled.values == [true])
        #expect(clock.sleeperCount == 0)
    }

    struct Failed: Error {}

    @Test func passesOnTheOperationsError() async throws {
        let clock = VirtualClock()
        await #expect(throws: Failed.self) {
            try await withTimeout(.seconds(5), clock: clock) { () -> Int in throw Failed() }
        }
    }

    @Test func cancellingTheCallerCancelsTheOperation() async throws {
        let clock = VirtualClock()
        let task = Task.inheritingExecutor {
            try await withTimeout(.seconds(5), clock: clock) { () -> Int in
                try await clock.sleep(for: .seconds(60))
                return 1
            }
        }
        await clock.waitForSleepers(2)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }
}
