import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import Streams
@testable import SyncAgentDaemon
@testable import SyncCore

/// What the status socket holds for each client: the events waiting for a
/// slow one, and the number of connections.
@Suite(.timeLimit(.minutes(1))) struct BoundsTests {
    /// The texts a sink yields until it ends.
    func drain(_ sink: EventSink) async -> [String] {
        var texts: [String] = []
        for await text in sink.texts { texts.append(text) }
        return texts
    }

    @Test func aSinkOverflowsPastItsCountOnceAndKeepsWhatWasQueued() async {
        let overflows = Mutex(0)
        let sink = EventSink(limits: .init(count: 2, bytes: 1000)) { overflows.withLock { $0 += 1 } }
        #expect(sink.send(text: "a"))
        #expect(sink.send(text: "b"))
        #expect(!sink.overflowed)
        #expect(!sink.send(text: "c"))
        #expect(!sink.send(text: "d"))
        #expect(sink.overflowed)
        #expect(overflows.withLock { $0 } == 1)
        #expect(await drain(sink) == ["a", "b"])
    }

    @Test func aSinkOverflowsPastItsBytesAndWrittenTextsMakeRoom() async {
        let sink = EventSink(limits: .init(count: 100, bytes: 10))
        #expect(sink.send(text: "12345"))
        #expect(sink.send(text: "67890"))
        sink.written("12345")
        #expect(sink.send(text: "abcde"))
        #expect(!sink.send(text: "f"))
        #expect(sink.overflowed)
        #expect(await drain(sink) == ["12345", "67890", "abcde"])
    }

    @Test func theStateAStreamStartsWithNeverOverflowsButCounts() async {
        let sink = EventSink(limits: .init(count: 1, bytes: 4))
        #expect(sink.send(text: "everything", bounded: false))
        #expect(sink.send(text: "as it is", bounded: false))
        #expect(!sink.overflowed)
        #expect(!sink.send(text: "x"))
        sink.finish()
        #expect(await drain(sink) == ["everything", "as it is"])
    }

    @Test func aFinishedSinkEndsAfterWhatIsQueuedAndIsNoOverflow() async {
        let sink = EventSink(limits: .init(count: 1, bytes: 100))
        sink.send(text: "last")
        sink.finish()
        #expect(!sink.send(text: "late"))
        #expect(!sink.overflowed)
        #expect(await drain(sink) == ["last"])
    }

    @Test func aClientThatFallsBehindGetsWhatWasQueuedThenAnOverflowEvent() async throws {
        let agent = StatusAPITests.FakeAgent()
        var api = StatusAPI(control: agent, pid: 4242)
        // Nothing may wait beyond the state the stream starts with: the
        // first change overflows, whatever the writer has done by then.
        api.eventLimits = .init(count: 0, bytes: 0)
        let subject = agent.changes
        let sender = Task {
            while subject.storage.consumerCount == 0 { await Task.yield() }
            var syncing = ResourceStatus(name: "users", row: nil)
            syncing.state = .syncing
            subject.send(StatusChange(version: 1, status: syncing))
        }
        let app = Application(router: api.router())
        let body = try await app.test(.router) { client in
            try await client.execute(uri: "/v1/events", method: .get) { String(buffer: $0.body) }
        }
        await sender.value
        subject.finish()
        let events = StatusAPITests().events(body)
        #expect(events.map(\.name) == ["resource", "resource", "overflow"], "\(body)")
        #expect(events.last?.data.contains("read too slowly") == true)
    }

    @Test func theConnectionCapIsHalfTheFileLimitWithinBounds() {
        #expect(ConnectionLimits.cap(forFileLimit: 1024) == 512)
        #expect(ConnectionLimits.cap(forFileLimit: 10) == 8)
        #expect(ConnectionLimits.cap(forFileLimit: 1_048_576) == 4096)
    }

    @Test func connectionsPastTheCapAreRefusedUntilEnoughLeave() {
        let limits = ConnectionLimits(cap: 4, logger: Logger(label: "test"))
        #expect((0..<4).allSatisfy { _ in limits.admit() })
        #expect(!limits.admit())
        limits.leave()
        #expect(limits.admit())
        #expect(!limits.admit())
    }
}
