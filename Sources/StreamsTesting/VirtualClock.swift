import Synchronization

/// A clock whose time moves only when a test says so.
///
/// Sleepers are resumed in deadline order as ``advance(by:)`` moves `now`
/// past their deadlines; ``sleeperCount`` and ``waitForSleepers(_:)`` let a
/// test wait until the code under test is asleep before moving time, so no
/// test depends on real time or scheduling luck.
///
/// ```swift
/// let clock = VirtualClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.waitForSleepers(1)
/// await clock.advance(by: .seconds(5))   // the sleeper wakes
/// ```
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
public final class VirtualClock: Clock, Sendable {
    /// An instant of virtual time: a duration since the clock was created.
    public struct Instant: InstantProtocol, Sendable, Hashable, Comparable, CustomStringConvertible {
        /// The time since the clock's start.
        public var offset: Duration

        /// Creates an instant at `offset` from the clock's start.
        public init(offset: Duration) {
            self.offset = offset
        }

        /// This instant moved by `duration`.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }

        /// Whether `lhs` is earlier than `rhs`.
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }

        /// The offset, such as `5.0 seconds`.
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var id: UInt64
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var countWaiters: [(id: UInt64, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())
    private let settleYields: Int

    /// Creates a clock at instant zero.
    ///
    /// - Parameter settleYields: How many times ``advance(by:)`` yields after
    ///   waking a sleeper, so that the tasks it woke (and the tasks they wake)
    ///   reach their next suspension before time moves on. Chains of operators
    ///   with tasks of their own need more than a single hop. Yielding is a
    ///   guess that a loaded machine can beat; advanced from
    ///   ``TestExecutor/run(_:)``, the clock waits for the tasks to be quiet
    ///   instead and this is unused.
    public init(settleYields: Int = 1000) {
        self.settleYields = settleYields
    }

    /// The current virtual instant.
    public var now: Instant { state.withLock { $0.now } }

    /// The smallest step: none, virtual time is exact.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Sleeps until `deadline`; returns at once if it has passed. Throws
    /// `CancellationError` if the task is cancelled while asleep.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, cancelled, ready) = state.withLock {
                    state -> (Bool, Bool, [CheckedContinuation<Void, Never>]) in
                    guard deadline > state.now else { return (true, false, []) }
                    // Cancelled since the check above: the handler found no sleeper to wake.
                    guard !Task.isCancelled else { return (false, true, []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (false, false, Self.takeReadyCountWaiters(&state))
                }
                // Continuations are resumed outside the lock.
                for waiter in ready { waiter.resume() }
                if resumeNow { continuation.resume() }
                if cancelled { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward by `duration`, waking each sleeper whose deadline
    /// passes, earliest first, and letting it run before moving on.
    public func advance(by duration: Duration) async {
        await advance(to: now.advanced(by: duration))
    }

    /// Moves time forward to `target` (never backward), waking sleepers in deadline order.
    public func advance(to target: Instant) async {
        while true {
            let due = state.withLock { state -> Sleeper? in
                guard
                    let index = state.sleepers.indices.min(by: {
                        state.sleepers[$0].deadline < state.sleepers[$1].deadline
                    }),
                    state.sleepers[index].deadline <= target
                else {
                    if target > state.now { state.now = target }
                    return nil
                }
                let sleeper = state.sleepers.remove(at: index)
                if sleeper.deadline > state.now { state.now = sleeper.deadline }
                return sleeper
            }
            guard let due else { break }
            due.continuation.resume()
            await letOthersRun()
        }
        await letOthersRun()
    }

    /// Waits until at least `count` tasks are asleep on this clock, or the
    /// waiting task is cancelled.
    public func waitForSleepers(_ count: Int) async {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard state.sleepers.count < count, !Task.isCancelled else { return true }
                    state.countWaiters.append((id, count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.countWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.countWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    private static func takeReadyCountWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = state.sleepers.count
        let ready = state.countWaiters.filter { $0.count <= count }.map(\.continuation)
        state.countWaiters.removeAll { $0.count <= count }
        return ready
    }

    /// Lets woken tasks reach their next suspension point: on a
    /// ``TestExecutor`` until its queue is empty, elsewhere by yielding
    /// `settleYields` times.
    private func letOthersRun() async {
        if let executor = TestExecutor.current {
            await executor.settle()
        } else {
            for _ in 0..<settleYields { await Task.yield() }
        }
    }
}
