import Foundation
import Testing

@testable import Store

/// The `changes` table: one row per record a sync inserts, updates or
/// deletes, written with the records, read after a seq, pruned from the
/// oldest (docs/schema.md#changes-the-change-feed).
@Suite struct ChangeFeedTests {
    /// Every change of the feed, as `seq op key`.
    func feed(_ store: any SyncStore, _ resource: String? = nil) async throws -> [String] {
        try await store.changes(of: resource, after: 0, limit: 1000).changes.map { "\($0.seq) \($0.op) \($0.key)" }
    }

    @Test(arguments: StoreKind.allCases) func aSnapshotSyncWritesOneChangePerRecordItInsertsUpdatesOrDeletes(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await fixture.sync("users", [("1", #"{"n":1}"#), ("2", #"{"n":2}"#), ("3", #"{"n":3}"#)])
        #expect(try await feed(store) == ["1 insert 1", "2 insert 2", "3 insert 3"])
        // 1 unchanged, 2 changed, 3 gone, 4 new.
        let changes = try await fixture.sync("users", [("1", #"{"n":1}"#), ("2", #"{"n":20}"#), ("4", #"{"n":4}"#)])
        #expect(changes == SnapshotChanges(added: 1, changed: 1, removed: 1))
        #expect(try await feed(store).dropFirst(3) == ["4 delete 3", "5 insert 4", "6 update 2"])
        // An unchanged sync adds nothing.
        try await fixture.sync("users", [("1", #"{"n":1}"#), ("2", #"{"n":20}"#), ("4", #"{"n":4}"#)])
        #expect(try await feed(store).count == 6)
        // Each change names the run that made it, which counts them.
        let runs = try await store.runs(of: "users", limit: 10)
        let second = try await store.changes(after: 3, limit: 10).changes
        #expect(Set(second.map(\.syncRun)) == [runs[1].id])
        #expect(runs[1].changes == SnapshotChanges(added: 1, changed: 1, removed: 1))
    }

    @Test(arguments: StoreKind.allCases) func aSyncThatFailsOrIsNotModifiedWritesNoChange(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await fixture.sync("users", [("1", "{}")])
        for outcome in [SyncOutcome.failed, .notModified, .cancelled] {
            let snapshot = try await store.beginSnapshot(of: "users")
            try await snapshot.stage([StagedRecord(key: "2", data: "{}")])
            try await store.record(
                FinishedSync(resource: "users", trigger: .poll, startedAt: Date(), outcome: outcome, state: .idle),
                snapshot: snapshot)
        }
        #expect(try await feed(store) == ["1 insert 1"])
    }

    @Test(arguments: StoreKind.allCases) func theRecordedSyncTellsItsSeqsAndReadersFilterByResource(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await fixture.sync("users", [("a", "{}"), ("b", "{}")])
        let snapshot = try await store.beginSnapshot(of: "groups")
        try await snapshot.stage([StagedRecord(key: "g", data: "{}")])
        let recorded = try await store.record(
            FinishedSync(resource: "groups", trigger: .poll, startedAt: Date(), outcome: .success, state: .idle),
            snapshot: snapshot)
        #expect(recorded.feed == 3...3)
        #expect(try await feed(store, "groups") == ["3 insert g"])
        let page = try await store.changes(of: "users", after: 1, limit: 10)
        #expect(page.changes.map(\.key) == ["b"])
        // No more for now: the reader of users moves past the change of groups too.
        #expect(page.next == 3)
        #expect(try await store.changes(of: "users", after: 0, limit: 1).next == 1)
        #expect(!page.missed)
        #expect(try await store.changes(after: 3, limit: 10) == ChangePage(changes: [], next: 3, missed: false))
        #expect(try await store.latestChanges(count: 2).map(\.seq) == [2, 3])
    }

    @Test(arguments: StoreKind.allCases) func pruningTakesTheOldestByAgeAndByCountAndSeqsAreNeverGivenAgain(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let day: TimeInterval = 86_400
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        try await fixture.sync("users", (1...10).map { ("\($0)", "{}") }, at: start)
        try await fixture.sync("users", (1...10).map { ("\($0)", #"{"v":2}"#) }, at: start + 3 * day)
        // Older than two days: the first sync's ten, in batches of four.
        var pruned: [Int] = []
        while true {
            let count = try await store.pruneChanges(before: start + 2 * day, keepingAtMost: 1000, batch: 4)
            pruned.append(count)
            if count < 4 { break }
        }
        #expect(pruned == [4, 4, 2])
        #expect(try await feed(store).first == "11 update 1")
        // A reader that had read up to 5 missed some; one at 10 did not.
        #expect(try await store.changes(after: 5, limit: 1).missed)
        #expect(try await !store.changes(after: 10, limit: 1).missed)
        // At most three kept.
        #expect(try await store.pruneChanges(before: start, keepingAtMost: 3) == 7)
        #expect(try await feed(store).map { $0.split(separator: " ")[0] } == ["18", "19", "20"])
        // Everything pruned: the next change is 21 all the same, and a reader at 20 missed nothing.
        #expect(try await store.pruneChanges(before: start + 10 * day, keepingAtMost: 3) == 3)
        #expect(try await !store.changes(after: 20, limit: 1).missed)
        #expect(try await store.changes(after: 19, limit: 1).missed)
        try await fixture.sync("users", [("1", "{}")], at: start + 10 * day)
        #expect(try await feed(store).first?.hasPrefix("21 ") == true)
    }
}

/// Incremental pages (docs/configuration.md#incremental-resources): merged by
/// key, deletions applied, each with its changes and the cursor after it.
@Suite struct IncrementalPageTests {
    func page(
        _ changes: [IncrementalChange], run: Int64?, next: String? = nil, since: SinceState? = nil
    ) -> IncrementalPage {
        var cursor = SyncCursor(request: "r1", since: since)
        if let next {
            cursor.walk = SyncCursor.Walk(next: next, pages: 1, sent: nil, largest: since, run: 0)
        }
        return IncrementalPage(
            resource: "users", scope: "", changes: changes, cursor: cursor, run: run, trigger: .poll,
            startedAt: Date())
    }

    @Test(arguments: StoreKind.allCases) func pagesMergeByKeyTheLastOfAKeyWinningAndDeletionsRemove(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        try await fixture.sync("users", [("1", #"{"v":1}"#), ("2", #"{"v":1}"#), ("3", #"{"v":1}"#)])
        let before = try fixture.rows("users")
        let first = try await store.applyPage(
            page(
                [
                    .upsert(StagedRecord(key: "1", data: #"{"v":1}"#)),  // unchanged: untouched
                    .upsert(StagedRecord(key: "2", data: #"{"v":2}"#)),
                    .upsert(StagedRecord(key: "4", data: #"{"v":1}"#)),
                    .upsert(StagedRecord(key: "2", data: #"{"v":3}"#)),  // the same key again: the last wins
                    .delete(key: "3"),
                    .delete(key: "9"),  // never there: nothing to delete
                ], run: nil, next: "page-2"))
        #expect(first.changes == SnapshotChanges(added: 1, changed: 1, removed: 1))
        let rows = try fixture.rows("users")
        #expect(rows.mapValues(\.0) == ["1": #"{"v":1}"#, "2": #"{"v":3}"#, "4": #"{"v":1}"#])
        #expect(rows["1"]?.1 == before["1"]?.1)
        let feed = try await store.changes(after: 3, limit: 10).changes
        #expect(feed.map { "\($0.op) \($0.key)" } == ["insert 4", "update 2", "delete 3"])
        #expect(Set(feed.map(\.syncRun)) == [first.run])
        #expect(first.feed == 4...6)
        // The cursor keeps the walk, and the run row is running (no outcome) until the sync ends.
        let cursor = try #require(try await store.cursor(of: "users"))
        #expect(cursor.walk?.next == "page-2")
        #expect(cursor.walk?.run == first.run)
        let running = try #require(try await store.runs(of: "users", limit: 1).first)
        #expect(running.isRunning && running.outcome == nil)
        #expect(running.changes == SnapshotChanges(added: 1, changed: 1, removed: 1))

        // The last page completes the walk: the cursor's since moves, the run row ends counted.
        let since = SinceState.time(ExactTime(seconds: 1_790_000_000)!)
        let last = try await store.applyPage(
            page([.upsert(StagedRecord(key: "5", data: "{}"))], run: first.run, since: since))
        #expect(last.run == first.run)
        #expect(try await store.cursor(of: "users") == SyncCursor(request: "r1", since: since))
        var sync = FinishedSync(
            resource: "users", trigger: .poll, startedAt: Date(), outcome: .success, state: .idle, pages: 2, items: 7)
        sync.since = since
        let recorded = try await store.record(sync, continuing: first.run)
        #expect(recorded.changes == SnapshotChanges(added: 2, changed: 1, removed: 1))
        #expect(recorded.itemCount == 4)
        let run = try #require(try await store.runs(of: "users", limit: 1).first)
        #expect(run.id == first.run && run.outcome == .success && run.since == since && run.counts.pages == 2)
        #expect(try await store.resource(named: "users")?.since == since)
    }

    @Test(arguments: StoreKind.allCases) func aTokenOrLinkIsKeptBesideTheTimes(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let token = SinceState.token("2150-g1AAAAFteJzLYWBgYMpgTmHgz8tPSTV0MDQy")
        var walking = page([.upsert(StagedRecord(key: "1", data: "{}"))], run: nil, next: "page-2", since: token)
        walking.cursor.walk?.sent = .token("12-g1AAAA")
        let first = try await store.applyPage(walking)
        let cursor = try #require(try await store.cursor(of: "users"))
        #expect(cursor.since == token && cursor.walk?.sent == .token("12-g1AAAA") && cursor.walk?.largest == token)
        // Until its sync is recorded, `resources` shows no token: it shows it shortened then.
        #expect(try await store.resource(named: "users")?.since == nil)
        _ = try await store.applyPage(page([], run: first.run, since: token))
        var sync = FinishedSync(
            resource: "users", trigger: .poll, startedAt: Date(), outcome: .success, state: .idle, pages: 2)
        sync.since = .token("2150-g1AAAA…")
        _ = try await store.record(sync, continuing: first.run)
        #expect(try await store.cursor(of: "users")?.since == token)
        #expect(try await store.resource(named: "users")?.since == .token("2150-g1AAAA…"))
        #expect(try await store.runs(of: "users", limit: 1).first?.since == .token("2150-g1AAAA…"))
    }
}
