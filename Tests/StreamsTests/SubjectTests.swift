import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct PassthroughSubjectTests {
    struct Failed: Error {}

    @Test func everyConsumerReceivesWhatIsSentAfterItStarted() async {
        let subject = PassthroughSubject<Int, Never>()
        let first = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 1 }
        subject.send(1)
        let second = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 2 }
        subject.send(2)
        subject.send(3)
        subject.finish()
        #expect(await first.value.elements == [1, 2, 3])
        #expect(await second.value.elements == [2, 3])
    }

    @Test func elementsSentWithoutConsumersAreDropped() async {
        let subject = PassthroughSubject<Int, Never>()
        subject.send(1)
        let consumer = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 1 }
        subject.send(2)
        subject.finish()
        #expect(await consumer.value.elements == [2])
    }

    @Test func aFailureReachesEveryConsumerAfterItsElements() async {
        let subject = PassthroughSubject<Int, Failed>()
        let consumer = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 1 }
        subject.send(1)
        subject.finish(throwing: Failed())
        subject.send(2)
        let (elements, error) = await consumer.value
        #expect(elements == [1])
        #expect(error is Failed)
        #expect(await collect(subject).error is Failed)
    }

    @Test func aSlowConsumerKeepsOnlyTheNewestWhenAsked() async {
        let subject = PassthroughSubject<Int, Never>(buffering: .bufferingNewest(2))
        var iterator = subject.makeAsyncIterator()
        for element in 1...5 { subject.send(element) }
        subject.finish()
        var received: [Int] = []
        while let element = await iterator.next() { received.append(element) }
        #expect(received == [4, 5])
    }

    @Test func aCancelledConsumerEndsAndLeaves() async {
        let subject = PassthroughSubject<Int, Never>()
        let consumer = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 1 }
        consumer.cancel()
        let (elements, error) = await consumer.value
        #expect(elements.isEmpty)
        #expect(error == nil)
        await settle { subject.storage.consumerCount == 0 }
        #expect(subject.storage.consumerCount == 0)
    }
}

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct CurrentValueSubjectTests {
    @Test func aNewConsumerReceivesTheCurrentValueFirst() async {
        let subject = CurrentValueSubject<String, Never>("a")
        let first = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 1 }
        subject.value = "b"
        let second = Task.inheritingExecutor { await collect(subject) }
        await settle { subject.storage.consumerCount == 2 }
        subject.send("c")
        subject.finish()
        #expect(await first.value.elements == ["a", "b", "c"])
        #expect(await second.value.elements == ["b", "c"])
        #expect(subject.value == "c")
    }

    @Test func manyConsumersIterateAtOnce() async {
        let subject = CurrentValueSubject<Int, Never>(0)
        let consumers = (0..<10).map { _ in Task.inheritingExecutor { await collect(subject) } }
        await settle { subject.storage.consumerCount == 10 }
        for value in 1...3 { subject.value = value }
        subject.finish()
        for consumer in consumers {
            #expect(await consumer.value.elements == [0, 1, 2, 3])
        }
    }

    @Test func conflatingKeepsTheLatest() async {
        let subject = CurrentValueSubject<Int, Never>(0, buffering: .bufferingNewest(1))
        var iterator = subject.makeAsyncIterator()
        for value in 1...5 { subject.value = value }
        #expect(await iterator.next() == 5)
    }
}
