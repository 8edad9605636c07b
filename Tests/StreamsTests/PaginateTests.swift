import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct PaginateTests {
    /// Pages of `size` numbers from 0 up to `total`, requested by page index.
    static func pages(total: Int, size: Int, log: Recorder<Int>) -> AsyncPaginatedSequence<Int, [Int]> {
        paginate(
            first: 0,
            fetch: { index in
                log.record(index)
                return Array(stride(from: index * size, to: min(total, (index + 1) * size), by: 1))
            },
            next: { index, page in page.count < size ? nil : index + 1 })
    }

    @Test func yieldsEveryPageInOrderAndStopsAtTheShortPage() async throws {
        let log = Recorder<Int>()
        var received: [[Int]] = []
        for try await page in Self.pages(total: 7, size: 3, log: log) {
            received.append(page)
        }
        #expect(received == [[0, 1, 2], [3, 4, 5], [6]])
        #expect(log.values == [0, 1, 2])
    }

    @Test func stopsAtAnEmptyPageWhenTheTotalIsAMultipleOfTheSize() async throws {
        let log = Recorder<Int>()
        var received: [[Int]] = []
        for try await page in Self.pages(total: 6, size: 3, log: log) {
            received.append(page)
        }
        #expect(received == [[0, 1, 2], [3, 4, 5], []])
    }

    @Test func fetchesNoPageBeforeItIsAskedFor() async throws {
        let log = Recorder<Int>()
        let sequence = Self.pages(total: 100, size: 10, log: log)
        var iterator = sequence.makeAsyncIterator()
        #expect(log.values.isEmpty)
        _ = try await iterator.next()
        #expect(log.values == [0])
        _ = try await iterator.next()
        #expect(log.values == [0, 1])
    }

    struct PageFailed: Error, Equatable {}

    @Test func aFailingPageEndsTheSequenceWithItsError() async throws {
        let log = Recorder<Int>()
        let sequence = paginate(
            first: 0,
            fetch: { (index: Int) -> [Int] in
                log.record(index)
                if index == 1 { throw PageFailed() }
                return [index]
            },
            next: { index, _ in index + 1 })
        var iterator = sequence.makeAsyncIterator()
        #expect(try await iterator.next() == [0])
        await #expect(throws: PageFailed.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
        #expect(log.values == [0, 1])
    }

    @Test func aThrowingNextFunctionEndsTheSequence() async throws {
        let sequence = paginate(
            first: 0, fetch: { (index: Int) in index },
            next: { _, _ -> Int? in throw PageFailed() })
        var iterator = sequence.makeAsyncIterator()
        await #expect(throws: PageFailed.self) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func collectionPagesStopAtAnEmptyOrShortPage() async throws {
        let log = Recorder<Int>()
        let pages = paginate(
            first: 0, pageSize: 3,
            fetch: { (index: Int) -> [Int] in
                log.record(index)
                return Array(stride(from: index * 3, to: min(8, (index + 1) * 3), by: 1))
            }, next: { index, _ in index + 1 })
        #expect(await collect(pages).elements == [[0, 1, 2], [3, 4, 5], [6, 7]])
        #expect(log.values == [0, 1, 2])

        let exact = paginate(
            first: 0, pageSize: 1, fetch: { (index: Int) -> [Int] in index < 2 ? [index] : [] }, next: { i, _ in i + 1 }
        )
        #expect(await collect(exact).elements == [[0], [1], []])
    }

    @Test func cancellingTheConsumerCancelsTheFetchInFlight() async throws {
        let started = AsyncStream<Void>.makeStream()
        let clock = VirtualClock()
        let sequence = paginate(
            first: 0,
            fetch: { (index: Int) -> Int in
                started.continuation.yield()
                try await clock.sleep(for: .seconds(3600))
                return index
            },
            next: { index, _ in index + 1 })
        let consumer = Task.inheritingExecutor {
            for try await _ in sequence {}
        }
        var signals = started.stream.makeAsyncIterator()
        await signals.next()
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
    }

    /// Pages that record when their fetch starts and each wait on the clock for a second.
    static func slowPages(
        count: Int, clock: VirtualClock, log: Recorder<String>, failing: Int? = nil
    ) -> AsyncPaginatedSequence<Int, Int> {
        paginate(
            first: 0,
            fetch: { (index: Int) -> Int in
                log.record("fetch \(index)")
                do {
                    try await clock.sleep(for: .seconds(1))
                } catch {
                    log.record("cancelled \(index)")
                    throw error
                }
                if index == failing { throw PageFailed() }
                return index
            },
            next: { index, _ in index + 1 < count ? index + 1 : nil }
        ).fetchingAhead()
    }

    @Test func fetchingAheadFetchesTheNextPageWhileTheConsumerHandlesThisOne() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let consumer = Task.inheritingExecutor {
            for try await page in Self.slowPages(count: 3, clock: clock, log: log) {
                log.record("got \(page)")
                // Handling the page takes a second too.
                try await clock.sleep(for: .seconds(1))
            }
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await letTasksRun()
        // Page 1 is on its way while page 0 is handled.
        try #require(log.values == ["fetch 0", "got 0", "fetch 1"])
        #expect(clock.sleeperCount == 2)
        await clock.advance(by: .seconds(1))
        await letTasksRun()
        #expect(log.values == ["fetch 0", "got 0", "fetch 1", "got 1", "fetch 2"])
        await clock.advance(by: .seconds(1))
        await letTasksRun()
        await clock.advance(by: .seconds(1))
        try await consumer.value
        // Three pages that take a second to fetch and a second to handle: 4 s, not 6.
        #expect(clock.now.offset == .seconds(4))
        #expect(log.values == ["fetch 0", "got 0", "fetch 1", "got 1", "fetch 2", "got 2"])
    }

    @Test func aPageFetchedAheadThatFailsEndsTheSequenceWhenItIsAskedFor() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let consumer = Task.inheritingExecutor {
            var received: [Int] = []
            do {
                for try await page in Self.slowPages(count: 5, clock: clock, log: log, failing: 1) {
                    received.append(page)
                }
            } catch is PageFailed {
                return received
            }
            return []
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        #expect(try await consumer.value == [0])
        #expect(log.values == ["fetch 0", "fetch 1"])
    }

    @Test func aConsumerThatStopsCancelsThePageFetchedAhead() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let consumer = Task.inheritingExecutor {
            for try await page in Self.slowPages(count: 5, clock: clock, log: log) where page == 0 {
                break
            }
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        try await consumer.value
        // The iterator is gone: its page on the way is cancelled, no later one is asked for.
        await letTasksRun()
        await clock.advance(by: .seconds(10))
        await letTasksRun()
        #expect(log.values == ["fetch 0", "fetch 1", "cancelled 1"])
        #expect(clock.sleeperCount == 0)
    }

    @Test func cancellingTheConsumerCancelsThePageItWaitsFor() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let consumer = Task.inheritingExecutor {
            for try await _ in Self.slowPages(count: 5, clock: clock, log: log) {}
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        consumer.cancel()
        await #expect(throws: CancellationError.self) { try await consumer.value }
        #expect(log.values == ["fetch 0", "fetch 1", "cancelled 1"])
    }
}
