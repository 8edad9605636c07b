import Synchronization

/// The live progress line of a refresh on a terminal (SPEC §2): it appears
/// only once the refresh has run for ``delay``, so quick refreshes never
/// flicker, is redrawn in place every ``delay`` while anything changed, and is
/// erased when the refresh ends, before the results are printed.
///
/// Thread-safety: `Sendable`; ``update(_:)`` may be called from any task.
final class ProgressLine<C: Clock<Duration>>: Sendable {
    /// How long a refresh runs before the line appears, and how often it is redrawn.
    static var delay: Duration { .milliseconds(100) }

    private struct State {
        var progress: [SyncProgress] = []
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

    /// Records a resource's progress; it shows at the next redraw.
    func update(_ progress: SyncProgress) {
        state.withLock { state in
            if let index = state.progress.firstIndex(where: { $0.resource == progress.resource }) {
                state.progress[index] = progress
            } else {
                state.progress.append(progress)
            }
            state.changed = true
        }
    }

    /// Draws the line every ``delay``, starting after ``delay``, until cancelled.
    func run() async {
        while (try? await clock.sleep(for: Self.delay)) != nil {
            let text = state.withLock { state -> String? in
                guard state.changed || !state.shown else { return nil }
                state.changed = false
                state.shown = true
                return Self.render(state.progress, width: width)
            }
            if let text { write("\r\u{1B}[K" + text) }
        }
    }

    /// Erases the line if it was drawn.
    func finish() {
        let shown = state.withLock { state in
            defer { state.shown = false }
            return state.shown
        }
        if shown { write("\r\u{1B}[K") }
    }

    /// The text of the line: each resource's pages and items, cut to `width`.
    static func render(_ progress: [SyncProgress], width: Int) -> String {
        let parts = progress.map { entry -> String in
            let pages = entry.pages == 1 ? "1 page" : "\(entry.pages) pages"
            let items = entry.items == 1 ? "1 item" : "\(entry.items) items"
            let retry = entry.retry.map { ", retrying (attempt \($0.attempt) of \($0.maxAttempts))" } ?? ""
            return "\(entry.resource): \(pages), \(items)\(retry)"
        }
        let text = "syncing… " + (parts.isEmpty ? "waiting for the first page" : parts.joined(separator: "; "))
        return text.count > width ? String(text.prefix(max(1, width - 1))) + "…" : text
    }
}
