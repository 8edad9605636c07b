import Foundation
import Testing

@testable import Store

/// `rate_limit_holds` (docs/schema.md#rate_limit_holds), in both stores: what the APIs
/// said of each scope's rate limit, read back until it ends, the latest told winning,
/// ended holds forgotten at the next write.
@Suite(.timeLimit(minutes: 1, timesUnderSanitizer: 10)) struct RateLimitHoldTests {
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func hold(_ scope: String, _ kind: RateLimitHold.Kind, for seconds: Double, toldAt: Double = 0) -> RateLimitHold {
        RateLimitHold(
            scope: scope, kind: kind, until: now.addingTimeInterval(toldAt + seconds),
            toldAt: now.addingTimeInterval(toldAt))
    }

    /// The rows of the table as a reader sees them: `scope kind`, in order.
    func rows(_ fixture: StoreFixture) throws -> [String] {
        try fixture.query("SELECT scope, kind FROM rate_limit_holds ORDER BY scope, kind")
            .split(separator: "\n").map { $0.replacingOccurrences(of: "\t", with: " ") }
    }

    @Test(arguments: StoreKind.allCases) func aHoldIsReadUntilItEndsAndForgottenAtTheNextWrite(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let quota = hold("example.okta.com", .quota, for: 3.75)
        let wait = hold("example.okta.com", .wait, for: 60)
        let github = hold("api.github.com", .wait, for: 1.5)
        for kept in [quota, wait, github] { try await store.keep(kept, at: now) }

        #expect(Set(try await store.rateLimitHolds(of: "example.okta.com", at: now)) == [quota, wait])
        #expect(try await store.rateLimitHolds(of: "api.github.com", at: now) == [github])
        #expect(try await store.rateLimitHolds(of: "other.example.com", at: now).isEmpty)
        // A hold that has ended is not read...
        #expect(try await store.rateLimitHolds(of: "example.okta.com", at: now.addingTimeInterval(3.75)) == [wait])
        #expect(try await store.rateLimitHolds(of: "api.github.com", at: now.addingTimeInterval(2)).isEmpty)
        #expect(try rows(fixture).count == 3)
        // ...and the next write, of any scope, forgets it.
        try await store.keep(hold("search", .quota, for: 10, toldAt: 5), at: now.addingTimeInterval(5))
        #expect(try rows(fixture) == ["example.okta.com wait", "search quota"])
    }

    @Test(arguments: StoreKind.allCases) func theHoldToldLastWinsWhicheverEndsFirst(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await store.keep(hold("s", .wait, for: 60), at: now)
        // A later answer said less: it is what holds now.
        let later = hold("s", .wait, for: 10, toldAt: 1)
        try await store.keep(later, at: now.addingTimeInterval(1))
        #expect(try await store.rateLimitHolds(of: "s", at: now.addingTimeInterval(1)) == [later])
        // An answer told before it, written after (another process, slower), changes nothing.
        try await store.keep(hold("s", .wait, for: 100, toldAt: 0.5), at: now.addingTimeInterval(2))
        #expect(try await store.rateLimitHolds(of: "s", at: now.addingTimeInterval(2)) == [later])
        #expect(try rows(fixture) == ["s wait"])
    }
}
