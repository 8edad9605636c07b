import SyncAgentDaemon
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
        let drawing = Task { await line?.run() }
        defer { line?.finish() }
        let result: T
        do {
            result = try await refresh(RefreshReporter(line: line))
        } catch {
            drawing.cancel()
            await drawing.value
            throw error
        }
        drawing.cancel()
        await drawing.value
        return result
    }

    /// Shows what a sync reported.
    func report(_ activity: SyncActivity) {
        if let line {
            line.update(activity)
            return
        }
        switch activity {
        case .progress, .finished: break
        case .retry(let resource, let notice): Console.error("\(resource): \(notice.sentence)")
        case .slow(let resource): Console.error("\(resource): \(ResourceMachine.slowMessage)")
        }
    }

    /// Writes a note on standard error, on a line of its own.
    func note(_ text: String) {
        line?.clear()
        Console.error(text)
    }
}
