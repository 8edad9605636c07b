import Dispatch
import Foundation
import Logging
import ServiceLifecycle
import Store
import SyncCore

#if canImport(Glibc)
import Glibc
#endif

/// The signals an operator sends besides SIGTERM (docs/systemd.md#signals):
/// SIGUSR1 logs one line per resource, SIGHUP reloads the configuration,
/// SIGPIPE is ignored, and SIGTERM and SIGINT, which stop the agent, are
/// logged by name.
struct SignalsService<C: Clock<Duration>>: Service {
    let engine: SyncEngine<C>
    let reloader: ConfigReloader<C>
    let logger: Logger

    /// The signals it handles, by name.
    static var handled: [(Int32, String)] {
        [(SIGUSR1, "SIGUSR1"), (SIGHUP, "SIGHUP"), (SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")]
    }

    /// Takes the default action away from the signals that would otherwise kill
    /// the agent silently, before the service starts to answer them: SIGPIPE (a
    /// write to a closed socket or pipe is an error to handle), SIGHUP, SIGUSR1.
    static func prepare() {
        for number in [SIGPIPE, SIGHUP, SIGUSR1] { signal(number, SIG_IGN) }
    }

    func run() async {
        let (signals, received) = AsyncStream<String>.makeStream()
        let sources = Self.handled.map { number, name in
            // SIGTERM and SIGINT are the service group's too: it stops the
            // agent; here they are only logged.
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received.yield(name) }
            source.resume()
            return source
        }
        defer {
            for source in sources { source.cancel() }
        }
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await name in signals { await handle(name) }
            }
            // The service group sees SIGTERM on its own source, perhaps before this
            // one does: the stopping signal is still logged by name if it comes a
            // moment later.
            try? await gracefulShutdown()
            try? await Task.sleep(for: Self.lateSignal)
            received.finish()
        }
    }

    /// How long after the stop began its signal may still be logged.
    static var lateSignal: Duration { .milliseconds(200) }

    func handle(_ name: String) async {
        switch name {
        case "SIGUSR1":
            for status in engine.statuses() { logger.notice("\(Self.summary(status))") }
        case "SIGHUP":
            _ = await reloader.reload(asked: "SIGHUP")
        default:
            logger.notice("\(name): stopping")
        }
    }

    /// One resource's line for SIGUSR1: `users: idle, 1200 items, last success …, next sync …`.
    static func summary(_ status: ResourceStatus) -> String {
        var parts = ["\(status.name): \(status.state.rawValue)", "\(status.items) items"]
        if let message = status.message { parts.append(message) }
        parts.append("last success " + (status.lastSuccessAt.map(Timestamp.string(from:)) ?? "never"))
        if let next = status.nextSyncAt { parts.append("next sync " + Timestamp.string(from: next)) }
        if let error = status.lastError { parts.append("last error: " + error.message) }
        return parts.joined(separator: ", ")
    }
}
