import Foundation
import Logging
import ServiceLifecycle
import Store
import Streams
import SyncCore
import Synchronization

/// Runs the agent (`run`, and `demo` against its built-in API): takes the
/// database's lock and the socket, runs the engine, the status server, the
/// connectivity monitor and systemd's notifications as one service group
/// until SIGTERM or SIGINT, then stops cleanly.
package struct AgentRunner {
    package let config: AgentConfig
    package let logger: Logger
    package let environment: [String: String]
    /// More services to run beside the agent's, given its engine (the
    /// demo's display); they are the first to stop.
    package var extraServices:
        @Sendable (SyncEngine<ContinuousClock>) -> [ServiceGroupConfiguration.ServiceConfiguration]

    /// An agent for `config`, with `extraServices` beside its own.
    package init(
        config: AgentConfig, logger: Logger, environment: [String: String],
        extraServices:
            @escaping @Sendable (SyncEngine<ContinuousClock>) -> [ServiceGroupConfiguration
            .ServiceConfiguration] = { _ in [] }
    ) {
        self.config = config
        self.logger = logger
        self.environment = environment
        self.extraServices = extraServices
    }

    /// Why the agent could not start, or stopped because something failed.
    package struct Failure: Error, CustomStringConvertible {
        /// One sentence for people; `nil` when the failure was logged already.
        package var message: String?
        /// Whether it is a passing condition of the machine, worth trying again.
        package var isTransient = false

        package var description: String { message ?? "the agent failed (see the log)" }
    }

    /// Runs until stopped; throws ``Failure`` when the agent cannot start or fails.
    package func run() async throws(Failure) {
        let config = config
        let logger = logger
        let environment = environment
        SignalsService<ContinuousClock>.prepare()
        let files = FileLimit.raise()
        logger.debug("open files", metadata: ["limit": "\(files)"])
        let agentLock: AgentLock
        do {
            agentLock = try AgentLock.acquire(database: config.database)
        } catch {
            switch error {
            case .held:
                throw Failure(message: "another agent is already running with the database \(config.database)")
            case .unusable(let message):
                throw Failure(message: message)
            }
        }
        defer { agentLock.release() }
        let server = StatusServer(
            path: config.socket, mode: config.socketMode,
            maxConnections: ConnectionLimits.cap(forFileLimit: files), logger: logger)
        do {
            try StatusServer.prepare(path: config.socket)
            if let http = config.http { try HTTPListener.prepare(http) }
        } catch {
            throw Failure(message: "\(error)")
        }
        // Agents sharing a PostgreSQL schema form a fleet: each polls the resources it leases.
        let (store, leases, rows) = try await Self.openStore(config, logger: logger)
        let notifier = SystemdNotifier(environment: environment)
        let transport = HTTPTransport()
        let clock = ContinuousClock()
        let monitor = ConnectivityMonitor(
            maxProbeInterval: config.connectivity.maxProbeInterval, probeTarget: config.probeTarget.description,
            clock: clock, logger: logger,
            probe: { [target = config.probeTarget] in await TCPProbe(target: target).reachable() },
            routes: { RouteTable.current().hasDefaultRoute })
        let heartbeat = SystemdNotifier.watchdogInterval(environment: environment).map { interval in
            SyncEngine<ContinuousClock>.Heartbeat(interval: interval) { notifier?.send("WATCHDOG=1") }
        }
        let engine = SyncEngine(
            config: config, store: store, rows: rows, transport: transport, connectivity: monitor, clock: clock,
            logger: logger, lock: RefreshLock(database: config.database), heartbeat: heartbeat, leases: leases)

        let group = GroupReference()
        let reloader = ConfigReloader(engine: engine, environment: environment, notifier: notifier, logger: logger)
        let readiness = Readiness(socketInPlace: { server.isInPlace() })
        var api = StatusAPI(control: engine)
        api.reload = { await reloader.reload(asked: "POST /v1/reload") }
        api.readiness = readiness
        // Ready once every listener listens; a listener that cannot stops the agent.
        let listening = Mutex(config.http == nil ? 1 : 2)
        let listened: @Sendable ((any Error)?) -> Void = { failure in
            if let failure {
                logger.critical("\(failure)")
                group.failed = true
                Task { await group.value?.triggerGracefulShutdown() }
                return
            }
            guard
                listening.withLock({ count in
                    count -= 1
                    return count == 0
                })
            else { return }
            notifier?.send("READY=1\nSTATUS=\(StatusLine.summary(engine.statuses()))")
        }
        let statusService: any Service
        do {
            statusService = try server.service(api: api) { failure in
                if failure == nil { readiness.socketListens() }
                listened(failure)
            }
        } catch {
            throw Failure(message: "\(error)")
        }
        let httpService = config.http.map { settings in
            // Its own pool, half the socket's: a flood of it leaves the socket and the syncs their files.
            HTTPListener(settings: settings, maxConnections: max(8, server.connections.cap / 2), logger: logger)
                .service(
                    api: api, token: { engine.configWithCurrentSecrets().http?.token }, onListening: listened)
        }
        var configuration = ServiceGroupConfiguration(
            // Services start in this order and stop in the reverse one. The
            // status events are subscribed before the server takes a client,
            // and end once the engine has stopped.
            services: [
                .init(service: StatusEventsService(api: api), serviceName: "status events"),
                .init(service: MonitorService(monitor: monitor), serviceName: "connectivity"),
                .init(service: statusService, serviceName: "status server"),
            ] + (httpService.map { [.init(service: $0, serviceName: "http listener")] } ?? []) + [
                .init(service: EngineService(engine: engine), serviceName: "engine"),
                .init(
                    service: SystemdService(notifier: notifier, engine: engine, readiness: readiness, logger: logger),
                    serviceName: "systemd"),
                .init(
                    service: SignalsService(engine: engine, reloader: reloader, logger: logger),
                    serviceName: "signals"),
                .init(
                    service: FilesWatchService(server: server, store: store, logger: logger), serviceName: "files watch"
                ),
            ] + extraServices(engine),
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger.withLevel(max(logger.logLevel, .notice)))
        // Stopped within 10 s of SIGTERM (docs/systemd.md#what-the-unit-does).
        configuration.maximumGracefulShutdownDuration = .seconds(8)
        configuration.maximumCancellationDuration = .seconds(1)
        let serviceGroup = ServiceGroup(configuration: configuration)
        group.value = serviceGroup
        logger.info(
            "started", metadata: ["resources": "\(config.resources.count)", "database": "\(config.storeDescription)"])
        var failed = false
        do {
            try await serviceGroup.run()
        } catch {
            logger.critical("stopped: \(error)")
            failed = true
        }
        server.removeSocket()
        await transport.shutdown()
        // Nothing syncs any more: a PostgreSQL store gives back the pages of an
        // empty `staging` as it closes (docs/fleet.md#staged-pages).
        await store.close()
        logger.info("stopped")
        if failed || group.failed { throw Failure(message: nil) }
    }
}

extension AgentRunner {
    /// How long the check of the database at start may take.
    static let quickCheckLimit: Duration = .seconds(3)

    /// Opens the store the configuration names and reads its resources: a
    /// PostgreSQL schema, joining its fleet, or the SQLite database, checked
    /// (``openDatabase(_:logger:)``) and opened again while a storage
    /// condition keeps it from opening (``openDatabaseWaiting(_:logger:)``).
    static func openStore(
        _ config: AgentConfig, logger: Logger
    ) async throws(Failure) -> (store: any SyncStore, fleet: (any FleetLeases)?, rows: [ResourceRow]) {
        guard case .postgres = config.store else {
            let (store, rows) = try await openDatabaseWaiting(config, logger: logger)
            return (store, nil, rows)
        }
        let opened: (store: any SyncStore, fleet: (any FleetLeases)?)
        do {
            opened = try await config.openStoreJoiningFleet(logger: logger)
        } catch {
            throw Failure(message: "Cannot open the store \(config.storeDescription): \(error.message)")
        }
        do {
            return (opened.store, opened.fleet, try await opened.store.resources())
        } catch {
            throw Failure(message: error.message)
        }
    }

    /// Opens the database and reads its resources; while a passing condition
    /// of the machine (an I/O error, a full disk, no memory left) keeps it
    /// from opening, migrating or being read, tries again after the backoff
    /// of `defaults.retry`, until it opens or the agent is stopped
    /// (docs/configuration.md#failures-and-retries). A migration is a
    /// transaction: one that failed left the file as it was. The log says so
    /// once when it starts and once when the database opens.
    static func openDatabaseWaiting(
        _ config: AgentConfig, logger: Logger
    ) async throws(Failure) -> (SQLiteStore, [ResourceRow]) {
        var failures = 0
        while true {
            let failure: Failure
            switch await openDatabaseAndRead(config, logger: logger) {
            case .success(let opened):
                if failures > 0 { logger.notice("the database \(config.database) opened") }
                return opened
            case .failure(let error):
                failure = error
            }
            guard failure.isTransient else { throw failure }
            let problem = failure.description
            failures += 1
            let delay = config.storageRetry.delay(afterAttempt: failures, unit: SystemSources.random())
            logger.log(
                level: failures == 1 ? .error : .debug,
                "\(problem); trying again in \(DurationText.format(delay)), until it opens")
            try? await Task.sleep(for: delay)
        }
    }

    /// Opens the database (``openDatabase(_:logger:)``) and reads its resources, once.
    private static func openDatabaseAndRead(
        _ config: AgentConfig, logger: Logger
    ) async -> Result<(SQLiteStore, [ResourceRow]), Failure> {
        let store: SQLiteStore
        do {
            store = try await openDatabase(config, logger: logger)
        } catch {
            return .failure(error)
        }
        do {
            return .success((store, try await store.resources()))
        } catch {
            await store.close()
            return .failure(Failure(message: error.message, isTransient: error.isTransient))
        }
    }

    /// Opens the database, checked: a corrupt one is moved aside and a new
    /// one started, or refused, as the configuration says
    /// (docs/configuration.md#a-corrupt-database).
    static func openDatabase(_ config: AgentConfig, logger: Logger) async throws(Failure) -> SQLiteStore {
        let path = config.database
        let problem: String
        do {
            let store = try SQLiteStore(path: path)
            switch store.quickCheck(within: quickCheckLimit) {
            case .sound:
                return store
            case .unchecked(let reason):
                logger.notice("the check of \(path) was skipped: \(reason)")
                return store
            case .corrupt(let finding):
                await store.close()
                problem = "The database \(path) is corrupt: \(finding)"
            }
        } catch  where error.kind == .corrupt {
            problem = error.message
        } catch {
            throw Failure(message: error.message, isTransient: error.isTransient)
        }
        // SQLite tells a read that failed with an I/O error as damage at times:
        // only damage found again is taken for it.
        guard await SQLiteStore.staysCorrupt(at: path) else {
            throw Failure(message: "\(problem), but not when checked again (an I/O error?)", isTransient: true)
        }
        guard config.corruptDatabase == .rebuild else {
            throw Failure(
                message: problem + ". The configuration says \"corruptDatabase\": \"refuse\": restore the file "
                    + "from a backup, or move it away for the agent to sync everything again.")
        }
        do {
            let aside = try SQLiteStore.moveAside(path)
            logger.error("\(problem). Moved it aside to \(aside); every resource syncs again into a new database.")
        } catch {
            throw Failure(message: error.message, isTransient: error.isTransient)
        }
        do {
            return try SQLiteStore(path: path)
        } catch {
            // The new file is opened again by the next try, checked as any other.
            throw Failure(message: error.message, isTransient: error.isTransient || error.kind == .corrupt)
        }
    }
}

/// The engine as a service: it runs until the graceful shutdown, then
/// cancels its syncs and waits for them to roll back.
private struct EngineService<C: Clock<Duration>>: Service {
    let engine: SyncEngine<C>

    package func run() async {
        await cancelWhenGracefulShutdown { await engine.run() }
    }
}

/// Keeps the status API's shared change events subscribed while the agent
/// runs (they end when the engine stops).
private struct StatusEventsService<Control: AgentControl>: Service {
    let api: StatusAPI<Control>

    func run() async {
        await cancelWhenGracefulShutdown { await api.followChanges() }
        // The events end with the engine, which stops first: wait for this
        // service's own turn, as the service group expects.
        try? await gracefulShutdown()
    }
}

/// The connectivity monitor as a service.
private struct MonitorService<C: Clock<Duration>>: Service {
    let monitor: ConnectivityMonitor<C>

    package func run() async {
        let kernelChanges: AsyncStream<Void>?
        switch RouteEvents.stream() {
        case .success(let stream): kernelChanges = stream
        case .failure: kernelChanges = nil
        }
        await cancelWhenGracefulShutdown { await monitor.run(kernelChanges: kernelChanges) }
    }
}

/// Keeps systemd's status line current and says `STOPPING=1` when the
/// graceful shutdown starts (it is the first service to hear of it), and
/// `GET /readyz` then answers 503.
///
/// The line summarizes every resource, so it is made at most once per
/// ``coalescing`` from the statuses then, however many changed meanwhile
/// (the last change is always shown); without systemd it is never made.
private struct SystemdService<C: Clock<Duration>>: Service {
    let notifier: SystemdNotifier?
    let engine: SyncEngine<C>
    /// Told when the shutdown begins, for `GET /readyz`.
    let readiness: Readiness
    let logger: Logger

    /// The shortest time between two status lines.
    static var coalescing: Duration { .seconds(1) }

    package func run() async {
        if let notifier {
            await cancelWhenGracefulShutdown { await follow(notifier) }
        } else {
            try? await gracefulShutdown()
        }
        readiness.stopping()
        logger.notice("stopping: syncs in flight are cancelled and rolled back")
        notifier?.send("STOPPING=1")
    }

    private func follow(_ notifier: SystemdNotifier) async {
        // Changes while a line waits its turn fold into one.
        let (due, mark) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        engine.observeChanges { changed in
            if changed { mark.yield() } else { mark.finish() }
        }
        var last = StatusLine.summary(engine.statuses())
        for await _ in due {
            let line = StatusLine.summary(engine.statuses())
            if line != last {
                last = line
                notifier.send("STATUS=\(line)")
            }
            try? await Task.sleep(for: Self.coalescing)
        }
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
