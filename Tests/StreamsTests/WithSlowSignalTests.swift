import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct WithSlowSignalTests {
    @Test func signalsOnceWhenTheOperationOutlastsTheThreshold() async throws {
        let clock = VirtualClock()
        let signals = Recorder<Duration>()
        let origin = clock.now
        let task = Task.inheritingExecutor {
            try await withSlowSignal(
                after: .seconds(5), clock: clock, onSlow: { signals.record(origin.duration(to: clock.now)) }
            ) {
                try await clock.sleep(for: .seconds(12))
                return "done"
            }
        }
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(4))
        #expect(signals.values.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(signals.values == [.seconds(5)])
        await clock.advance(by: .seconds(7))
        #expect(try await task.value == "done")
        #expect(signals.count == 1)
    }

    @Test func aQuickOperationIsNeverSlow() async throws {
        let clock = VirtualClock()
        let signals = Recorder<Bool>()
        let value = try await withSlowSignal(after: .seconds(5), clock: clock, onSlow: { signals.record(true) }) { 42 }
        #expect(value == 42)
        await clock.advance(by: .seconds(60))
        #expect(signals.values.isEmpty)
        #expect(clock.sleeperCount == 0)
    }

    struct Failed: Error {}

    @Test func passesOnTheOperationsErrorAndAnOptionalNil() async throws {
        let clock = VirtualClock()
        await #expect(throws: Failed.self) {
            try await withSlowSignal(after: .seconds(1), clock: clock, onSlow: {}) { () -> Int in throw Failed() }
        }
        let none: Int? = try await withSlowSignal(after: .seconds(1), clock: clock, onSlow: {}) { nil }
        #expect(none == nil)
    }

    @Test func cancellingTheCallerCancelsTheOperation() async {
        let clock = VirtualClock()
        let task = Task.inheritingExecutor {
            try await withSlowSignal(after: .seconds(5), clock: clock, onSlow: {}) {
                try await clock.sleep(for: .seconds(60))
            }
        }
        await clock.waitForSleepers(2)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }
}
