import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import Store
import Synchronization

/// `sync-agent run`: the long-running agent.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the agent: keep every resource fresh until stopped.",
        discussion: """
            Syncs each resource an interval after its last successful sync (at once when \
            its data is older than that), retries what can succeed later, stops polling a \
            resource that fails for good until someone refreshes it, and waits while the \
            machine is offline. The status API listens on the configured Unix socket: \
            `sync-agent status` and `sync-agent refresh` talk to it, and so does curl.

            Under systemd (Type=notify) it sends READY=1 once the database is open and the \
            socket listens, a STATUS= line when it changes, WATCHDOG=1 when the watchdog is \
            on, and STOPPING=1 on SIGTERM. SIGTERM or SIGINT stops it within 10 seconds: \
            syncs in flight are rolled back and the socket file is removed.

            Exit codes: 0 after a clean stop; 1 fatal (another agent runs on the database, \
            the socket or database cannot be used); 78 bad configuration.

            Examples:
              sync-agent run -c config.json                 Run in the foreground.
              sync-agent run -c config.json --log-level debug
              curl --unix-socket sync-agent.sock http://localhost/v1/status
            """)

    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let config = try options.loadConfig(environment: environment)
        try await AgentRunner(config: config, logger: options.logger(defaultLevel: .info), environment: environment)
            .run()
    }
}

/// Runs the agent (`run`, and `demo` against its built-in API): takes the
/// database's lock and the socket, runs the engine, the status server, the
/// connectivity monitor and systemd's notifications as one service group
/// until SIGTERM or SIGINT, then stops cleanly.
struct AgentRunner {
    let config: AgentConfig
    let logger: Logger
    let environment: [String: String]
    /// More services to run beside the agent's, given its engine (the
    /// demo's display); they are the first to stop.
    var extraServices: @Sendable (SyncEngine<ContinuousClock>) -> [ServiceGroupConfiguration.ServiceConfiguration] = {
        _ in []
    }

    /// Runs until stopped; throws ``ExitStatus`` when the agent cannot start or fails.
    func run() async throws {
        let config = config
        let logger = logger
        let environment = environment
        let agentLock: AgentLock
        do {
            agentLock = try AgentLock.acquire(database: config.database)
        } catch .held {
            Console.error("sync-agent: another agent is already running with the database \(config.database)")
            throw ExitStatus.failure
        } catch .unusable(let message) {
            Console.error("sync-agent: \(message)")
            throw ExitStatus.failure
        }
        defer { agentLock.release() }
        let server = StatusServer(path: config.socket, mode: config.socketMode, logger: logger)
        do {
            try StatusServer.prepare(path: config.socket)
        } catch {
            Console.error("sync-agent: \(error)")
            throw ExitStatus.failure
        }
        let store = try config.openStore()
        let rows: [ResourceRow]
        do {
            rows = try await store.resources()
        } catch {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
        let notifier = SystemdNotifier(environment: environment)
        let transport = HTTPTransport()
        let clock = ContinuousClock()
        let monitor = ConnectivityMonitor(
            maxProbeInterval: config.connectivity.maxProbeInterval, probeTarget: config.probeTarget.description,
            clock: clock, logger: logger,
            probe: { [target = config.probeTarget] in await TCPProbe(target: target).reachable() })
        let heartbeat = SystemdNotifier.watchdogInterval(environment: environment).map { interval in
            SyncEngine<ContinuousClock>.Heartbeat(interval: interval) { notifier?.send("WATCHDOG=1") }
        }
        let engine = SyncEngine(
            config: config, store: store, rows: rows, transport: transport, connectivity: monitor, clock: clock,
            logger: logger, lock: RefreshLock(database: config.database), heartbeat: heartbeat)

        let group = GroupReference()
        let application: any Service
        do {
            application = try server.application(api: StatusAPI(control: engine)) { failure in
                if let failure {
                    logger.critical("\(failure)")
                    group.failed = true
                    Task { await group.value?.triggerGracefulShutdown() }
                    return
                }
                notifier?.send("READY=1\nSTATUS=\(StatusLine.summary(engine.statuses()))")
            }
        } catch {
            Console.error("sync-agent: \(error)")
            throw ExitStatus.failure
        }
        var configuration = ServiceGroupConfiguration(
            services: [
                .init(service: MonitorService(monitor: monitor), serviceName: "connectivity"),
                .init(service: application, serviceName: "status server"),
                .init(service: EngineService(engine: engine), serviceName: "engine"),
                .init(
                    service: SystemdService(notifier: notifier, engine: engine, logger: logger),
                    serviceName: "systemd"),
            ] + extraServices(engine),
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger.withLevel(max(logger.logLevel, .notice)))
        // SPEC §6: stopped within 10 s of SIGTERM.
        configuration.maximumGracefulShutdownDuration = .seconds(8)
        configuration.maximumCancellationDuration = .seconds(1)
        let serviceGroup = ServiceGroup(configuration: configuration)
        group.value = serviceGroup
        logger.info(
            "started", metadata: ["resources": "\(config.resources.count)", "database": "\(config.database)"])
        var failed = false
        do {
            try await serviceGroup.run()
        } catch {
            logger.critical("stopped: \(error)")
            failed = true
        }
        server.removeSocket()
        await transport.shutdown()
        logger.info("stopped")
        if failed || group.failed { throw ExitStatus.failure }
    }
}

/// The engine as a service: it runs until the graceful shutdown, then
/// cancels its syncs and waits for them to roll back.
private struct EngineService<C: Clock<Duration>>: Service {
    let engine: SyncEngine<C>

    func run() async {
        await cancelWhenGracefulShutdown { await engine.run() }
    }
}

/// The connectivity monitor as a service.
private struct MonitorService<C: Clock<Duration>>: Service {
    let monitor: ConnectivityMonitor<C>

    func run() async {
        let kernelChanges: AsyncStream<Void>?
        switch RouteEvents.stream() {
        case .success(let stream): kernelChanges = stream
        case .failure: kernelChanges = nil
        }
        await cancelWhenGracefulShutdown { await monitor.run(kernelChanges: kernelChanges) }
    }
}

/// Keeps systemd's status line current and says `STOPPING=1` when the
/// graceful shutdown starts (it is the first service to hear of it).
private struct SystemdService<C: Clock<Duration>>: Service {
    let notifier: SystemdNotifier?
    let engine: SyncEngine<C>
    let logger: Logger

    func run() async {
        await cancelWhenGracefulShutdown {
            var last = StatusLine.summary(engine.statuses())
            for await _ in engine.changes {
                let line = StatusLine.summary(engine.statuses())
                guard line != last else { continue }
                last = line
                notifier?.send("STATUS=\(line)")
            }
        }
        logger.notice("stopping: syncs in flight are cancelled and rolled back")
        notifier?.send("STOPPING=1")
    }
}

/// The service group, for a callback that must stop it, and whether it
/// stops because something failed.
private final class GroupReference: Sendable {
    private let group = Mutex<ServiceGroup?>(nil)
    private let failure = Mutex(false)

    var failed: Bool {
        get { failure.withLock { $0 } }
        set { failure.withLock { $0 = newValue } }
    }

    var value: ServiceGroup? {
        get { group.withLock { $0 } }
        set { group.withLock { $0 = newValue } }
    }
}

extension Logger {
    /// This logger at another level.
    func withLevel(_ level: Logger.Level) -> Logger {
        var copy = self
        copy.logLevel = level
        return copy
    }
}
