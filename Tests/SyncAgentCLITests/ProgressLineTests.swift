import Streams
import StreamsTesting
import Testing

@testable import SyncAgentCLI
@testable import SyncAgentDaemon
@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct ProgressLineTests {
    @Test func rendersEachResourcesPagesAndItems() {
        typealias Entry = ProgressLine<VirtualClock>.Entry
        let text = ProgressLine<VirtualClock>.render(
            [
                Entry(progress: SyncProgress(resource: "users", pages: 12, items: 12_000)),
                Entry(progress: SyncProgress(resource: "me", pages: 1, items: 1)),
            ],
            width: 80)
        #expect(text == "syncing… users: 12 pages, 12000 items; me: 1 page, 1 item")
        #expect(ProgressLine<VirtualClock>.render([], width: 80) == "syncing… waiting for the first page")
        let retrying = SyncProgress(
            resource: "users", pages: 2, items: 200, attempts: 2,
            retry: RetryNotice(
                request: "GET https://h/u?page=3", cause: "boom", attempt: 2, maxAttempts: 5, delay: .seconds(1)))
        #expect(
            ProgressLine<VirtualClock>.render([Entry(progress: retrying)], width: 80)
                == "syncing… users: 2 pages, 200 items, retrying (attempt 2 of 5)")
        #expect(
            ProgressLine<VirtualClock>.render([Entry(progress: retrying, slow: true)], width: 100)
                == "syncing… users: 2 pages, 200 items, retrying (attempt 2 of 5), taking longer than expected")
        #expect(retrying.retry?.sentence == "retrying GET https://h/u?page=3 in 1s (attempt 2 of 5): boom")
        #expect(
            ProgressLine<VirtualClock>.render(
                [Entry(progress: SyncProgress(resource: "users", pages: 1, items: 1))], width: 12)
                == "syncing… us…")
    }

    @Test func appearsOnlyAfterTheDelayAndIsErasedAtTheEnd() async {
        let clock = VirtualClock()
        let output = Recorder<String>()
        let line = ProgressLine(clock: clock, width: 80) { output.record($0) }
        let drawing = Task { await line.run() }
        line.update(.progress(SyncProgress(resource: "users", pages: 1, items: 100)))
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(99))
        #expect(output.values.isEmpty)
        await clock.advance(by: .milliseconds(1))
        await clock.waitForSleepers(1)
        #expect(output.values == ["\r\u{1B}[Ksyncing… users: 1 page, 100 items"])
        // Nothing new: no redraw.
        await clock.advance(by: .milliseconds(100))
        await clock.waitForSleepers(1)
        #expect(output.count == 1)
        line.update(.progress(SyncProgress(resource: "users", pages: 2, items: 200)))
        await clock.advance(by: .milliseconds(100))
        await clock.waitForSleepers(1)
        #expect(output.values.last == "\r\u{1B}[Ksyncing… users: 2 pages, 200 items")
        drawing.cancel()
        await drawing.value
        line.finish()
        #expect(output.values.last == "\r\u{1B}[K")
    }

    @Test func aQuickRefreshDrawsNothing() async {
        let clock = VirtualClock()
        let output = Recorder<String>()
        let line = ProgressLine(clock: clock, width: 80) { output.record($0) }
        let drawing = Task { await line.run() }
        line.update(.progress(SyncProgress(resource: "users", pages: 1, items: 100)))
        await clock.waitForSleepers(1)
        await clock.advance(by: .milliseconds(50))
        drawing.cancel()
        await drawing.value
        line.finish()
        #expect(output.values.isEmpty)
    }

    /// A line of a refresh that reported its first page, drawing until `ended` or cancelled.
    func drawingUntilEnded() async -> (
        VirtualClock, Recorder<String>, ProgressLine<VirtualClock>, CurrentValueSubject<Bool, Never>, Task<Void, Never>
    ) {
        let clock = VirtualClock()
        let output = Recorder<String>()
        let line = ProgressLine(clock: clock, width: 80) { output.record($0) }
        let ended = CurrentValueSubject<Bool, Never>(false)
        let drawing = Task { await line.run(until: ended) }
        line.update(.progress(SyncProgress(resource: "users", pages: 1, items: 100)))
        await clock.waitForSleepers(1)
        return (clock, output, line, ended, drawing)
    }

    @Test func aRefreshThatEndsWithinTheDelayWinsTheRaceAndNothingIsDrawn() async {
        let (clock, output, _, ended, drawing) = await drawingUntilEnded()
        await clock.advance(by: .milliseconds(99))
        ended.send(true)
        // The loop ends by itself: the refresh's end won the race.
        await drawing.value
        await clock.advance(by: .milliseconds(200))
        #expect(output.values.isEmpty)
    }

    @Test func aLineShownAlreadyIsNotStoppedByTheEndSignalButByCancellation() async {
        let (clock, output, line, ended, drawing) = await drawingUntilEnded()
        await clock.advance(by: .milliseconds(100))
        await clock.waitForSleepers(1)
        #expect(output.count == 1)
        ended.send(true)
        line.update(.progress(SyncProgress(resource: "users", pages: 2, items: 200)))
        await clock.advance(by: .milliseconds(100))
        await clock.waitForSleepers(1)
        #expect(output.count == 2)
        drawing.cancel()
        await drawing.value
    }
}
