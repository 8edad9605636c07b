import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct TimeoutTests {
    @Test func passesElementsThatComeInTime() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("-a--b--|", clock: clock).timeout(after: .seconds(4), clock: clock), clock: clock, ticks: 10
        )
        #expect(output == "-a--b--|")
    }

    @Test func failsWhenTheNextElementIsLateAndCancelsTheUpstream() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("-a------b|", clock: clock).timeout(after: .seconds(3), clock: clock), clock: clock,
            ticks: 10)
        #expect(output == "-a--#")
        #expect(clock.sleeperCount == 0)
        let log = Recorder<String>()
        let (elements, error) = await collectAdvancing(
            Probe([1], then: .hang, clock: clock, log: log).timeout(after: .seconds(2), clock: clock), clock: clock)
        #expect(elements == [1])
        #expect(error is TimeoutError)
        await settle { log.values.contains("cancelled") }
        #expect(log.values == ["start", "cancelled"])
    }

    @Test func anUpstreamFailurePassesThrough() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("-a#", clock: clock).timeout(after: .seconds(5), clock: clock), clock: clock, ticks: 4)
        #expect(output == "-a#")
    }

    @Test func cancellingTheConsumerCancelsTheUpstream() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let task = Task.inheritingExecutor {
            await collect(Probe([], then: .hang, clock: clock, log: log).timeout(after: .seconds(60), clock: clock))
        }
        await clock.waitForSleepers(2)
        task.cancel()
        #expect(await task.value.error is CancellationError)
        await settle { log.values.contains("cancelled") }
        #expect(clock.sleeperCount == 0)
    }

    /// Collects a sequence while moving the clock a second at a time.
    func collectAdvancing<S: AsyncSequence & Sendable>(
        _ sequence: S, clock: VirtualClock
    ) async -> ([S.Element], (any Error)?)
    where S.Element: Sendable {
        let task = Task.inheritingExecutor { await collect(sequence) }
        for _ in 0..<10 { await clock.advance(by: .seconds(1)) }
        let result = await task.value
        return (result.elements, result.error)
    }
}
