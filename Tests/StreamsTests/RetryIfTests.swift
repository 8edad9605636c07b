import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct RetryIfTests {
    let policy = RetryPolicy(
        maxAttempts: 3, initialDelay: .seconds(1), maxDelay: .seconds(10), multiplier: 2, jitter: 0)

    /// A sequence that fails its first `failures` runs, then produces `[1, 2]`.
    struct Flaky: AsyncSequence, Sendable {
        let failures: Int
        let runs: Recorder<Int>
        let error: any Error & Sendable

        struct AsyncIterator: AsyncIteratorProtocol {
            let flaky: Flaky
            var index = 0

            mutating func next() async throws -> Int? {
                if index == 0 {
                    flaky.runs.record(flaky.runs.count + 1)
                    if flaky.runs.count <= flaky.failures { throw flaky.error }
                }
                index += 1
                return index <= 2 ? index : nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(flaky: self) }
    }

    struct Transient: Error {}
    struct Fatal: Error {}

    @Test func retriesTransientFailuresWithBackoff() async throws {
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let retries = Recorder<RetryEvent>()
        let sequence = Flaky(failures: 2, runs: runs, error: Transient())
            .retryIf(policy: policy, clock: clock, onRetry: { retries.record($0) }) {
                $0 is Transient ? .retry() : .giveUp
            }
        let task = Task.inheritingExecutor { await collect(sequence) }
        await clock.waitForSleepers(1)
        #expect(runs.count == 1)
        #expect(retries.values.map(\.delay) == [.seconds(1)])
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        #expect(runs.count == 2)
        #expect(retries.values.map(\.delay) == [.seconds(1), .seconds(2)])
        await clock.advance(by: .milliseconds(1999))
        #expect(runs.count == 2)
        await clock.advance(by: .milliseconds(1))
        let (elements, error) = await task.value
        #expect(elements == [1, 2])
        #expect(error == nil)
        #expect(runs.count == 3)
        #expect(retries.values.map(\.attempt) == [2, 3])
        #expect(retries.values.allSatisfy { $0.maxAttempts == 3 && $0.counted })
    }

    @Test func anExactWaitUsesNoAttemptAndIgnoresTheBackoff() async throws {
        // Five waits of 30 s with a policy of 3 attempts: none is counted, and
        // each waits exactly what the decision names, not the backoff.
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let retries = Recorder<RetryEvent>()
        let sequence = Flaky(failures: 5, runs: runs, error: Transient())
            .retryIf(policy: policy, clock: clock, onRetry: { retries.record($0) }) { _ in .wait(.seconds(30)) }
        let task = Task.inheritingExecutor { await collect(sequence) }
        for run in 1...5 {
            await clock.waitForSleepers(1)
            #expect(runs.count == run)
            await clock.advance(by: .milliseconds(29_999))
            #expect(runs.count == run)
            await clock.advance(by: .milliseconds(1))
        }
        let (elements, error) = await task.value
        #expect(elements == [1, 2])
        #expect(error == nil)
        #expect(retries.values.map(\.delay) == Array(repeating: .seconds(30), count: 5))
        #expect(retries.values.allSatisfy { !$0.counted && $0.attempt == 1 })
    }

    @Test func givesUpAfterMaxAttemptsWithTheLastError() async {
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let sequence = Flaky(failures: 10, runs: runs, error: Transient()).retryIf(policy: policy, clock: clock) {
            _ in true
        }
        let task = Task.inheritingExecutor { await collect(sequence) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(2))
        let (elements, error) = await task.value
        #expect(elements.isEmpty)
        #expect(error is Transient)
        #expect(runs.count == 3)
    }

    @Test func neverRetriesWhatCannotSucceed() async {
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let sequence = Flaky(failures: 1, runs: runs, error: Fatal())
            .retryIf(policy: policy, clock: clock) { $0 is Transient ? .retry() : .giveUp }
        let (elements, error) = await collect(sequence)
        #expect(elements.isEmpty)
        #expect(error is Fatal)
        #expect(runs.count == 1)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aRequestedDelayLongerThanTheBackoffIsHonoured() async {
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let sequence = Flaky(failures: 1, runs: runs, error: Transient())
            .retryIf(policy: policy, clock: clock) { _ in .retry(after: .seconds(30)) }
        let task = Task.inheritingExecutor { await collect(sequence) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(29))
        #expect(runs.count == 1)
        await clock.advance(by: .seconds(1))
        #expect(await task.value.elements == [1, 2])
        #expect(runs.count == 2)
    }

    @Test func anUncountedRetryDoesNotUseUpAttempts() async {
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let retries = Recorder<RetryEvent>()
        let sequence = Flaky(failures: 4, runs: runs, error: Transient())
            .retryIf(policy: policy, clock: clock, onRetry: { retries.record($0) }) { _ in .retryUncounted }
        let task = Task.inheritingExecutor { await collect(sequence) }
        for _ in 0..<4 {
            await clock.waitForSleepers(1)
            await clock.advance(by: .seconds(1))
        }
        #expect(await task.value.elements == [1, 2])
        #expect(runs.count == 5)
        #expect(retries.values.allSatisfy { !$0.counted && $0.attempt == 1 })
    }

    @Test func elementsBeforeAFailureComeAgainOnRetry() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let sequence = Probe([7, 8], then: .fail, clock: clock, log: log)
            .retryIf(policy: RetryPolicy(maxAttempts: 2, initialDelay: .zero, jitter: 0), clock: clock) { _ in true }
        let (elements, error) = await collect(sequence)
        #expect(elements == [7, 8, 7, 8])
        #expect(error is Probe.Failed)
        #expect(log.values == ["start", "fail", "start", "fail"])
    }

    @Test func cancellingTheConsumerCancelsTheWaitAndTheUpstream() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let waiting = Task.inheritingExecutor {
            await collect(
                Flaky(failures: 1, runs: Recorder(), error: Transient()).retryIf(policy: policy, clock: clock) { _ in
                    true
                })
        }
        await clock.waitForSleepers(1)
        waiting.cancel()
        #expect(await waiting.value.error is CancellationError)

        let running = Task.inheritingExecutor {
            await collect(
                Probe([1], then: .hang, clock: clock, log: log).retryIf(policy: policy, clock: clock) { _ in true })
        }
        await clock.waitForSleepers(1)
        running.cancel()
        let (elements, error) = await running.value
        #expect(elements == [1])
        #expect(error is CancellationError)
        #expect(log.values == ["start", "cancelled"])
        #expect(clock.sleeperCount == 0)
    }

    @Test func theSameMarbleTwiceWhenTheFirstRunFails() async {
        let clock = VirtualClock()
        let source = Marble.sequence("-a#", clock: clock)
        let output = await Marble.record(
            source.retryIf(policy: RetryPolicy(maxAttempts: 2, initialDelay: .seconds(2), jitter: 0), clock: clock) {
                _ in true
            },
            clock: clock, ticks: 8)
        #expect(output == "-a---a#")
    }
}
