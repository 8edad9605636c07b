import Streams
import SyncCore
import Synchronization

/// The live progress line of a refresh on a terminal (docs/cli.md#refresh): it appears
/// only once the refresh has run for ``delay``, so quick refreshes never
/// flicker, is redrawn in place every ``delay`` while anything changed, and is
/// erased when the refresh ends, before the results are printed.
///
/// Whether it appears at all is a `race` (Rx's `amb`) between the refresh's
/// end and the line's frames subscribed ``delay`` late with
/// `delaySubscription`: the loading state shows only when the data is slow.
///
/// Thread-safety: `Sendable`; ``update(_:)`` may be called from any task.
final class ProgressLine<C: Clock<Duration>>: Sendable {
    /// How long a refresh runs before the line appears, and how often it is redrawn.
    static var delay: Duration { .milliseconds(100) }

    private struct State {
        var progress: [Entry] = []
        var shown = false
        var changed = false
    }

    private let state = Mutex(State())
    private let clock: C
    private let width: Int
    private let write: @Sendable (String) -> Void

    /// A line drawn with `write` (standard error, usually), at most `width` characters wide.
    init(clock: C, width: Int, write: @escaping @Sendable (String) -> Void) {
        self.clock = clock
        self.width = width
        self.write = write
    }

    /// What the line shows of one resource.
    struct Entry: Sendable, Hashable {
        var progress: SyncProgress
        /// Whether its sync has taken longer than expected.
        var slow = false
    }

    /// Records what a resource's sync reported; it shows at the next redraw.
    func update(_ activity: SyncActivity) {
        state.withLock { state in
            let name = activity.resource
            let index = state.progress.firstIndex { $0.progress.resource == name }
            var entry =
                index.map { state.progress[$0] } ?? Entry(progress: SyncProgress(resource: name, pages: 0, items: 0))
            switch activity {
            case .progress(let progress):
                entry.progress = progress
            case .retry(_, let notice):
                entry.progress.retry = notice
                // A rate-limit wait uses no attempt.
                if notice.rateLimitedUntil == nil { entry.progress.attempts = notice.attempt }
            case .slow:
                entry.slow = true
            case .finished:
                return
            }
            if let index {
                state.progress[index] = entry
            } else {
                state.progress.append(entry)
            }
            state.changed = true
        }
    }

    /// What the drawing loop gets: the refresh ended, or a frame to draw.
    private enum Frame: Sendable {
        case ended
        case text(String)
    }

    /// Draws the line every ``delay``, starting after ``delay``, until
    /// cancelled; nothing at all when `ended` turns `true` first.
    func run(until ended: CurrentValueSubject<Bool, Never> = CurrentValueSubject(false)) async {
        let end = deferred { () -> Frame in
            _ = await ended.first { $0 }
            return .ended
        }
        let frames = Frames(line: self).delaySubscription(for: Self.delay, clock: clock)
        do {
            for try await frame in race(end, frames) {
                guard case .text(let text) = frame else { return }
                write("\r\u{1B}[K" + text)
            }
        } catch {
            // Cancelled: the refresh is over.
        }
    }

    /// The line's text when it is to be drawn: the first time, and then
    /// whenever something changed.
    private func nextText() -> String? {
        state.withLock { state -> String? in
            guard state.changed || !state.shown else { return nil }
            state.changed = false
            state.shown = true
            return Self.render(state.progress, width: width)
        }
    }

    /// The frames of the line: the first at once, then every ``delay`` when something changed.
    private struct Frames: AsyncSequence, Sendable {
        let line: ProgressLine

        struct AsyncIterator: AsyncIteratorProtocol {
            let line: ProgressLine
            var started = false

            mutating func next() async throws -> Frame? {
                if !started {
                    started = true
                    if let text = line.nextText() { return .text(text) }
                }
                while true {
                    try await line.clock.sleep(for: ProgressLine.delay)
                    if let text = line.nextText() { return .text(text) }
                }
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(line: line)
        }
    }

    /// Erases the line for now, so a note can be written; it is drawn again
    /// at the next redraw.
    func clear() {
        let shown = state.withLock { state in
            defer { state.changed = true }
            return state.shown
        }
        if shown { write("\r\u{1B}[K") }
    }

    /// Erases the line if it was drawn.
    func finish() {
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { write("\r\u{1B}[K") }
    }

    /// The text of the line: each resource's pages, items, retry and
    /// slowness, cut to `width`.
    static func render(_ entries: [Entry], width: Int) -> String {
        let parts = entries.map { entry -> String in
            let progress = entry.progress
            let pages = progress.pages == 1 ? "1 page" : "\(progress.pages) pages"
            let items = progress.items == 1 ? "1 item" : "\(progress.items) items"
            let retry =
                progress.retry.map {
                    $0.rateLimitedUntil == nil
                        ? ", retrying (attempt \($0.attempt) of \($0.maxAttempts))" : ", \($0.sentence)"
                } ?? ""
            let slow = entry.slow ? ", \(ResourceMachine.slowMessage)" : ""
            return "\(progress.resource): \(pages), \(items)\(retry)\(slow)"
        }
        let text = "syncing… " + (parts.isEmpty ? "waiting for the first page" : parts.joined(separator: "; "))
        return text.count > width ? String(text.prefix(max(1, width - 1))) + "…" : text
    }
}
