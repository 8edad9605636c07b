import AsyncAlgorithms
import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct RaceTests {
    @Test func theFirstToProduceAnythingWinsAndTheOtherIsCancelled() async {
        let clock = VirtualClock()
        let slowLog = Recorder<String>()
        let fast = Marble.sequence("--x-y-|", clock: clock)
        let slow = Marble.sequence("-----ab|", clock: clock).map { element -> String in
            slowLog.record(element)
            return element
        }
        let output = await Marble.record(race(slow, fast), clock: clock, ticks: 10)
        #expect(output == "--x-y-|")
        #expect(slowLog.values.isEmpty)
        #expect(clock.sleeperCount == 0)
    }

    @Test func anEndOrAFailureCanWin() async {
        let clock = VirtualClock()
        #expect(
            await Marble.record(
                race(Marble.sequence("-|", clock: clock), Marble.sequence("--a|", clock: clock)), clock: clock, ticks: 4
            ) == "-|")
        #expect(
            await Marble.record(
                race(Marble.sequence("---a|", clock: clock), Marble.sequence("-#", clock: clock)), clock: clock,
                ticks: 5) == "-#")
    }

    @Test func aLoadingStateOnlyWhenDataIsSlow() async {
        // The seed article's pattern: data within 2 ticks wins; otherwise "L" shows, then data after at least 4 ticks.
        let clock = VirtualClock()
        func present(_ data: MarbleSequence) -> some AsyncSequence<String, any Error> & Sendable {
            let loading = Marble.sequence("--L", clock: clock)
            return race(data, chain(loading, data.delaySubscription(for: .seconds(4), clock: clock)))
        }
        let quick = await Marble.record(present(Marble.sequence("-d|", clock: clock)), clock: clock, ticks: 8)
        #expect(quick == "-d|")
        let slow = await Marble.record(present(Marble.sequence("-----d|", clock: clock)), clock: clock, ticks: 16)
        // L at 2; the loading sequence ends; data starts 4 ticks later (6) and takes 5 ticks.
        #expect(slow == "--L--------d|")
    }

    @Test func cancellingTheConsumerCancelsBoth() async {
        let clock = VirtualClock()
        let first = Recorder<String>()
        let second = Recorder<String>()
        let task = Task.inheritingExecutor {
            await collect(
                race(
                    Probe([], then: .hang, clock: clock, log: first), Probe([], then: .hang, clock: clock, log: second))
            )
        }
        await clock.waitForSleepers(2)
        task.cancel()
        #expect(await task.value.error is CancellationError)
        await settle { first.values.contains("cancelled") && second.values.contains("cancelled") }
        #expect(clock.sleeperCount == 0)
    }
}
