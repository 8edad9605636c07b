import Synchronization

/// Deadlines on one clock, served by one sleeping task: what
/// ``withSlowSignal(after:timers:onSlow:operation:)`` and
/// ``withTimeout(_:timers:operation:)`` use so that many operations at once
/// cost no task and no clock sleep each.
///
/// A scheduled action runs at its deadline unless it is cancelled first. It
/// runs on the sleeping task, so it must be short (resume a continuation,
/// cancel a task, publish an event), and an action that was running as it
/// was cancelled may still be running after `cancel` returned `false`. One
/// sleeper serves the queue, asleep until the earliest deadline; a deadline
/// earlier than it arms another (the one it replaces wakes at its own time
/// and ends), a later one arms nothing. Cancelling leaves the sleeper
/// asleep: it wakes at its deadline, runs what is due and sleeps again
/// until the earliest deadline left, if any. So many operations that start
/// and end within their deadlines cost at most the wakes of the earliest
/// deadlines, not one each.
///
/// ```
/// scheduled: a(at 5)  b(at 6)  c(at 2)      a cancelled at 4
/// sleeper:   asleep until 5 ── asleep until 2 ── c ── until 5 ── until 6 ── b
/// ```
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`, and actions and
/// sleepers start outside it.
public final class Timers: Sendable {
    /// A scheduled action, to cancel it.
    public struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Entry {
        var deadline: Duration
        var action: @Sendable () -> Void
    }

    private struct State {
        var entries: [UInt64: Entry] = [:]
        var nextID: UInt64 = 0
        /// The deadline and number of the sleeper that serves the queue.
        var armed: (deadline: Duration, sleeper: UInt64)?
        var nextSleeper: UInt64 = 0

        /// Arms a sleeper for `deadline` if none wakes before it; the sleeper to start.
        mutating func arm(_ deadline: Duration) -> (deadline: Duration, sleeper: UInt64)? {
            if let armed, armed.deadline <= deadline { return nil }
            nextSleeper += 1
            armed = (deadline, nextSleeper)
            return armed
        }
    }

    private let state = Mutex(State())
    /// The time on the clock since the queue was made.
    private let elapsed: @Sendable () -> Duration
    /// Sleeps on the clock until an elapsed time.
    private let sleep: @Sendable (Duration) async throws -> Void

    /// A queue of deadlines on `clock`.
    public init<C: Clock<Duration>>(clock: C) {
        let origin = clock.now
        elapsed = { origin.duration(to: clock.now) }
        sleep = { try await clock.sleep(until: origin.advanced(by: $0), tolerance: nil) }
    }

    /// Runs `action` once `delay` has passed on the clock, unless the token
    /// returned is cancelled before.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping @Sendable () -> Void) -> Token {
        let deadline = elapsed() + max(delay, .zero)
        let (token, sleeper) = state.withLock { state -> (Token, (deadline: Duration, sleeper: UInt64)?) in
            state.nextID += 1
            state.entries[state.nextID] = Entry(deadline: deadline, action: action)
            return (Token(id: state.nextID), state.arm(deadline))
        }
        if let sleeper { start(sleeper) }
        return token
    }

    /// Cancels the action of `token`. Returns `false` if it already ran (or is
    /// running), `true` if it never will.
    @discardableResult
    public func cancel(_ token: Token) -> Bool {
        state.withLock { $0.entries.removeValue(forKey: token.id) != nil }
    }

    /// How many actions wait for their deadline.
    public var count: Int { state.withLock { $0.entries.count } }

    private func start(_ sleeper: (deadline: Duration, sleeper: UInt64)) {
        let sleep = sleep
        Task.inheritingExecutor { [weak self] in
            guard (try? await sleep(sleeper.deadline)) != nil else { return }
            self?.wake(sleeper.sleeper)
        }
    }

    /// Sleeper `number` woke: runs what is due and arms the next deadline.
    private func wake(_ number: UInt64) {
        let now = elapsed()
        let (due, next) = state.withLock { state -> ([Entry], (deadline: Duration, sleeper: UInt64)?) in
            // A sleeper armed later for an earlier deadline serves the queue now.
            guard state.armed?.sleeper == number else { return ([], nil) }
            state.armed = nil
            var due: [(id: UInt64, entry: Entry)] = []
            var earliest: Duration?
            for (id, entry) in state.entries {
                if entry.deadline <= now {
                    due.append((id, entry))
                } else if earliest.map({ entry.deadline < $0 }) ?? true {
                    earliest = entry.deadline
                }
            }
            for (id, _) in due { state.entries[id] = nil }
            // In the order they were due, then scheduled.
            due.sort { ($0.entry.deadline, $0.id) < ($1.entry.deadline, $1.id) }
            return (due.map(\.entry), earliest.flatMap { state.arm($0) })
        }
        if let next { start(next) }
        for entry in due { entry.action() }
    }
}
