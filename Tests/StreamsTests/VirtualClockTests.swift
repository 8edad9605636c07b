import StreamsTesting
import Testing

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct VirtualClockTests {
    @Test func timeMovesOnlyWhenAdvanced() async {
        let clock = VirtualClock()
        let start = clock.now
        #expect(clock.now == start)
        await clock.advance(by: .seconds(3))
        #expect(start.duration(to: clock.now) == .seconds(3))
    }

    @Test func wakesSleepersInDeadlineOrder() async throws {
        let clock = VirtualClock()
        let order = Recorder<Int>()
        let tasks = [3, 1, 2].map { seconds in
            Task.inheritingExecutor {
                try await clock.sleep(for: .seconds(seconds))
                order.record(seconds)
            }
        }
        await clock.waitForSleepers(3)
        await clock.advance(by: .seconds(10))
        for task in tasks { try await task.value }
        #expect(order.values == [1, 2, 3])
    }

    @Test func aSleeperWakesAtItsDeadlineNotBefore() async throws {
        let clock = VirtualClock()
        let woke = Recorder<Bool>()
        let task = Task.inheritingExecutor {
            try await clock.sleep(for: .seconds(5))
            woke.record(true)
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(4999))
        #expect(woke.values.isEmpty)
        await clock.advance(by: .milliseconds(1))
        try await task.value
        #expect(woke.values == [true])
    }

    @Test func aSleepThatRegistersDuringAnAdvanceIsWokenWithinIt() async throws {
        let clock = VirtualClock()
        let times = Recorder<Duration>()
        let start = clock.now
        let task = Task.inheritingExecutor {
            for _ in 0..<3 {
                try await clock.sleep(for: .seconds(2))
                times.record(start.duration(to: clock.now))
            }
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(6))
        try await task.value
        #expect(times.values == [.seconds(2), .seconds(4), .seconds(6)])
    }

    @Test func cancellingASleeperRemovesIt() async {
        let clock = VirtualClock()
        let task = Task.inheritingExecutor { try await clock.sleep(for: .seconds(5)) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aDeadlineInThePastReturnsAtOnce() async throws {
        let clock = VirtualClock()
        await clock.advance(by: .seconds(10))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        #expect(clock.sleeperCount == 0)
    }
}
