import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct ShareTests {
    @Test func everyConsumerReceivesTheSameElementsOfOneIteration() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let shared = Probe([1, 2, 3], clock: clock, log: log).share(replay: 0)
        // Both consumers subscribe before the first request, so both see the whole iteration.
        var first = shared.makeAsyncIterator()
        var second = shared.makeAsyncIterator()
        var received: ([Int], [Int]) = ([], [])
        while let element = try await first.next() { received.0.append(element) }
        while let element = try await second.next() { received.1.append(element) }
        #expect(received.0 == [1, 2, 3])
        #expect(received.1 == [1, 2, 3])
        #expect(log.values == ["start", "end"])
    }

    @Test func consumersOfOneRunningIterationShareIt() async {
        let clock = VirtualClock()
        let shared = Marble.sequence("-a-b-c-|", clock: clock).share(replay: 0)
        let first = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator) }
        let second = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator)
        }
        // Both consumers subscribed before either task ran, so both see every element.
        await clock.advance(by: .zero)
        for _ in 0..<8 { await clock.advance(by: .seconds(1)) }
        #expect(await first.value.elements == ["a", "b", "c"])
        #expect(await second.value.elements == ["a", "b", "c"])
    }

    @Test func aLateConsumerGetsTheReplayThenWhatFollows() async {
        let clock = VirtualClock()
        let shared = Marble.sequence("-a-b-c-|", clock: clock).share(replay: 1)
        let first = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator) }
        await clock.advance(by: .zero)
        await clock.advance(by: .seconds(3))
        // The first consumer took b and waits for c: a and b are out.
        await clock.waitForSleepers(1)
        let late = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator) }
        for _ in 0..<5 { await clock.advance(by: .seconds(1)) }
        #expect(await first.value.elements == ["a", "b", "c"])
        #expect(await late.value.elements == ["b", "c"])
    }

    @Test func theUpstreamStartsWithTheFirstRequestAndStopsWhenTheLastConsumerLeaves() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let shared = Probe([1], then: .hang, clock: clock, log: log).share(replay: 0)
        let iterator = shared.makeAsyncIterator()
        await letTasksRun()
        // Subscribed, not yet asked: nothing started.
        #expect(log.values.isEmpty)
        let consumer = Task.inheritingExecutor {
            var iterator = iterator
            var elements: [Int] = []
            while let element = try await iterator.next() { elements.append(element) }
            return elements
        }
        // The sole consumer asks for the second element: the upstream hangs on it.
        await clock.waitForSleepers(1)
        #expect(log.values == ["start"])
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
        #expect(log.values == ["start", "cancelled"])
        #expect(clock.sleeperCount == 0)
    }

    @Test func aConsumerLeavingDoesNotStopTheOthers() async throws {
        let clock = VirtualClock()
        let shared = Marble.sequence("-a-b-c-|", clock: clock).share(replay: 0)
        let stays = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator) }
        let leaves = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator)
        }
        await clock.advance(by: .zero)
        await clock.advance(by: .seconds(2))
        leaves.cancel()
        for _ in 0..<6 { await clock.advance(by: .seconds(1)) }
        #expect(await stays.value.elements == ["a", "b", "c"])
        #expect(await leaves.value.error is CancellationError)
    }

    @Test func aConsumerAfterTheEndStartsANewIteration() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let shared = Probe([1, 2], clock: clock, log: log).share(replay: 2)
        #expect(await collect(shared).elements == [1, 2])
        #expect(await collect(shared).elements == [1, 2])
        #expect(log.values == ["start", "end", "start", "end"])
    }

    @Test func aFailureReachesEveryConsumer() async {
        let clock = VirtualClock()
        let shared = Marble.sequence("-a#", clock: clock).share(replay: 0)
        let first = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator) }
        let second = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator)
        }
        await clock.advance(by: .zero)
        for _ in 0..<3 { await clock.advance(by: .seconds(1)) }
        for consumer in [first, second] {
            let (elements, error) = await consumer.value
            #expect(elements == ["a"])
            #expect(error is Marble.Failure)
        }
    }

    @Test func aBoundedBufferMakesTheUpstreamWaitForTheSlowestConsumer() async throws {
        let clock = VirtualClock()
        let produced = Recorder<Int>()
        let source = Probe(Array(1...10), clock: clock).map { element -> Int in
            produced.record(element)
            return element
        }
        let shared = source.share(replay: 0, buffering: .bounded(2))
        // Both consumers subscribe before the first request, so neither misses the start.
        var slow = shared.makeAsyncIterator()
        let fastIterator = shared.makeAsyncIterator()
        let fast = Task.inheritingExecutor {
            var iterator = fastIterator
            var elements: [Int] = []
            while let element = try await iterator.next() { elements.append(element) }
            return elements
        }
        #expect(try await slow.next() == 1)
        await settle { produced.count >= 3 }
        await letTasksRun()
        // The slow consumer holds two elements; the upstream waits.
        #expect(produced.count == 3)
        var rest: [Int] = []
        while let element = try? await slow.next() { rest.append(element) }
        #expect(rest == Array(2...10))
        #expect(try await fast.value == Array(1...10))
    }

    @Test func cancellingAWaitingConsumerEndsItOnly() async {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let shared = Probe([], then: .hang, clock: clock, log: log).share(replay: 0)
        let stays = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator) }
        let leaves = Task.inheritingExecutor { [iterator = shared.makeAsyncIterator()] in await collect(from: iterator)
        }
        await clock.waitForSleepers(1)
        leaves.cancel()
        #expect(await leaves.value.error is CancellationError)
        #expect(log.values == ["start"])
        stays.cancel()
        #expect(await stays.value.error is CancellationError)
        await settle { log.values.contains("cancelled") }
        #expect(clock.sleeperCount == 0)
    }
}
