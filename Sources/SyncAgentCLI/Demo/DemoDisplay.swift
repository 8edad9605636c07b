import Foundation
import ServiceLifecycle
import Streams
import SyncAgentDaemon
import SyncCore
import Synchronization

/// The demo's live view. On a terminal: the introduction, the status table
/// and the latest events, redrawn in place four times a second. Elsewhere:
/// the introduction, then one line per event as it happens.
struct DemoDisplay: Service {
    /// How many recent events the terminal view keeps.
    static let recentCount = 12

    let engine: SyncEngine<ContinuousClock>
    let intro: [String]
    /// Subscribed when the display is made, before the engine starts, so
    /// the first syncs' events are shown.
    private let activity: SubjectIterator<SyncActivity, Never>

    init(engine: SyncEngine<ContinuousClock>, intro: [String]) {
        self.engine = engine
        self.intro = intro
        activity = engine.activity.makeAsyncIterator()
    }

    /// The introduction: where the API, the database and the socket are, and what to try.
    static func intro(upstream: String, files: DemoFiles, page: String? = nil) -> [String] {
        let database = files.shown(files.database)
        let socket = files.shown(files.socket)
        let config = files.shown(files.config)
        return [
            "sync-agent demo: the agent against a built-in API at \(upstream)",
            "  (503s, a 429 with Retry-After and a slow page come within the first minute; data changes every 15s)",
            "  files     \(files.folder)    "
                + (files.temporary
                    ? "(a temporary folder, removed when the demo stops)" : "(kept when the demo stops)"),
            "  database  \(database)    sqlite3 \(database) 'select resource, count(*) from records group by 1'",
            "  socket    \(socket)    curl --unix-socket \(socket) http://localhost/v1/status",
            "  config    \(config)    sync-agent status -c \(config)",
        ] + (page.map { ["  page      \($0)    open it in a browser; curl \($0)metrics"] } ?? []) + [
            "Ctrl-C stops the demo."
        ]
    }

    package func run() async {
        let width = Terminal.width
        let recent = Recent()
        if width == nil {
            for line in intro { Console.out(line) }
            Console.flush()
        }
        let activity = activity
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    var activity = activity
                    while let report = await activity.next() {
                        guard let text = Self.describe(report) else { continue }
                        let line =
                            "\(Self.clockTime(Date()))  \(report.resource.padding(toLength: 8, withPad: " ", startingAt: 0)) \(text)"
                        if width == nil {
                            Console.out(line)
                            Console.flush()
                        } else {
                            recent.add(line)
                        }
                    }
                }
                if let width {
                    group.addTask {
                        repeat {
                            draw(width: width, recent: recent.lines)
                        } while (try? await Task.sleep(for: .milliseconds(250))) != nil
                    }
                }
            }
        }
    }

    private func draw(width: Int, recent: [String]) {
        var text = intro.map { String($0.prefix(width)) }.joined(separator: "\n") + "\n\n"
        text += StatusCommand.render(engine.statuses(), width: width) + "\n\n"
        text += recent.map { String($0.prefix(width)) }.joined(separator: "\n")
        Terminal.redraw(text)
    }

    /// What an event says, or `nil` for page-by-page progress.
    static func describe(_ activity: SyncActivity) -> String? {
        switch activity {
        case .progress: nil
        case .retry(_, let notice): notice.logLine
        case .slow: ResourceMachine.slowMessage
        case .finished(let result):
            "\(RefreshCommand.outcomeText(result)): \(RefreshCommand.detail(result))"
        }
    }

    /// `10:00:01`, in local time.
    static func clockTime(_ date: Date) -> String {
        var time = time_t(date.timeIntervalSince1970)
        var parts = tm()
        localtime_r(&time, &parts)
        return String(format: "%02d:%02d:%02d", parts.tm_hour, parts.tm_min, parts.tm_sec)
    }
}

/// The latest event lines of the terminal view.
private final class Recent: Sendable {
    private let state = Mutex<[String]>([])

    var lines: [String] { state.withLock { $0 } }

    func add(_ line: String) {
        state.withLock { lines in
            lines.append(line)
            if lines.count > DemoDisplay.recentCount { lines.removeFirst(lines.count - DemoDisplay.recentCount) }
        }
    }
}
