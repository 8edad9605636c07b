import Foundation
import StreamsTesting
import Synchronization
import TestServers
import Testing

@testable import Store

/// The fleet's leases (docs/fleet.md#leases): one agent per resource, a fair
/// share each, and a commit fenced by the lease's token.
@Suite(.timeLimit(.minutes(1))) struct LeaseTests {
    /// Two agents' stores on one fresh schema.
    static func twoAgents() async throws -> (PostgresStore, PostgresStore, PostgresCluster, String) {
        let cluster = try await PostgresCluster.shared()
        let schema = "lease_" + UUID().uuidString.prefix(8).lowercased()
        let location = try PostgresLocation(url: cluster.url(), schema: schema)
        return (try await PostgresStore(location), try await PostgresStore(location), cluster, schema)
    }

    @Test func agentsShareTheResourcesFairlyAndNeverHoldOneTogether() async throws {
        let (first, second, _, _) = try await Self.twoAgents()
        let a = first.joinFleet(agent: "a", leaseTime: .seconds(30))
        let b = second.joinFleet(agent: "b", leaseTime: .seconds(30))
        let names = (1...10).map { "r\($0)" }
        // Alone, the first takes everything.
        #expect(try await a.round(configured: names).gained == names.sorted())
        // A second agent finds none free; the first gives up down to its share, idle ones first.
        #expect(try await b.round(configured: names).gained == [])
        let given = try await a.round(configured: names, busy: ["r10"])
        #expect(given.lost.count == 5 && !given.lost.contains("r10") && given.agents == 2)
        #expect(a.owned.count == 5 && given.lost.allSatisfy { a.token(for: $0) == nil })
        // Given up is not released (docs/fleet.md#handovers): the second takes none
        // until a round of the first finds their syncs ended; one still busy stays.
        #expect(try await b.round(configured: names).gained == [])
        let stillBusy = try #require(given.lost.first)
        #expect(try await a.round(configured: names, busy: [stillBusy]).lost == [])
        #expect(try await b.round(configured: names).gained == given.lost.filter { $0 != stillBusy })
        #expect(try await a.owners()[stillBusy] == "a")
        _ = try await a.round(configured: names)
        #expect(try await b.round(configured: names).gained == [stillBusy])
        #expect(a.owned.isDisjoint(with: b.owned) && a.owned.union(b.owned) == Set(names))
        let owners = try await a.owners()
        #expect(owners.count == 10 && Set(owners.values) == ["a", "b"])
        // Stopping gives every lease back at once.
        await a.releaseAll()
        #expect(try await b.round(configured: names).gained.count == 5)
        #expect(b.owned == Set(names))
    }

    @Test func aRefreshWaitingForTheHolderWaitsOnTheClockItWasGiven() async throws {
        let (first, second, _, _) = try await Self.twoAgents()
        let clock = VirtualClock()
        let a = first.joinFleet(agent: "a", leaseTime: .seconds(30), clock: clock)
        let b = second.joinFleet(agent: "b", leaseTime: .seconds(30))
        #expect(try await b.round(configured: ["r1"]).gained == ["r1"])

        // The holder never syncs: the refresh looks for its run every 200 ms of
        // the virtual clock, and gives up when 10 s of it have passed.
        let finished = Mutex(false)
        let waiting = Task {
            let answer = await a.refreshByHolder(of: "r1", patience: .seconds(10))
            finished.withLock { $0 = true }
            return answer
        }
        var polls = 0
        while true {
            while clock.sleeperCount == 0, !finished.withLock({ $0 }) { await Task.yield() }
            guard clock.sleeperCount > 0 else { break }
            polls += 1
            await clock.advance(by: .milliseconds(200))
        }
        guard case .none = await waiting.value else {
            Issue.record("the refresh found a run, or took the lease")
            return
        }
        #expect(polls == 50)
        #expect(clock.now.offset == .seconds(10))
    }

    @Test func aLeaseOfAFractionOfASecondLastsThatLong() async throws {
        let (first, _, cluster, schema) = try await Self.twoAgents()
        // 1.5 s: the half second was once written as 500,000 milliseconds, a lease of 501 s.
        let a = first.joinFleet(agent: "a", leaseTime: .milliseconds(1500))
        let asked = ContinuousClock.now
        #expect(try await a.round(configured: ["users"]).gained == ["users"])
        let left = try cluster.psql(
            "SELECT round(extract(epoch FROM expires_at - now()) * 1000) FROM leases WHERE resource = 'users'",
            schema: schema
        ).trimmingCharacters(in: .whitespacesAndNewlines)
        let milliseconds = try #require(Double(left), "\(left)")
        // Taken between `asked` and now: what is left is the lease less at most that time.
        let since = asked.duration(to: .now).components
        let elapsed = Double(since.seconds) * 1000 + Double(since.attoseconds) / 1e15
        #expect(milliseconds > 1500 - elapsed - 10 && milliseconds <= 1500, "\(left) ms left, \(elapsed) ms after")
    }

    @Test func aCommitOfAnAgentWhoseLeaseMovedOnIsRefusedAndChangesNothing() async throws {
        let (first, second, cluster, schema) = try await Self.twoAgents()
        let a = first.joinFleet(agent: "a", leaseTime: .seconds(30))
        let b = second.joinFleet(agent: "b", leaseTime: .seconds(30))
        _ = try await a.round(configured: ["users"])
        let sync = FinishedSync(
            resource: "users", trigger: .poll, startedAt: Date(), outcome: .success, state: .idle, pages: 1, items: 1)
        let snapshot = try await first.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: #"{"v":1}"#)])
        try await first.record(sync, snapshot: snapshot)

        // The first agent freezes past its lease; the second takes it and commits.
        let stale = try await first.beginSnapshot(of: "users")
        try await stale.stage([StagedRecord(key: "1", data: #"{"v":"stale"}"#)])
        try cluster.psql("UPDATE leases SET expires_at = now() - interval '1 second'", schema: schema)
        #expect(try await b.round(configured: ["users"]).gained == ["users"])
        let fresh = try await second.beginSnapshot(of: "users")
        try await fresh.stage([StagedRecord(key: "1", data: #"{"v":2}"#)])
        try await second.record(sync, snapshot: fresh)

        // It wakes up: its commit is refused, by the token, and writes nothing.
        await #expect {
            try await first.record(sync, snapshot: stale)
        } throws: { error in
            (error as? StoreError)?.kind == .notOwner && "\(error)".contains("the lease moved")
        }
        await #expect(throws: StoreError.self) {
            _ = try await first.applyPage(
                IncrementalPage(
                    resource: "users", scope: "", changes: [.delete(key: "1")], cursor: SyncCursor(request: "r"),
                    run: nil, trigger: .poll, startedAt: Date()))
        }
        #expect(try await second.records(of: "users").map(\.data) == [#"{"v": 2}"#])
        #expect(try await second.runs(of: "users", limit: 10).count == 2)
        #expect(a.token(for: "users") == nil)
        await stale.discard()
    }

    @Test func aSnapshotWhoseStagedRowsWereLostIsNotAppliedAndTheSyncIsTriedAgain() async throws {
        let (store, _, cluster, schema) = try await Self.twoAgents()
        let first = try await store.beginSnapshot(of: "users")
        try await first.stage([StagedRecord(key: "1", data: "{}"), StagedRecord(key: "2", data: "{}")])
        let sync = FinishedSync(
            resource: "users", trigger: .poll, startedAt: Date(), outcome: .success, state: .idle, pages: 1, items: 2)
        try await store.record(sync, snapshot: first)
        // The server crashed while the next sync staged: its unlogged tables came back empty.
        let next = try await store.beginSnapshot(of: "users")
        try await next.stage([StagedRecord(key: "1", data: "{}")], page: 1)
        try cluster.psql("TRUNCATE snapshots, staging", schema: schema)
        try await next.stage([StagedRecord(key: "2", data: "{}")], page: 2)
        await #expect {
            try await store.record(sync, snapshot: next)
        } throws: { error in
            (error as? StoreError)?.isTransient == true && "\(error)".contains("staged snapshot is gone")
        }
        #expect(try await store.records(of: "users").map(\.key) == ["1", "2"])
        #expect(try await store.lastChangeSeq() == 2)
    }
}
