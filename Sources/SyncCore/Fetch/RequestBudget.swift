import Foundation
import Synchronization

/// The request budget of one scope (docs/configuration.md#rate-limits),
/// shared by every resource of that scope: requests pass
/// ``admit(maxWait:reportAfter:onWait:onLongWait:)`` in
/// turn, which holds each one until
///
/// - a rate limit the scope met has reset (``block(for:)``), or one that another
///   process of the agent met, kept in the store (``SharedRateLimits``),
/// - the configured budget (`requests` per `per`, with a `burst`) has room,
///   as a token bucket with reservations, so waiting requests queue in order,
/// - and, when the server's remaining-quota headers say the quota is nearly
///   used up, what remains is spread over the time left (``learn(_:)``).
///
/// Times are durations since the budget was made, on the engine's clock.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`, and waits happen outside it.
package final class RequestBudget: Sendable {
    /// The scope's name.
    package let scope: String
    private let budget: RateLimitSettings.Budget?
    private let elapsed: @Sendable () -> Duration
    private let sleep: @Sendable (Duration) async throws -> Void
    /// Where what the API said is kept for the other processes, and read from.
    private let shared: SharedRateLimits?

    private struct State {
        /// Tokens in the bucket at `filledAt` (may be reserved ahead of time).
        var tokens: Double
        var filledAt: Duration = .zero
        /// No request before this (a rate limit's reset).
        var blockedUntil: Duration = .zero
        /// Learned pacing: the spacing between requests, until `pacedUntil`.
        var spacing: Duration = .zero
        var pacedUntil: Duration = .zero
        var lastSlot: Duration?
        /// When the holds kept in the store were last read, and the read under way.
        var recalledAt: Duration?
        var recalling: Task<Void, Never>?
    }

    private let state: Mutex<State>

    /// Why a request waits.
    package enum Cause: Sendable, Hashable {
        /// The configured budget, or the pace set by quota headers that said little is left.
        case budget
        /// A rate limit's reset: an answer said the scope may send nothing before it
        /// (a quota at 0, a `Retry-After`), in this process or in another.
        case rateLimit
    }

    /// Below this share of its window's quota left, the agent spreads what remains.
    static let paceBelow = 0.1
    /// Without a known window size, at most this many requests left.
    static let paceBelowRequests = 10
    /// The spacing near the limit when the server tells no reset time.
    static let spacingWithoutReset: Duration = .seconds(1)
    /// How often, while requests go, the holds kept in the store are read again:
    /// what another process learned meanwhile holds here within this time.
    static let recallEvery: Duration = .seconds(1)

    /// A budget for `scope`, limited by `budget` if given, timed on `clock`; with
    /// `shared`, the rate limits met are kept in the store, and those other processes
    /// kept there hold here too.
    package init<C: Clock<Duration>>(
        scope: String, budget: RateLimitSettings.Budget?, clock: C, shared: SharedRateLimits? = nil
    ) {
        self.scope = scope
        self.budget = budget
        self.shared = shared
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleep = { try await clock.sleep(for: $0) }
        state = Mutex(State(tokens: Double(budget?.burst ?? 0)))
    }

    /// A budget of `resource`'s own, as its configuration says, timed on `clock`.
    package convenience init<C: Clock<Duration>>(_ resource: ResourceConfig, clock: C) {
        self.init(scope: resource.rateLimitScope, budget: resource.settings.rateLimit.budget, clock: clock)
    }

    /// Waits until a request may be sent, and takes its place. `onWait` is
    /// told of any wait first, and `onLongWait` too when it lasts at least
    /// `reportAfter`, with its cause. A wait longer than `maxWait` is not
    /// taken: it throws ``TooLong`` at once. The first request of the scope
    /// first reads what the store keeps for it (``SharedRateLimits``).
    package func admit(
        maxWait: Duration = .seconds(3600), reportAfter: Duration = .seconds(1),
        onWait: (Duration) -> Void = { _ in }, onLongWait: (Duration, Cause) -> Void = { _, _ in }
    ) async throws {
        await recallIfDue()
        let (wait, cause) = try reserve(within: maxWait)
        guard wait > .zero else { return }
        onWait(wait)
        if wait >= reportAfter { onLongWait(wait, cause) }
        try await sleep(wait)
    }

    /// The budget would hold a request longer than it may wait.
    package struct TooLong: Error {
        /// How long it would wait.
        package var wait: Duration
        /// Why.
        package var cause: Cause
    }

    /// How long the next request must wait; its slot is taken.
    func reserve() -> Duration {
        (try? reserve(within: nil))?.wait ?? .zero
    }

    /// How long the next request must wait, and why, its slot taken; when that is
    /// longer than `limit`, nothing is taken and ``TooLong`` is thrown.
    private func reserve(within limit: Duration?) throws(TooLong) -> (wait: Duration, cause: Cause) {
        let now = elapsed()
        let (wait, cause, taken) = state.withLock { state -> (Duration, Cause, Bool) in
            var next = state
            let cause: Cause = state.blockedUntil > now ? .rateLimit : .budget
            let wait = Self.reserve(in: &next, budget: budget, now: now)
            if let limit, wait > limit { return (wait, cause, false) }
            state = next
            return (wait, cause, true)
        }
        guard taken else { throw TooLong(wait: wait, cause: cause) }
        return (wait, cause)
    }

    /// Reads the holds the store keeps for the scope, before its first request,
    /// then at most every ``recallEvery``; requests that come meanwhile wait for
    /// the read under way. A request cancelled meanwhile ends the read (the next
    /// request reads again).
    func recallIfDue() async {
        guard let shared else { return }
        let now = elapsed()
        let read = state.withLock { state -> Task<Void, Never>? in
            if let recalling = state.recalling { return recalling }
            if let at = state.recalledAt, now - at < Self.recallEvery { return nil }
            let task = Task { [self] in
                let holds = await shared.recall(scope)
                let read = !Task.isCancelled
                let at = elapsed()
                self.state.withLock { state in
                    for hold in holds { state.blockedUntil = max(state.blockedUntil, at + hold.wait) }
                    if read { state.recalledAt = at }
                    state.recalling = nil
                }
            }
            state.recalling = task
            return task
        }
        guard let read else { return }
        await withTaskCancellationHandler {
            await read.value
        } onCancel: {
            read.cancel()
        }
    }

    /// Takes the next slot in `state` at `now` and returns how long until it comes.
    private static func reserve(in state: inout State, budget: RateLimitSettings.Budget?, now: Duration) -> Duration {
        var at = max(now, state.blockedUntil)
        if state.spacing > .zero, at < state.pacedUntil, let last = state.lastSlot {
            at = max(at, last + state.spacing)
        }
        if let budget {
            let rate = Double(budget.requests) / budget.per.seconds
            let start = max(at, state.filledAt)
            var tokens = min(Double(budget.burst), state.tokens + (start - state.filledAt).seconds * rate)
            at = start
            if tokens < 1 {
                at = start + .seconds((1 - tokens) / rate)
                tokens = 1
            }
            state.tokens = tokens - 1
            state.filledAt = at
        }
        state.lastSlot = at
        return at - now
    }

    /// A response said the scope is rate limited for `wait`: no request of the
    /// scope goes before it ends, in this process or, through the store, in another.
    package func block(for wait: Duration) {
        let until = elapsed() + wait
        state.withLock { $0.blockedUntil = max($0.blockedUntil, until) }
        shared?.keep(scope, .wait, for: wait)
    }

    /// A response told the quota left: near its end, spread what remains over
    /// the time left; with nothing left, wait for the reset.
    func learn(_ quota: QuotaHeaders) {
        guard let remaining = quota.remaining else { return }
        let now = elapsed()
        let low: Bool
        if let limit = quota.limit, limit > 0 {
            low = Double(remaining) < Double(limit) * Self.paceBelow
        } else {
            low = remaining <= Self.paceBelowRequests
        }
        if low, remaining == 0, let reset = quota.resetIn {
            // Kept outside the lock: the write is queued, never waited for here.
            shared?.keep(scope, .quota, for: reset)
        }
        state.withLock { state in
            guard low else {
                state.spacing = .zero
                return
            }
            if remaining == 0, let reset = quota.resetIn {
                state.blockedUntil = max(state.blockedUntil, now + reset)
                return
            }
            if let reset = quota.resetIn {
                state.spacing = reset / max(remaining, 1)
                state.pacedUntil = now + reset
            } else {
                state.spacing = Self.spacingWithoutReset
                state.pacedUntil = now + Self.spacingWithoutReset * max(remaining, 1) * 2
            }
        }
    }
}

extension Clock where Duration == Swift.Duration {
    /// A budget of `resource`'s own, timed on this clock. (A method of the
    /// clock, so that a clock held as `any Clock` is opened.)
    package func budget(for resource: ResourceConfig) -> RequestBudget {
        RequestBudget(resource, clock: self)
    }
}

/// The agent's request budgets, one per scope: resources that share a scope
/// (by default their URL's host) share one, whichever of them configures it
/// (the configuration refuses two different budgets in one scope).
///
/// Thread-safety: `Sendable`; the table is behind a `Mutex`.
package final class RequestBudgets: Sendable {
    private let make: @Sendable (String, RateLimitSettings.Budget?) -> RequestBudget
    private let shared: SharedRateLimits?
    /// The budget each scope's resources configure.
    private let configured: [String: RateLimitSettings.Budget]
    private let budgets = Mutex<[String: RequestBudget]>([:])

    /// Budgets for `resources`, timed on `clock`; with `shared`, what the APIs say of
    /// their rate limits is kept in the store and read from it
    /// (docs/configuration.md#across-processes).
    package convenience init<C: Clock<Duration>>(
        resources: [ResourceConfig], clock: C, shared: SharedRateLimits? = nil
    ) {
        self.init(
            make: { RequestBudget(scope: $0, budget: $1, clock: clock, shared: shared) }, resources: resources,
            shared: shared)
    }

    private init(
        make: @escaping @Sendable (String, RateLimitSettings.Budget?) -> RequestBudget, resources: [ResourceConfig],
        shared: SharedRateLimits?
    ) {
        self.make = make
        self.shared = shared
        var configured: [String: RateLimitSettings.Budget] = [:]
        for resource in resources {
            guard let budget = resource.settings.rateLimit.budget, configured[resource.rateLimitScope] == nil
            else { continue }
            configured[resource.rateLimitScope] = budget
        }
        self.configured = configured
    }

    /// The budgets of `resources` (a reloaded configuration): a scope whose
    /// configured budget is unchanged keeps its budget as it is, with what it
    /// has spent and any block until a reset.
    package func reconfigured(for resources: [ResourceConfig]) -> RequestBudgets {
        let next = RequestBudgets(make: make, resources: resources, shared: shared)
        let kept = budgets.withLock { $0 }.filter { scope, _ in configured[scope] == next.configured[scope] }
        next.budgets.withLock { $0 = kept }
        return next
    }

    /// Budgets for `resources`, timed on the continuous clock.
    package convenience init(resources: [ResourceConfig]) {
        self.init(resources: resources, clock: ContinuousClock())
    }

    /// Waits for the rate limits being kept in the store (``SharedRateLimits/finish()``):
    /// before a process ends, what it learned is there for the next one.
    package func finish() async {
        await shared?.finish()
    }

    /// The budget of `resource`'s scope.
    package func budget(for resource: ResourceConfig) -> RequestBudget {
        let scope = resource.rateLimitScope
        return budgets.withLock { budgets in
            if let budget = budgets[scope] { return budget }
            let budget = make(scope, configured[scope])
            budgets[scope] = budget
            return budget
        }
    }
}
