import Foundation
import Logging
import Store
import Streams
import Synchronization

/// What APIs said of each budget scope's rate limit, shared through the store with
/// every other process of the agent (docs/configuration.md#across-processes): a quota
/// at 0 until its reset, and a rate-limit wait, so that a `refresh` in another
/// process, a restarted agent or another agent of a fleet waits for them instead of
/// asking.
///
/// ``RequestBudget`` recalls a scope's holds before its first request and, while its
/// requests go, at most every ``RequestBudget/recallEvery``; it keeps a hold when an
/// answer tells one. Writes go in order in the background, so that no request waits
/// for one; ``finish()`` waits for those under way, before a process ends.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
package final class SharedRateLimits: Sendable {
    private let store: any SyncStore
    private let now: @Sendable () -> Date
    private let logger: Logger

    private struct Key: Hashable {
        var scope: String
        var kind: RateLimitHold.Kind
    }

    private struct State {
        /// The last write queued: each waits for the one before.
        var lastWrite: Task<Void, Never>?
        /// The latest end this process kept or read, by scope and kind: a hold that
        /// ends no later is not written again.
        var known: [Key: Date] = [:]
        /// The scopes whose holds could not be read, told once until they can.
        var unreadable: Set<String> = []
    }

    private let state = Mutex(State())

    /// The longest hold kept: a week. A wait an API asks for is bounded before it
    /// comes here; this bound keeps a time far in the future out of the store.
    static let longestKept: Duration = .seconds(7 * 86_400)

    /// Holds kept in `store`, timed by the wall clock `now`.
    package init(store: any SyncStore, now: @escaping @Sendable () -> Date, logger: Logger) {
        self.store = store
        self.now = now
        self.logger = logger
    }

    /// What still holds for `scope`: how long each kind of hold lasts from now. A
    /// store that cannot be read holds nothing (the API then says it again).
    func recall(_ scope: String) async -> [(kind: RateLimitHold.Kind, wait: Duration)] {
        let now = now()
        let holds: [RateLimitHold]
        do {
            holds = try await store.rateLimitHolds(of: scope, at: now)
        } catch {
            guard error.kind != .cancelled, !Task.isCancelled else { return [] }
            let first = state.withLock { $0.unreadable.insert(scope).inserted }
            if first {
                logger.warning("cannot read the rate limits kept for \(scope): \(error.message)")
            }
            return []
        }
        state.withLock { state in
            state.unreadable.remove(scope)
            for hold in holds {
                let key = Key(scope: scope, kind: hold.kind)
                state.known[key] = max(state.known[key] ?? .distantPast, hold.until)
            }
        }
        return holds.map { ($0.kind, Self.duration(from: now, to: $0.until)) }
    }

    /// Keeps that `scope` holds for `wait` from now, as `kind` says, unless a hold of
    /// that kind known to end as late or later is there already.
    func keep(_ scope: String, _ kind: RateLimitHold.Kind, for wait: Duration) {
        guard wait > .zero else { return }
        let now = now()
        let until = now.addingTimeInterval(min(wait, Self.longestKept).seconds)
        let hold = RateLimitHold(scope: scope, kind: kind, until: until, toldAt: now)
        let (store, logger) = (store, logger)
        state.withLock { state in
            let key = Key(scope: scope, kind: kind)
            guard until > state.known[key] ?? .distantPast else { return }
            state.known[key] = until
            let previous = state.lastWrite
            state.lastWrite = Task {
                await previous?.value
                do {
                    try await store.keep(hold, at: now)
                } catch {
                    logger.warning("cannot keep the rate limit of \(scope) for other processes: \(error)")
                }
            }
        }
    }

    /// Waits for the holds being written: what this process learned is in the store
    /// once it returns.
    package func finish() async {
        await state.withLock { $0.lastWrite }?.value
    }

    /// The time from `start` to `end`, none when `end` is past, at most ``longestKept``:
    /// a checked conversion of what the store holds.
    static func duration(from start: Date, to end: Date) -> Duration {
        let seconds = end.timeIntervalSince(start)
        guard seconds.isFinite, seconds > 0 else { return .zero }
        let milliseconds = (min(seconds, longestKept.seconds) * 1000).rounded(.up)
        return Int64(exactly: milliseconds).map { .milliseconds($0) } ?? longestKept
    }
}
