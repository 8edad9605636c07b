import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct ThrottleTests {
    @Test func passesTheFirstAtOnceThenTheLatestOfEachInterval() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("abc-----d-e-----|", clock: clock).throttle(for: .seconds(4), clock: clock),
            clock: clock, ticks: 20)
        #expect(output == "a---c---d---e---|")
    }

    @Test func canKeepTheFirstInsteadOfTheLatest() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("abc-----|", clock: clock).throttle(for: .seconds(4), clock: clock, latest: false),
            clock: clock, ticks: 12)
        #expect(output == "a---b---|")
    }

    @Test func anElementPendingAtTheEndIsStillPassedOn() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("ab|", clock: clock).throttle(for: .seconds(3), clock: clock), clock: clock, ticks: 6)
        #expect(output == "a--(b|)")
    }

    @Test func aFailureComesAfterThePendingElement() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("ab#", clock: clock).throttle(for: .seconds(3), clock: clock), clock: clock, ticks: 6)
        #expect(output == "a--(b#)")
    }

    @Test func cancellingTheConsumerStopsTheReader() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let task = Task.inheritingExecutor {
            await collect(Probe([1], then: .hang, clock: clock, log: log).throttle(for: .seconds(1), clock: clock))
        }
        await clock.waitForSleepers(1)
        task.cancel()
        #expect(await task.value.error is CancellationError)
        await settle { log.values.contains("cancelled") }
        #expect(log.values == ["start", "cancelled"])
    }
}
