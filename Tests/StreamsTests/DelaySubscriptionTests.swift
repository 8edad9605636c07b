import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct DelaySubscriptionTests {
    @Test func startsTheUpstreamOnlyAfterTheDelay() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("a-b|", clock: clock).delaySubscription(for: .seconds(3), clock: clock), clock: clock,
            ticks: 8)
        #expect(output == "---a-b|")
    }

    @Test func doesNotTouchTheUpstreamBeforeTheDelay() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let task = Task.inheritingExecutor {
            await collect(Probe([1], clock: clock, log: log).delaySubscription(for: .seconds(5), clock: clock))
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(4))
        #expect(log.values.isEmpty)
        await clock.advance(by: .seconds(1))
        #expect(await task.value.elements == [1])
        #expect(log.values == ["start", "end"])
    }

    @Test func passesOnFailuresAndCancelsTheWait() async {
        let clock = VirtualClock()
        let failing = await Marble.record(
            Marble.sequence("-#", clock: clock).delaySubscription(for: .seconds(1), clock: clock), clock: clock,
            ticks: 4)
        #expect(failing == "--#")
        let log = Recorder<String>()
        let task = Task.inheritingExecutor {
            await collect(Probe([1], clock: clock, log: log).delaySubscription(for: .seconds(5), clock: clock))
        }
        await clock.waitForSleepers(1)
        task.cancel()
        #expect(await task.value.error is CancellationError)
        #expect(log.values.isEmpty)
        #expect(clock.sleeperCount == 0)
    }
}
