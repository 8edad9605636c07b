import Logging
import Streams
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Tells whether the machine is online (docs/configuration.md#connectivity),
/// combining what requests find (a connectivity error), what the kernel says
/// (link and route changes, the default route) and a cheap probe (a TCP
/// connect) with backoff while offline. The rules are ``ConnectivityMachine``'s.
///
/// ``online`` is the gate the engine pauses polls and retries with.
///
/// Thread-safety: `Sendable`; events may come from any task. The machine is
/// behind a `Mutex`, and ``online`` changes inside it, in event order.
package final class ConnectivityMonitor<C: Clock<Duration>>: Sendable {
    /// `true` while online.
    package let online = CurrentValueSubject<Bool, Never>(true)

    private struct State {
        var machine: ConnectivityMachine
        var probe: Task<Void, Never>?
        var stopped = false
        /// Values of ``online`` to publish, in order, with why the machine may be going offline.
        var pending: [(online: Bool, reason: String)] = []
        /// Whether a caller is publishing them.
        var publishing = false
    }

    private let state: Mutex<State>
    private let clock: C
    /// The probe's target as people read it.
    let probeTarget: String
    private let probe: @Sendable () async -> Bool
    private let routes: @Sendable () -> Bool
    private let logger: Logger

    /// Creates a monitor.
    ///
    /// - Parameters:
    ///   - maxProbeInterval: The longest wait between two probes.
    ///   - probeTarget: The probe's target as people read it, for the log.
    ///   - probe: Whether the probe target can be reached now.
    ///   - routes: Whether the kernel has a default route now.
    package init(
        maxProbeInterval: Duration, probeTarget: String, clock: C,
        logger: Logger, probe: @escaping @Sendable () async -> Bool,
        routes: @escaping @Sendable () -> Bool
    ) {
        state = Mutex(State(machine: ConnectivityMachine(maxProbeInterval: maxProbeInterval)))
        self.clock = clock
        self.probeTarget = probeTarget
        self.probe = probe
        self.routes = routes
        self.logger = logger
    }

    /// The gate syncs use: requests wait while offline and report connectivity errors here.
    var gate: ConnectivityGate {
        ConnectivityGate(online: online) { [weak self] error in
            self?.handle(.requestFoundOffline, reason: error.cause)
        }
    }

    /// Reads the routes, then follows the kernel's changes until cancelled.
    /// Without `kernelChanges` (a kernel that refuses rtnetlink), the routes
    /// are read again every `fallbackInterval`.
    package func run(kernelChanges: AsyncStream<Void>?, fallbackInterval: Duration = .seconds(5)) async {
        handle(.started(hasDefaultRoute: routes()), reason: "no default route")
        if let kernelChanges {
            await follow(kernelChanges)
        } else {
            var had = routes()
            while (try? await clock.sleep(for: fallbackInterval)) != nil {
                let has = routes()
                if has != had { handle(.routesChanged(hasDefaultRoute: has), reason: "the default route is gone") }
                had = has
            }
        }
        stop()
    }

    private func follow(_ kernelChanges: AsyncStream<Void>) async {
        // A link going down deletes many routes: one look per 100 ms is enough.
        do {
            for try await _ in kernelChanges.throttle(for: .milliseconds(100), clock: clock) {
                handle(.routesChanged(hasDefaultRoute: routes()), reason: "the default route is gone")
            }
        } catch {
            // Cancelled: the agent is stopping.
        }
    }

    /// Stops probing.
    func stop() {
        let probe = state.withLock { state -> Task<Void, Never>? in
            state.stopped = true
            defer { state.probe = nil }
            return state.probe
        }
        probe?.cancel()
    }

    /// Probes now (a person asked for a refresh while offline) and returns whether the machine is online.
    func probeNow() async -> Bool {
        guard !online.value else { return true }
        let reachable = await probe()
        handle(.probed(reachable: reachable), reason: "")
        return state.withLock { $0.machine.online }
    }

    /// Applies an event; `reason` says why the machine may be going offline.
    func handle(_ event: ConnectivityMachine.Event, reason: String) {
        // The machine decides under the lock; ``online`` is told after leaving
        // it, in order, by whoever finds nobody else publishing.
        let (publish, replaced) = state.withLock { state -> (Bool, Task<Void, Never>?) in
            guard !state.stopped else { return (false, nil) }
            var replaced: Task<Void, Never>?
            for action in state.machine.handle(event) {
                switch action {
                case .publish(let online):
                    state.pending.append((online, reason))
                case .probe(let delay):
                    replaced = state.probe
                    state.probe = Task.inheritingExecutor { [clock, probe] in
                        guard (try? await clock.sleep(for: delay)) != nil else { return }
                        let reachable = await probe()
                        guard !Task.isCancelled else { return }
                        self.handle(.probed(reachable: reachable), reason: "")
                    }
                }
            }
            guard !state.publishing, !state.pending.isEmpty else { return (false, replaced) }
            state.publishing = true
            return (true, replaced)
        }
        replaced?.cancel()
        if publish { publishPending() }
    }

    /// Tells ``online`` the values the machine decided, outside the lock, until none is left.
    private func publishPending() {
        while true {
            let batch = state.withLock { state -> [(online: Bool, reason: String)] in
                defer { state.pending.removeAll() }
                if state.pending.isEmpty { state.publishing = false }
                return state.pending
            }
            guard !batch.isEmpty else { return }
            for (online, reason) in batch {
                if online == self.online.value {
                    // The first look found the machine online, as assumed.
                } else if online {
                    logger.notice("online again: \(probeTarget) answers")
                } else {
                    logger.warning("offline: \(reason); polls and retries wait until \(probeTarget) answers")
                }
                self.online.send(online)
            }
        }
    }
}
