import Foundation
import Logging
import Store
import StreamsTesting
import Synchronization
import Testing

@testable import SyncCore

/// What the API said holds across processes (docs/configuration.md#across-processes):
/// a quota at 0 and a rate-limit wait that one process's budget met are kept in the
/// store, and the budget of another process over the same store waits for them before
/// its first request. Each "process" is a budget with its own `SharedRateLimits` over
/// one SQLite file, on a virtual clock; the wall-clock time is a fixed one, moved by hand.
@Suite(.timeLimit(.minutes(1))) struct SharedRateLimitsTests {
    let folder: String
    let store: SQLiteStore
    let clock = VirtualClock()
    /// The wall-clock time the processes read.
    let wallClock = WallClock()

    /// A wall-clock time moved by hand.
    final class WallClock: Sendable {
        private let time = Mutex(Date(timeIntervalSince1970: 1_795_000_000))

        func withLock<T: Sendable>(_ body: (inout Date) -> T) -> T {
            time.withLock { body(&$0) }
        }
    }

    init() throws {
        folder = NSTemporaryDirectory() + "shared-limits-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        store = try SQLiteStore(path: folder + "/state.db")
    }

    /// A process's budget of the scope `example.okta.com`, with what it shares through the store.
    func process(scope: String = "example.okta.com") -> (budget: RequestBudget, shared: SharedRateLimits) {
        let shared = SharedRateLimits(
            store: store, now: { [wallClock] in wallClock.withLock { $0 } }, logger: Logger(label: "test"))
        return (RequestBudget(scope: scope, budget: nil, clock: clock, shared: shared), shared)
    }

    /// The wait the first request of `budget` meets, as `admit` refuses it beyond `maxWait`.
    func refusedWait(_ budget: RequestBudget) async throws -> RequestBudget.TooLong {
        do {
            try await budget.admit(maxWait: .milliseconds(100))
        } catch let tooLong as RequestBudget.TooLong {
            return tooLong
        }
        Issue.record("the request went at once")
        return RequestBudget.TooLong(wait: .zero, cause: .budget)
    }

    @Test func aQuotaAtZeroHoldsTheNextProcessUntilTheReset() async throws {
        let first = process()
        // Okta's last request of the window, 3.75 s before the reset.
        first.budget.learn(QuotaHeaders(remaining: 0, limit: 600, resetIn: .milliseconds(3750)))
        await first.shared.finish()

        wallClock.withLock { $0 += 0.25 }
        let second = process()
        let refused = try await refusedWait(second.budget)

        #expect(refused.cause == .rateLimit)
        #expect(refused.wait == .milliseconds(3500))
        // Once the reset has come, the hold is over.
        wallClock.withLock { $0 += 3.5 }
        try await process().budget.admit(maxWait: .zero)
        #expect(try await store.rateLimitHolds(of: "example.okta.com", at: wallClock.withLock { $0 }).isEmpty)
    }

    @Test func aRetryAfterHoldsTheNextProcessAndAnotherScopeNot() async throws {
        let first = process()
        // A 429 with Retry-After: 30, as ResourceFetch.decision blocks the scope.
        first.budget.block(for: .seconds(30))
        await first.shared.finish()

        wallClock.withLock { $0 += 10 }
        let refused = try await refusedWait(process().budget)
        #expect(refused.cause == .rateLimit)
        #expect(refused.wait == .seconds(20))
        try await process(scope: "api.github.com").budget.admit(maxWait: .zero)
        let kept = try await store.rateLimitHolds(of: "example.okta.com", at: wallClock.withLock { $0 })
        #expect(kept.map(\.kind) == [.wait])
    }

    @Test func aRunningProcessHoldsWhatAnotherLearnedWithinASecondOfIt() async throws {
        let agent = process()
        // Its first request reads the store: nothing is kept.
        try await agent.budget.admit(maxWait: .zero)

        let refresh = process()
        refresh.budget.learn(QuotaHeaders(remaining: 0, limit: nil, resetIn: .seconds(60)))
        await refresh.shared.finish()

        // Within a second the agent does not read again...
        await clock.advance(by: .milliseconds(999))
        try await agent.budget.admit(maxWait: .zero)
        // ...then it does, and holds its requests until the reset.
        await clock.advance(by: .milliseconds(1))
        let refused = try await refusedWait(agent.budget)
        #expect(refused.wait == .seconds(60))
        #expect(refused.cause == .rateLimit)
    }

    @Test func aHoldIsWrittenOnceWhileAnswersRepeatIt() async throws {
        let first = process()
        for _ in 1...5 {
            first.budget.learn(QuotaHeaders(remaining: 0, limit: 600, resetIn: .seconds(42)))
        }
        await first.shared.finish()
        let toldAt = try await store.rateLimitHolds(of: "example.okta.com", at: wallClock.withLock { $0 }).map(\.toldAt)
        #expect(toldAt == [wallClock.withLock { $0 }])
        // The hold read back is no reason to write it again.
        let second = process()
        wallClock.withLock { $0 += 1 }
        _ = try await refusedWait(second.budget)
        second.budget.learn(QuotaHeaders(remaining: 0, limit: 600, resetIn: .seconds(41)))
        await second.shared.finish()
        let after = try await store.rateLimitHolds(of: "example.okta.com", at: wallClock.withLock { $0 })
        #expect(after.map(\.toldAt) == toldAt)
    }

    @Test func aStoredTimeFarAwayOrPastGivesABoundedWaitOrNone() {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(SharedRateLimits.duration(from: now, to: now.addingTimeInterval(1.0005)) == .milliseconds(1001))
        #expect(SharedRateLimits.duration(from: now, to: now.addingTimeInterval(-5)) == .zero)
        #expect(SharedRateLimits.duration(from: now, to: .distantFuture) == SharedRateLimits.longestKept)
    }
}
