/// Whether the machine is online, as a value: the ``ConnectivityMonitor``
/// feeds it what it learns (the kernel's routes, requests that found the
/// network unreachable, probe answers) and performs the actions it returns.
///
/// - Online until a request fails with a connectivity error, or the kernel
///   drops the last default route.
/// - Offline until a probe reaches the probe target. Probes back off from
///   ``firstProbeDelay`` to the configured maximum, and go at once when the
///   kernel reports a link or route change.
///
/// The kernel's view sends the machine offline but never brings it back on
/// its own: a machine that reaches its APIs over a local network without any
/// default route is online as soon as a probe says so.
struct ConnectivityMachine: Sendable, Hashable {
    /// What the monitor learnt.
    enum Event: Sendable, Hashable {
        /// The monitor started; the kernel has (or has not) a default route.
        case started(hasDefaultRoute: Bool)
        /// The kernel reported a link or route change; the table now has (or has not) a default route.
        case routesChanged(hasDefaultRoute: Bool)
        /// A request failed with a connectivity error.
        case requestFoundOffline
        /// A probe reached the target, or did not.
        case probed(reachable: Bool)
    }

    /// What the monitor does.
    enum Action: Sendable, Hashable {
        /// Tell everyone the machine is online (or offline).
        case publish(online: Bool)
        /// Probe after this delay, replacing any probe scheduled before.
        case probe(after: Duration)
    }

    /// The wait before the first probe after a failed request, doubled after each failed probe.
    static let firstProbeDelay: Duration = .seconds(1)

    /// The longest wait between two probes.
    let maxProbeInterval: Duration
    private(set) var online = true
    private var hadDefaultRoute = true
    private var probeDelay = firstProbeDelay

    init(maxProbeInterval: Duration) {
        self.maxProbeInterval = maxProbeInterval
    }

    /// Applies `event` and returns what the monitor must do.
    mutating func handle(_ event: Event) -> [Action] {
        switch event {
        case .started(let hasDefaultRoute):
            hadDefaultRoute = hasDefaultRoute
            return hasDefaultRoute ? [.publish(online: true)] : goOffline(probeAfter: .zero)
        case .routesChanged(let hasDefaultRoute):
            defer { hadDefaultRoute = hasDefaultRoute }
            if online {
                return hadDefaultRoute && !hasDefaultRoute ? goOffline(probeAfter: .zero) : []
            }
            probeDelay = Self.firstProbeDelay
            return [.probe(after: .zero)]
        case .requestFoundOffline:
            return online ? goOffline(probeAfter: Self.firstProbeDelay) : []
        case .probed(let reachable):
            guard !online else { return [] }
            if reachable {
                online = true
                return [.publish(online: true)]
            }
            let delay = probeDelay
            probeDelay = min(probeDelay * 2, maxProbeInterval)
            return [.probe(after: min(delay, maxProbeInterval))]
        }
    }

    private mutating func goOffline(probeAfter delay: Duration) -> [Action] {
        online = false
        probeDelay = delay == .zero ? Self.firstProbeDelay : min(delay * 2, maxProbeInterval)
        return [.publish(online: false), .probe(after: delay)]
    }
}
