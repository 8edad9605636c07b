import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct SwitchMapTests {
    @Test func switchesToTheLatestInnerSequence() async {
        let clock = VirtualClock()
        let outer = Marble.sequence("a---b----|", clock: clock)
        let output = await Marble.record(
            outer.switchMap { letter in
                Marble.sequence("-1-2-3|", clock: clock).map { digit in letter == "a" ? digit : String(Int(digit)! + 3)
                }
            },
            clock: clock, ticks: 14)
        // a's inner gives 1 and 2; b comes at tick 4, before a's 3, and its inner gives 4, 5, 6.
        #expect(output == "-1-2-4-5-6|")
    }

    @Test func cancelsAStaleInnerSequenceAndDropsItsElements() async {
        let clock = VirtualClock()
        let outer = Marble.sequence("a-b----|", clock: clock)
        let cancelled = Recorder<String>()
        let output = await Marble.record(
            outer.switchMap { letter in
                Marble.sequence("---x|", clock: clock).map { _ in letter }
                    .handleCancellation { cancelled.record(letter) }
            },
            clock: clock, ticks: 10)
        #expect(output == "-----b-|")
        #expect(cancelled.values == ["a"])
    }

    @Test func endsWhenTheOuterAndTheLatestInnerHaveEnded() async {
        let clock = VirtualClock()
        let output = await Marble.record(
            Marble.sequence("a|", clock: clock).switchMap { _ in Marble.sequence("--1|", clock: clock) }, clock: clock,
            ticks: 6)
        #expect(output == "--1|")
    }

    @Test func aFailureOfEitherEndsTheSequence() async {
        let clock = VirtualClock()
        let outerFails = await Marble.record(
            Marble.sequence("a-#", clock: clock).switchMap { _ in Marble.sequence("-1--2|", clock: clock) },
            clock: clock, ticks: 6)
        #expect(outerFails == "-1#")
        let innerFails = await Marble.record(
            Marble.sequence("a---|", clock: clock).switchMap { _ in Marble.sequence("-1#", clock: clock) },
            clock: clock, ticks: 6)
        #expect(innerFails == "-1#")
    }

    @Test func cancellingTheConsumerCancelsOuterAndInner() async {
        let clock = VirtualClock()
        let outerLog = Recorder<String>()
        let innerLog = Recorder<String>()
        let sequence = Probe([1], then: .hang, clock: clock, log: outerLog).switchMap { _ in
            Probe([], then: .hang, clock: clock, log: innerLog)
        }
        let task = Task.inheritingExecutor { await collect(sequence) }
        await clock.waitForSleepers(2)
        task.cancel()
        #expect(await task.value.error is CancellationError)
        await settle { outerLog.values.contains("cancelled") && innerLog.values.contains("cancelled") }
        #expect(clock.sleeperCount == 0)
    }
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Calls `onCancel` when an iteration of this sequence is cancelled.
    func handleCancellation(_ onCancel: @escaping @Sendable () -> Void) -> AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task.inheritingExecutor {
                do {
                    for try await element in self { continuation.yield(element) }
                    continuation.finish()
                } catch {
                    if error is CancellationError { onCancel() }
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}
