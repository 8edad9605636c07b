import Synchronization

/// One run per key, shared by everyone who asks for the same key while it
/// runs, in the spirit of Go's `singleflight`: the first caller starts the
/// operation; callers that come while it runs join it; all receive the same
/// result, and each learns whether it joined.
///
/// Cancellation: a caller whose task is cancelled stops waiting at once (its
/// outcome is `CancellationError`). The run goes on while anyone still waits;
/// when the last waiter leaves, ``CancellationPolicy/cancelWhenAbandoned``
/// cancels it, ``CancellationPolicy/runToCompletion`` lets it finish.
///
/// ```
/// caller A: ──run(k)─────────────(v, joined: false)
/// caller B: ───────run(k)────────(v, joined: true)
/// operation:  ├────────────v┤          (one run)
/// ```
///
/// Thread-safety: `Sendable`; call ``run(_:operation:)`` from any task.
public final class InFlight<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// What happens to a run when every caller waiting for it has left.
    public enum CancellationPolicy: Sendable {
        /// The run is cancelled.
        case cancelWhenAbandoned
        /// The run finishes anyway (its result then goes to nobody).
        case runToCompletion
    }

    /// A caller's outcome: the run's result, and whether the caller joined a
    /// run someone else started.
    public struct Outcome: Sendable {
        /// The operation's result (or `CancellationError` for a caller that left).
        public var result: Result<Value, any Error>
        /// Whether the caller rode on a run another caller started.
        public var joined: Bool

        /// The value, or the error the run failed with.
        public func get() throws -> Value { try result.get() }
    }

    private struct Run {
        var key: Key
        var id: UInt64
        var task: Task<Void, Never>?
        var waiters: [UInt64: CheckedContinuation<Outcome, Never>] = [:]
        var joined: Set<UInt64> = []
    }

    private struct State {
        var runs: [Key: Run] = [:]
        /// Runs cancelled by ``cancel(_:)``, still ending, by run ID.
        var detached: [UInt64: Run] = [:]
        var nextID: UInt64 = 0
    }

    private enum Start {
        case none
        case new(UInt64)
        case cancelled(joined: Bool)
    }

    private let policy: CancellationPolicy
    private let state = Mutex(State())

    /// Creates a coalescer with the given policy for abandoned runs.
    public init(policy: CancellationPolicy = .cancelWhenAbandoned) {
        self.policy = policy
    }

    /// Whether a run for `key` is in flight.
    public func isRunning(_ key: Key) -> Bool {
        state.withLock { $0.runs[key] != nil }
    }

    /// Whether a run for `key` is in flight, or was cancelled by ``cancel(_:)``
    /// and has not ended yet.
    public func isActive(_ key: Key) -> Bool {
        state.withLock { state in state.runs[key] != nil || state.detached.values.contains { $0.key == key } }
    }

    /// How many callers wait for the run of `key`.
    public func waiterCount(_ key: Key) -> Int {
        state.withLock { $0.runs[key]?.waiters.count ?? 0 }
    }

    /// Runs `operation` for `key`, or joins the run in flight for it.
    public func run(_ key: Key, operation: @escaping @Sendable () async throws -> Value) async -> Outcome {
        let waiter = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                let start = state.withLock { state -> Start in
                    let joining = state.runs[key] != nil
                    if Task.isCancelled { return .cancelled(joined: joining) }
                    if joining {
                        state.runs[key]!.waiters[waiter] = continuation
                        state.runs[key]!.joined.insert(waiter)
                        return .none
                    }
                    state.nextID += 1
                    state.runs[key] = Run(key: key, id: state.nextID, waiters: [waiter: continuation])
                    return .new(state.nextID)
                }
                switch start {
                case .none:
                    break
                case .cancelled(let joined):
                    continuation.resume(returning: Outcome(result: .failure(CancellationError()), joined: joined))
                case .new(let runID):
                    let task = Task.inheritingExecutor {
                        self.complete(key, runID: runID, result: await Result(awaiting: operation))
                    }
                    let cancel = state.withLock { state -> Bool in
                        if state.runs[key]?.id == runID {
                            state.runs[key]!.task = task
                            return state.runs[key]!.waiters.isEmpty && policy == .cancelWhenAbandoned
                        }
                        // Cancelled by `cancel(_:)` before its task was known.
                        guard state.detached[runID] != nil else { return false }
                        state.detached[runID]!.task = task
                        return true
                    }
                    if cancel { task.cancel() }
                }
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
    }

    /// Cancels the run of `key`, if one is in flight, and forgets it: the next
    /// caller for `key` starts a new run at once (switching to the latest),
    /// while the callers of the cancelled run still receive its result when it
    /// ends.
    public func cancel(_ key: Key) {
        let task = state.withLock { state -> Task<Void, Never>? in
            guard let run = state.runs.removeValue(forKey: key) else { return nil }
            state.detached[run.id] = run
            return run.task
        }
        task?.cancel()
    }

    /// Cancels every run in flight and returns once they have all ended (their
    /// callers receive their results as usual): for a clean shutdown.
    public func cancelAll() async {
        let tasks = state.withLock { state -> [Task<Void, Never>] in
            for (_, run) in state.runs { state.detached[run.id] = run }
            state.runs.removeAll()
            return state.detached.values.compactMap(\.task)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// A cancelled caller stops waiting; an abandoned run may be cancelled.
    private func leave(_ key: Key, waiter: UInt64) {
        let (continuation, joined, task) = state.withLock {
            state -> (CheckedContinuation<Outcome, Never>?, Bool, Task<Void, Never>?) in
            if let continuation = state.runs[key]?.waiters.removeValue(forKey: waiter) {
                let joined = state.runs[key]!.joined.contains(waiter)
                let abandoned = state.runs[key]!.waiters.isEmpty && policy == .cancelWhenAbandoned
                return (continuation, joined, abandoned ? state.runs[key]!.task : nil)
            }
            // A run cancelled by `cancel(_:)` is ending already.
            for id in state.detached.keys {
                if let continuation = state.detached[id]!.waiters.removeValue(forKey: waiter) {
                    return (continuation, state.detached[id]!.joined.contains(waiter), nil)
                }
            }
            return (nil, false, nil)
        }
        task?.cancel()
        continuation?.resume(returning: Outcome(result: .failure(CancellationError()), joined: joined))
    }

    private func complete(_ key: Key, runID: UInt64, result: Result<Value, any Error>) {
        let run = state.withLock { state -> Run? in
            if state.runs[key]?.id == runID { return state.runs.removeValue(forKey: key) }
            return state.detached.removeValue(forKey: runID)
        }
        guard let run else { return }
        for (id, continuation) in run.waiters {
            continuation.resume(returning: Outcome(result: result, joined: run.joined.contains(id)))
        }
    }
}
