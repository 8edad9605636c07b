import Store
import Streams
import Synchronization

/// The syncs in flight: at most one per resource, shared by everyone who
/// asks while it runs (a poll, refreshes, a dependent resource), each told
/// whether it joined (docs/architecture.md#the-engine). Built on the
/// `InFlight` coordinator of Streams; a sync runs to completion even when
/// everyone waiting for it has left, so that what it fetched is recorded.
///
/// Thread-safety: `Sendable`; call from any task.
package final class InFlightSyncs: Sendable {
    private let inFlight = InFlight<String, SyncReport>(policy: .runToCompletion)
    private let stopping = Atomic<Bool>(false)

    package init() {}

    /// Whether the agent is stopping: no new sync starts.
    package var isStopping: Bool { stopping.load(ordering: .sequentiallyConsistent) }

    /// Runs `perform` for `name`, or joins the sync of `name` in flight, and
    /// tells whether the caller rode on a run someone else started (and
    /// stayed for its end). A caller that leaves gets a `cancelled` result.
    package func run(
        _ name: String, perform: @escaping @Sendable () async -> SyncReport
    ) async -> (report: SyncReport, joinedRun: Bool) {
        guard !isStopping else { return (Self.cancelled(name), false) }
        let outcome = await inFlight.run(name, operation: perform)
        guard case .success(var report) = outcome.result else {
            var cancelled = Self.cancelled(name)
            cancelled.result.joined = outcome.joined
            return (cancelled, false)
        }
        if outcome.joined { report.result.joined = true }
        return (report, outcome.joined)
    }

    /// Whether a sync of `name` is in flight, or was cancelled and has not ended yet.
    package func isActive(_ name: String) -> Bool {
        inFlight.isActive(name)
    }

    /// Cancels the sync of `name` in flight, if any; a newer one may start at once.
    package func cancel(_ name: String) {
        inFlight.cancel(name)
    }

    /// Stops: no sync starts from now on, and those in flight are cancelled;
    /// returns once they have ended.
    package func stop() async {
        stopping.store(true, ordering: .sequentiallyConsistent)
        await inFlight.cancelAll()
    }

    /// The result of a sync that was cancelled, or of a caller that left.
    package static func cancelled(_ name: String) -> SyncReport {
        SyncReport(SyncResult(resource: name, outcome: .cancelled, error: StoredError.cancelled(name)))
    }
}
