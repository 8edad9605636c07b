import Foundation
import PostgresNIO
import Testing

@testable import Store

/// A call of the PostgreSQL store that is cancelled, or whose connection
/// closes under it, ends at once and leaves nothing behind
/// (docs/fleet.md#stopping-with-syncs-in-flight): how SIGTERM stops the agent
/// with syncs in flight.
@Suite(.timeLimit(minutes: 1, timesUnderSanitizer: 10)) struct PostgresCancellationTests {
    @Test func aTransactionCancelledInTheMiddleOfAStatementEndsAtOnceRolledBackAndThePoolServesTheNextCall()
        async throws
    {
        let fixture = try await StoreFixture(.postgres)
        let store = try #require(fixture.store as? PostgresStore)
        let logger = store.logger
        _ = try fixture.query("CREATE TABLE probe (n int)")
        let call = Task { () async -> Result<Void, StoreError> in
            do throws(StoreError) {
                try await store.transaction { connection in
                    try await connection.query("INSERT INTO probe VALUES (1)", logger: logger)
                    try await connection.query("SELECT pg_sleep(60)", logger: logger)
                }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        // Cancelled while the server runs the statement.
        try await Self.waitUntilRunning("SELECT pg_sleep(60)", fixture)
        let cancelled = ContinuousClock.now
        call.cancel()
        // Before the fix the call never ended: its ROLLBACK, sent on the connection the
        // cancellation had closed, was never answered (the suite's time limit ends a call
        // that never does).
        let outcome = await call.value
        #expect(ContinuousClock.now - cancelled < .seconds(5))
        guard case .failure(let error) = outcome else {
            Issue.record("the cancelled call succeeded")
            return
        }
        #expect(error.kind == .cancelled, "\(error)")
        // The server rolled back, and the next call gets a connection of the pool.
        #expect(try await store.lastChangeSeq() == 0)
        #expect(try fixture.query("SELECT count(*) FROM probe") == "0\n")
    }

    @Test func theCallAfterACancelledOneIsNeverLentTheConnectionItClosed() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = try #require(fixture.store as? PostgresStore)
        let logger = store.logger
        // As a cancelled sync then records its end: at once, in the same task, not cancellable.
        // Before the fix the cancelled call returned before the pool heard of the close, the
        // pool lent the closed connection to the next call, and its BEGIN was never answered.
        for round in 1...10 {
            // The server goes on sleeping after the client closed: each round's text is its own.
            let sleep = "SELECT pg_sleep(30) AS round\(round)"
            let call = Task { () -> (cancelled: StoreError?, next: Result<Int, StoreError>, took: Duration) in
                var cancelled: StoreError?
                do throws(StoreError) {
                    try await store.transaction { connection in
                        try await connection.query(PostgresQuery(unsafeSQL: sleep), logger: logger)
                    }
                } catch {
                    cancelled = error
                }
                let started = ContinuousClock.now
                let next: Result<Int, StoreError>
                do throws(StoreError) {
                    next = .success(
                        try await store.transaction(cancellable: false, patience: .seconds(10)) { connection in
                            var total = 0
                            for try await n in try await connection.query("SELECT 1", logger: logger)
                                .decode(Int.self)
                            {
                                total += n
                            }
                            return total
                        })
                } catch {
                    next = .failure(error)
                }
                return (cancelled, next, ContinuousClock.now - started)
            }
            try await Self.waitUntilRunning(sleep, fixture)
            call.cancel()
            let (cancelled, next, took) = await call.value
            #expect(cancelled?.kind == .cancelled, "round \(round): \(String(describing: cancelled))")
            #expect(try next.get() == 1, "round \(round)")
            #expect(took < .seconds(5), "round \(round): the next call took \(took)")
        }
    }

    @Test func theServerEndsTheStatementOfACancelledCallAndItsLocksWithIt() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = try #require(fixture.store as? PostgresStore)
        let logger = store.logger
        // The feed's lock, held by a statement that runs on after its call was cancelled:
        // before the fix the server ran it to its end, and every commit waited for it.
        let sleep = "SELECT pg_sleep(60) AS holding_the_feed"
        let call = Task {
            try await store.transaction { connection in
                try await connection.query("SELECT last_seq FROM feed_state FOR UPDATE", logger: logger)
                try await connection.query(PostgresQuery(unsafeSQL: sleep), logger: logger)
            }
        }
        try await Self.waitUntilRunning(sleep, fixture)
        call.cancel()
        _ = await call.result
        let started = ContinuousClock.now
        let seq = try await store.transaction(cancellable: false, patience: .seconds(20)) { connection in
            try await connection.value(Int64.self, "SELECT last_seq FROM feed_state FOR UPDATE", logger)
        }
        #expect(seq == 0)
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(5), "the feed's lock was held \(waited)")
        // Its backend ends as it rolls back (the lock is free first).
        let ended = ContinuousClock.now + .seconds(5)
        while try fixture.query("SELECT count(*) FROM pg_stat_activity WHERE query = '\(sleep)'") != "0\n",
            ContinuousClock.now < ended
        {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(
            try fixture.query("SELECT count(*) FROM pg_stat_activity WHERE query = '\(sleep)'") == "0\n",
            "the cancelled statement still runs")
    }

    @Test func aStatementSentOnAConnectionThatClosedDoesNotHoldTheCallPastItsPatience() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = try #require(fixture.store as? PostgresStore)
        let logger = store.logger
        let started = ContinuousClock.now
        // postgres-nio drops a statement sent on a closed connection without failing it;
        // the call ends anyway, with its patience, as a transient failure.
        await #expect(throws: StoreError.self) {
            try await store.transaction(patience: .seconds(1)) { connection in
                try await connection.close()
                try await connection.query("SELECT 1", logger: logger)
            }
        }
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(try await store.lastChangeSeq() == 0)
    }

    /// Waits (at most 30 s) until the server runs `statement`.
    static func waitUntilRunning(_ statement: String, _ fixture: StoreFixture) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while try fixture.query(
            "SELECT count(*) FROM pg_stat_activity WHERE query = '\(statement)' AND state = 'active'")
            != "1\n", ContinuousClock.now < deadline
        {
            try await Task.sleep(for: .milliseconds(10))
        }
    }
}
