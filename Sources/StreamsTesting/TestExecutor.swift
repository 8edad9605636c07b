import Dispatch
import Synchronization

/// A serial task executor that lets a test know when every task it started
/// has nothing left to do.
///
/// ``VirtualClock/advance(by:)`` wakes sleepers and must then wait until the
/// tasks it woke (and the tasks those wake) reach their next suspension before
/// it moves time on. On the shared global executor that can only be guessed,
/// by yielding a number of times, and on a loaded machine the guess is
/// sometimes short. On this executor every job runs on one queue in the order
/// it was enqueued, so a task that yields runs again only after everything
/// enqueued before it; when it finds nothing else queued, the tasks are
/// quiet. ``VirtualClock`` settles that way whenever it is advanced from
/// ``run(_:)``.
///
/// Tasks keep the executor as they would any task executor preference: child
/// tasks do, and the tasks `Streams` operators start do. A test's own
/// unstructured tasks must ask for it, with `Task.inheritingExecutor {}` or
/// `Task(executorPreference:)`.
///
/// ```swift
/// try await TestExecutor().run {
///     let clock = VirtualClock()
///     let consumer = Task.inheritingExecutor { await collect(sequence) }
///     await clock.advance(by: .seconds(1))   // returns once the consumer is quiet
/// }
/// ```
///
/// Thread-safety: `Sendable`; jobs run one at a time on a private queue.
public final class TestExecutor: TaskExecutor, Sendable {
    /// The executor of the innermost ``run(_:)``, inherited by the tasks it starts.
    @TaskLocal public static var current: TestExecutor?

    private let queue = DispatchQueue(label: "StreamsTesting.TestExecutor")
    /// Jobs enqueued and not yet started.
    private let waiting = Atomic<Int>(0)

    /// Creates an executor with an empty queue.
    public init() {}

    /// Enqueues `job` behind every job enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        waiting.add(1, ordering: .sequentiallyConsistent)
        queue.async {
            self.waiting.subtract(1, ordering: .sequentiallyConsistent)
            job.runSynchronously(on: self.asUnownedTaskExecutor())
        }
    }

    /// Runs `operation` on this executor, as ``current``.
    public func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async rethrows -> T {
        try await Self.$current.withValue(self) {
            try await withTaskExecutorPreference(self) { try await operation() }
        }
    }

    /// Yields until no other job waits to run, at most `limit` times: then
    /// every task on this executor is suspended on something only the test
    /// or the clock can end. Call it from a task on this executor.
    ///
    /// - Returns: Whether the tasks became quiet within the limit; a task
    ///   that keeps yielding never lets them.
    @discardableResult
    public func settle(limit: Int = 100_000) async -> Bool {
        for _ in 0..<limit {
            await Task.yield()
            if waiting.load(ordering: .sequentiallyConsistent) == 0 { return true }
        }
        return false
    }
}
