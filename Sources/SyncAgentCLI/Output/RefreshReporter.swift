import Streams
import SyncCore

/// How `refresh` shows what its syncs report while it waits: on a terminal,
/// the live ``ProgressLine`` (pages, items, retries, slowness); elsewhere a
/// line on standard error for each retry and each slow sync.
///
/// Thread-safety: `Sendable`; report from any task.
struct RefreshReporter: Sendable {
    private let line: ProgressLine<ContinuousClock>?

    /// Runs `refresh` with a reporter, drawing the live line while it runs
    /// on a terminal and erasing it before returning.
    static func showing<T: Sendable>(
        _ refresh: (RefreshReporter) async throws -> T
    ) async rethrows -> T {
        let line = Terminal.standardErrorWidth.map { width in
            ProgressLine(clock: ContinuousClock(), width: width) { Console.errorText($0) }
        }
        let ended = CurrentValueSubject<Bool, Never>(false)
        let drawing = Task { await line?.run(until: ended) }
        defer { line?.finish() }
        // A refresh that ends within the delay wins the line's race: nothing is drawn.
        func stopDrawing() async {
            ended.send(true)
            drawing.cancel()
            await drawing.value
        }
        do {
            let result = try await refresh(RefreshReporter(line: line))
            await stopDrawing()
            return result
        } catch {
            await stopDrawing()
            throw error
        }
    }

    /// Shows what a sync reported.
    func report(_ activity: SyncActivity) {
        if let line {
            line.update(activity)
            return
        }
        switch activity {
        case .progress, .finished: break
        case .retry(let resource, let notice): Console.error("\(resource): \(notice.logLine)")
        case .slow(let resource): Console.error("\(resource): \(ResourceMachine.slowMessage)")
        }
    }

    /// Writes a note on standard error, on a line of its own.
    func note(_ text: String) {
        line?.clear()
        Console.error(text)
    }
}
