import Foundation
import Logging
import Store
import Streams

/// What one resource's sync runs with: the parts the agent's syncs share (or
/// those of a standalone `refresh`), and the time and randomness they read.
/// ``ResourceSync`` and ``ResourceFetch`` get it whole in their initializers
/// and read the clock, the wall-clock time and the jitter only through it
/// (docs/architecture.md#context-in-no-hidden-clocks).
package struct SyncContext: Sendable {
    /// Where the copy is kept.
    package var store: any SyncStore
    /// Sends the requests.
    package var transport: any PageTransport
    /// Keeps secrets out of what is shown.
    package var redactor: Redactor
    package var logger: Logger
    /// The clock retries wait on.
    package var clock: any Clock<Duration>
    /// The deadlines of the requests' timeouts, on ``clock``.
    package var timers: Timers
    /// The wall-clock time, for the times that are stored and shown.
    package var now: @Sendable () -> Date
    /// Draws the jitter of retries, in `0..<1`.
    package var random: @Sendable () -> Double
    /// In the agent, the machine's connectivity (see ``ResourceFetch``);
    /// `nil` in a standalone `refresh`, where a request that finds the
    /// machine offline ends the sync as `offline`.
    package var connectivity: ConnectivityGate?
    /// The request budgets of the scopes (docs/configuration.md#rate-limits).
    package var budgets: RequestBudgets
    /// The OAuth2 access tokens the resources share.
    package var tokens: OAuth2Tokens
    /// The resources whose storage is failing, so that an episode is logged
    /// once, not at every attempt of every sync.
    package var storageEpisodes: StorageEpisodes
    /// Told of each wait of a resource for its request budget, however short.
    package var onBudgetWait: @Sendable (_ resource: String, Duration) -> Void

    /// Creates a context.
    package init(
        store: any SyncStore, transport: any PageTransport, redactor: Redactor, logger: Logger,
        clock: any Clock<Duration>, timers: Timers, now: @escaping @Sendable () -> Date,
        random: @escaping @Sendable () -> Double, connectivity: ConnectivityGate? = nil, budgets: RequestBudgets,
        tokens: OAuth2Tokens, storageEpisodes: StorageEpisodes = StorageEpisodes(),
        onBudgetWait: @escaping @Sendable (String, Duration) -> Void = { _, _ in }
    ) {
        self.store = store
        self.transport = transport
        self.redactor = redactor
        self.logger = logger
        self.clock = clock
        self.timers = timers
        self.now = now
        self.random = random
        self.connectivity = connectivity
        self.budgets = budgets
        self.tokens = tokens
        self.storageEpisodes = storageEpisodes
        self.onBudgetWait = onBudgetWait
    }
}
