import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct PausableTests {
    @Test func passesElementsThroughWhileTheGateIsOpen() async {
        let clock = VirtualClock()
        let gate = CurrentValueSubject<Bool, Never>(true)
        let (elements, error) = await collect(Probe([1, 2, 3], clock: clock).pausable(by: gate))
        #expect(elements == [1, 2, 3])
        #expect(error == nil)
    }

    @Test func holdsRequestsWhileClosedAndReleasesThemWhenOpen() async {
        let clock = VirtualClock()
        let gate = CurrentValueSubject<Bool, Never>(true)
        let received = Recorder<Int>()
        // After its first element the upstream hangs on the clock: a sleeper shows it was asked.
        let sequence = Probe([1], then: .hang, clock: clock).pausable(by: gate)
        let consumer = Task.inheritingExecutor {
            var iterator = sequence.makeAsyncIterator()
            received.record(try await iterator.next()!)
            try await clock.sleep(for: .seconds(1))
            _ = try await iterator.next()
        }
        await clock.waitForSleepers(1)
        #expect(received.values == [1])
        gate.send(false)
        await letTasksRun()
        await clock.advance(by: .seconds(1))
        await letTasksRun()
        // The request for the second element is held: the upstream was not asked.
        #expect(clock.sleeperCount == 0)
        gate.send(true)
        await clock.waitForSleepers(1)
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
    }

    @Test func aClosedGateHoldsNewWorkFromTheStart() async {
        let clock = VirtualClock()
        let gate = CurrentValueSubject<Bool, Never>(false)
        let log = Recorder<String>()
        let consumer = Task.inheritingExecutor { await collect(Probe([1], clock: clock, log: log).pausable(by: gate)) }
        await letTasksRun()
        #expect(log.values.isEmpty)
        gate.send(true)
        #expect(await consumer.value.elements == [1])
        #expect(log.values == ["start", "end"])
    }

    @Test func beforeTheGatesFirstValueItIsOpenUnlessToldOtherwise() async {
        let clock = VirtualClock()
        let silent = PassthroughSubject<Bool, Never>()
        #expect(await collect(Probe([1], clock: clock).pausable(by: silent)).elements == [1])

        let log = Recorder<String>()
        let held = Task.inheritingExecutor {
            await collect(Probe([1], clock: clock, log: log).pausable(by: silent, startOpen: false))
        }
        await letTasksRun()
        #expect(log.values.isEmpty)
        held.cancel()
        #expect(await held.value.error is CancellationError)
    }

    @Test func noRetryFiresWhileClosed() async {
        // pausable before retryIf holds every attempt, the retries included.
        let clock = VirtualClock()
        let gate = CurrentValueSubject<Bool, Never>(true)
        let log = Recorder<String>()
        let sequence = Probe([], then: .fail, clock: clock, log: log)
            .pausable(by: gate)
            .retryIf(policy: RetryPolicy(maxAttempts: 3, initialDelay: .seconds(1), jitter: 0), clock: clock) { _ in
                true
            }
        let consumer = Task.inheritingExecutor { await collect(sequence) }
        await clock.waitForSleepers(1)
        #expect(log.values == ["start", "fail"])
        gate.send(false)
        await letTasksRun()
        await clock.advance(by: .seconds(60))
        #expect(log.values == ["start", "fail"])
        gate.send(true)
        await clock.waitForSleepers(1)
        #expect(log.values == ["start", "fail", "start", "fail"])
        consumer.cancel()
        _ = await consumer.value
    }

    @Test func cancellingAHeldRequestLeavesNothingBehind() async {
        let clock = VirtualClock()
        let gate = CurrentValueSubject<Bool, Never>(false)
        let consumer = Task.inheritingExecutor { await collect(Probe([1], clock: clock).pausable(by: gate)) }
        await letTasksRun()
        #expect(gate.storage.consumerCount == 1)
        consumer.cancel()
        #expect(await consumer.value.error is CancellationError)
        // The iterator is gone, and with it the task following the gate.
        await letTasksRun()
        #expect(gate.storage.consumerCount == 0)
    }
}
