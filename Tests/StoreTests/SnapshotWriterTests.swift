import Foundation
import GRDB
import Testing

@testable import Store

@Suite(.timeLimit(minutes: 1, timesUnderSanitizer: 10)) struct SnapshotWriterTests {
    let first = Date(timeIntervalSince1970: 1_800_000_000)
    let second = Date(timeIntervalSince1970: 1_800_000_060)

    @Test(arguments: StoreKind.allCases) func firstSyncInsertsEveryRecord(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let changes = try await fixture.sync("users", [("1", #"{"id":1}"#), ("2", #"{"id":2}"#)], at: first)
        #expect(try await fixture.stagedSnapshotCount() == 0)
        #expect(changes == SnapshotChanges(added: 2, changed: 0, removed: 0))
        let rows = try fixture.rows("users")
        #expect(rows.count == 2)
        #expect(rows["1"]?.0 == #"{"id":1}"#)
        #expect(rows["1"]?.1 == "2027-01-15T08:00:00.000Z")
    }

    @Test(arguments: StoreKind.allCases) func updatedAtMovesOnlyForChangedRecords(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", #"{"v":1}"#), ("2", #"{"v":1}"#), ("3", #"{"v":1}"#)], at: first)
        let changes = try await fixture.sync(
            "users", [("1", #"{"v":1}"#), ("2", #"{"v":2}"#), ("4", #"{"v":1}"#)], at: second)
        #expect(changes == SnapshotChanges(added: 1, changed: 1, removed: 1))
        let rows = try fixture.rows("users")
        #expect(rows.keys.sorted() == ["1", "2", "4"])
        #expect(rows["1"]?.1 == Timestamp.string(from: first))
        #expect(rows["2"]?.0 == #"{"v":2}"#)
        #expect(rows["2"]?.1 == Timestamp.string(from: second))
        #expect(rows["4"]?.1 == Timestamp.string(from: second))
    }

    @Test(arguments: StoreKind.allCases) func aSyncWithoutAFinishTimeIsStampedWhenItsSnapshotIsApplied(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let before = Date()
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: "{}")])
        let recorded = try await fixture.store.record(
            FinishedSync(resource: "users", trigger: .refresh, startedAt: before, outcome: .success, state: .idle),
            snapshot: snapshot)
        #expect(recorded.finishedAt >= before && recorded.finishedAt <= Date())
        #expect(recorded.changes == SnapshotChanges(added: 1))
        let run = try #require(try await fixture.store.runs(of: "users", limit: 1).first)
        #expect(run.finishedAt.map(Timestamp.string(from:)) == Timestamp.string(from: recorded.finishedAt))
        let updatedAt = try #require(try fixture.rows("users")["1"]?.1)
        #expect(updatedAt <= Timestamp.string(from: recorded.finishedAt))
    }

    @Test(arguments: StoreKind.allCases) func resourcesDoNotTouchEachOthersRecords(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", "{}")])
        try await fixture.sync("groups", [("1", "{}"), ("2", "{}")])
        try await fixture.sync("users", [])
        #expect(try fixture.rows("users").isEmpty)
        #expect(try fixture.rows("groups").count == 2)
    }

    @Test(arguments: StoreKind.allCases) func theLastRunsOfManyResourcesAreReadAtOnceNewestFirst(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        for _ in 0..<3 { try await fixture.sync("users", [("1", "{}")]) }
        try await fixture.sync("groups", [("1", "{}")])
        let runs = try await fixture.store.runs(of: ["users", "groups", "never"], limitEach: 2)
        let users = try await fixture.store.runs(of: "users", limit: 2)
        #expect(runs["users"] == users && users.count == 2 && users[0].id > users[1].id)
        #expect(runs["groups"]?.map(\.resource) == ["groups"])
        #expect(runs["never"] == [])
        #expect(try await fixture.store.runs(of: [], limitEach: 2).isEmpty)
    }

    @Test(arguments: StoreKind.allCases) func aDuplicateKeyWithinOneSyncIsRefused(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: "{}")])
        await #expect {
            try await snapshot.stage([StagedRecord(key: "2", data: "{}"), StagedRecord(key: "1", data: "{}")])
        } throws: { error in
            (error as? StoreError)?.kind == .duplicateKey && "\(error)".contains(#"key "1""#)
        }
        await snapshot.discard()
        // Twice in one page.
        let another = try await fixture.store.beginSnapshot(of: "users")
        await #expect {
            try await another.stage([StagedRecord(key: "3", data: "{}"), StagedRecord(key: "3", data: "[]")])
        } throws: { error in
            (error as? StoreError)?.kind == .duplicateKey && "\(error)".contains(#"key "3""#)
        }
        await another.discard()
    }

    @Test(arguments: StoreKind.allCases) func aFailedSyncLeavesThePreviousSnapshotAndRecordsTheError(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", #"{"v":1}"#)], at: first)
        let before = try fixture.rows("users")
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: #"{"v":2}"#), StagedRecord(key: "9", data: "{}")])
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .refresh, startedAt: second, finishedAt: second, outcome: .failed,
                state: .failed, pages: 1, items: 2,
                error: StoredError(kind: .transient, message: "users: GET … failed: boom", status: 503)),
            snapshot: snapshot)
        let after = try fixture.rows("users")
        #expect(after.mapValues { "\($0.0)|\($0.1)" } == before.mapValues { "\($0.0)|\($0.1)" })
        let resource = try #require(try await fixture.store.resource(named: "users"))
        #expect(resource.state == .failed)
        #expect(resource.lastError == StoredError(kind: .transient, message: "users: GET … failed: boom", status: 503))
        #expect(resource.lastSuccessAt == first)
        #expect(resource.itemCount == 1)
        // What was staged is gone with the discarded snapshot.
        #expect(try await fixture.stagedSnapshotCount() == 0)
    }

    @Test(arguments: StoreKind.allCases) func aSuccessClearsTheLastErrorAndKeepsTheValidators(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", "{}")], validators: Validators(etag: "\"a\"", lastModified: "then"))
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: first, finishedAt: first, outcome: .failed,
                state: .failed, error: StoredError(kind: .unrecoverable, message: "bad")))
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: second, finishedAt: second, outcome: .notModified,
                state: .idle))
        let resource = try #require(try await fixture.store.resource(named: "users"))
        #expect(resource.lastError == nil)
        #expect(resource.state == .idle)
        #expect(resource.validators == Validators(etag: "\"a\"", lastModified: "then"))
        #expect(resource.lastSuccessAt == second)
        #expect(resource.itemCount == 1)
    }

    @Test(arguments: StoreKind.allCases) func aFullSyncReplacesTheValidatorsEvenWithNone(_ kind: StoreKind) async throws
    {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", "{}")], validators: Validators(etag: "\"a\""))
        try await fixture.sync("users", [("1", "{}")], validators: Validators())
        #expect(try await fixture.store.resource(named: "users")?.validators == Validators())
    }

    @Test(arguments: StoreKind.allCases) func historyReadsTheNewestRunsFirst(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        for index in 0..<5 {
            try await fixture.store.record(
                FinishedSync(
                    resource: "users", trigger: .poll, startedAt: first,
                    finishedAt: first.addingTimeInterval(Double(index)), outcome: .notModified, state: .idle))
        }
        let runs = try await fixture.store.runs(of: "users", limit: 3)
        #expect(runs.map(\.id) == [5, 4, 3])
        #expect(try await fixture.store.latestRunID(of: "users") == 5)
        #expect(try await fixture.store.run(of: "users", finishedSince: first.addingTimeInterval(3.5))?.id == 5)
        #expect(try await fixture.store.run(of: "users", finishedSince: first.addingTimeInterval(4.5)) == nil)
    }

    @Test func givingMemoryBackLeavesTheStoreWorkingWithItsCachedStatements() async throws {
        let fixture = try StoreFixture()
        try await fixture.sync("users", [("1", "{}")], validators: Validators(etag: "\"a\""))
        await fixture.store.releaseMemory()
        // The readers reopen, the writer compiles its statements again.
        #expect(try await fixture.store.records(of: "users").map(\.key) == ["1"])
        let changes = try await fixture.sync("users", [("1", "{}"), ("2", "{}")])
        #expect(changes == SnapshotChanges(added: 1, changed: 0, removed: 0))
        #expect(try await fixture.store.runs(of: "users", limit: 5).count == 2)
    }

    @Test(arguments: StoreKind.allCases) func historyKeepsOnlyTheNewestRunsOfEachResource(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let kept = SyncRunRow.keptPerResource
        for _ in 0..<(kept + 3) {
            try await fixture.store.record(
                FinishedSync(resource: "users", trigger: .poll, startedAt: first, outcome: .notModified, state: .idle))
        }
        try await fixture.store.record(
            FinishedSync(resource: "groups", trigger: .poll, startedAt: first, outcome: .notModified, state: .idle))
        #expect(
            try fixture.query("SELECT count(*), min(id) FROM sync_runs WHERE resource = 'users'") == "\(kept)\t4\n")
        #expect(try fixture.query("SELECT count(*) FROM sync_runs WHERE resource = 'groups'") == "1\n")
    }

    @Test(arguments: StoreKind.allCases) func aCancelledTaskStillRecordsAFailureAndDropsItsSnapshot(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", #"{"v":1}"#)], at: first)
        let second = second
        try await Task {
            let snapshot = try await fixture.store.beginSnapshot(of: "users")
            try await snapshot.stage([StagedRecord(key: "1", data: #"{"v":2}"#)])
            withUnsafeCurrentTask { $0?.cancel() }
            try await fixture.store.record(
                FinishedSync(
                    resource: "users", trigger: .poll, startedAt: second, outcome: .failed, state: .failed,
                    error: StoredError(kind: .transient, message: "boom")),
                snapshot: snapshot)
        }.value
        #expect(try await fixture.store.resource(named: "users")?.state == .failed)
        #expect(try await fixture.stagedSnapshotCount() == 0)
        #expect(try fixture.rows("users")["1"]?.0 == #"{"v":1}"#)
    }

    @Test(arguments: StoreKind.allCases) func applyingASnapshotInACancelledTaskChangesNothingAndDiscardStillDrops(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.sync("users", [("1", #"{"v":1}"#)], at: first)
        let second = second
        let kind = try await Task { () async throws -> StoreError.Kind? in
            let snapshot = try await fixture.store.beginSnapshot(of: "users")
            try await snapshot.stage([StagedRecord(key: "1", data: #"{"v":2}"#)])
            withUnsafeCurrentTask { $0?.cancel() }
            do {
                try await fixture.store.record(
                    FinishedSync(resource: "users", trigger: .poll, startedAt: second, outcome: .success, state: .idle),
                    snapshot: snapshot)
                return nil
            } catch {
                await snapshot.discard()
                return (error as? StoreError)?.kind
            }
        }.value
        #expect(kind == .cancelled)
        #expect(try fixture.rows("users")["1"]?.0 == #"{"v":1}"#)
        #expect(try await fixture.store.runs(of: "users", limit: 10).count == 1)
        #expect(try await fixture.stagedSnapshotCount() == 0)
    }

    @Test(arguments: StoreKind.allCases) func aCancelledSyncTouchesOnlyTheAttemptTime(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        try await fixture.store.record(
            FinishedSync(
                resource: "users", trigger: .poll, startedAt: first, outcome: .failed, state: .failed,
                error: StoredError(kind: .unrecoverable, message: "bad")))
        try await fixture.store.record(
            FinishedSync(resource: "users", trigger: .poll, startedAt: second, outcome: .cancelled, state: .idle))
        let resource = try #require(try await fixture.store.resource(named: "users"))
        #expect(resource.state == .failed)
        #expect(resource.lastError?.message == "bad")
        #expect(resource.lastAttemptAt == second)
    }

    @Test func stagingDoesNotWaitForAnotherWriter() async throws {
        let fixture = try StoreFixture()
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: fixture.sqlite.path, configuration: configuration)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        // The other writer holds its lock until the end: staging that needed
        // it would fail with SQLITE_BUSY once busy_timeout ran out.
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: "{}")])
        await snapshot.discard()
        try other.inDatabase { try $0.execute(sql: "ROLLBACK") }
    }

    @Test func aReadOnlyStoreReadsWithoutWriting() async throws {
        let fixture = try StoreFixture()
        try await fixture.sync("users", [("1", "{}")], validators: Validators(etag: "\"e\"", scope: "abc"))
        let reader = try SQLiteStore(path: fixture.sqlite.path, mode: .readOnly)
        let row = try #require(try await reader.resource(named: "users"))
        #expect(row.validators == Validators(etag: "\"e\"", scope: "abc"))
        await #expect(throws: StoreError.self) {
            try await reader.record(
                FinishedSync(resource: "users", trigger: .poll, startedAt: first, outcome: .notModified, state: .idle))
        }
        #expect(throws: StoreError.self) { try SQLiteStore(path: fixture.folder + "/none.db", mode: .readOnly) }
    }

    @Test(arguments: StoreKind.allCases) func stagesManyPagesIntoOneSnapshotAndDropsThem(_ kind: StoreKind) async throws
    {
        let fixture = try await StoreFixture(kind)
        let snapshot = try await fixture.store.beginSnapshot(of: "big")
        let payload = String(repeating: "x", count: 200)
        for page in 0..<200 {
            try await snapshot.stage((0..<1000).map { StagedRecord(key: "\(page)-\($0)", data: "\"\(payload)\"") })
        }
        #expect(snapshot.stagedCount == 200_000)
        #expect(try await fixture.stagedSnapshotCount() == 1)
        await snapshot.discard()
        #expect(try await fixture.stagedSnapshotCount() == 0)
    }
}

/// Keys and JSON with the characters a bulk load must escape (tabs, line
/// breaks, backslashes, quotes) come back as they were staged.
@Suite struct StagedTextTests {
    @Test(arguments: StoreKind.allCases) func escapedCharactersSurviveStaging(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let records = [
            StagedRecord(key: "tab\there", data: #"{"s":"a\tb\nc \\ \"q\" é ✓"}"#),
            StagedRecord(key: "line\nbreak\\slash\r", data: "{\n\t\"pretty\": [1, 2],\r\n \"x\": null\n}"),
            StagedRecord(key: "plain", data: "[]"),
        ]
        try await fixture.sync("users", records.map { ($0.key, $0.data) })
        let stored = try await fixture.store.records(of: "users")
        #expect(Set(stored.map(\.key)) == Set(records.map(\.key)))
        for record in records {
            let back = try #require(stored.first { $0.key == record.key })
            let expected = try JSONSerialization.jsonObject(with: Data(record.data.utf8), options: .fragmentsAllowed)
            let actual = try JSONSerialization.jsonObject(with: Data(back.data.utf8), options: .fragmentsAllowed)
            #expect((expected as? NSObject)?.isEqual(actual) == true, "\(record.key): \(back.data)")
        }
    }
}

/// A snapshot whose pages answered 304 in part: the unchanged pages' records
/// stay as the previous snapshot has them, and every page's validators are kept.
@Suite(.timeLimit(.minutes(1))) struct PagedSnapshotTests {
    let first = Date(timeIntervalSince1970: 1_800_000_000)
    let second = Date(timeIntervalSince1970: 1_800_000_060)

    func page(_ number: Int, next: String?, items: Int, etag: String) -> StoredPage {
        StoredPage(
            number: number, request: "r\(number)", validators: Validators(etag: etag), next: next, itemCount: items)
    }

    func finished(_ resource: String, at date: Date) -> FinishedSync {
        FinishedSync(
            resource: resource, trigger: .poll, startedAt: date, finishedAt: date, outcome: .success, state: .idle)
    }

    @Test(arguments: StoreKind.allCases) func unchangedPagesKeepTheirRecordsAndChangedPagesReplaceTheirs(
        _ kind: StoreKind
    ) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let initial = try await store.beginSnapshot(of: "users")
        try await initial.stage(
            [StagedRecord(key: "1", data: #""a""#), StagedRecord(key: "2", data: #""b""#)], page: 1)
        initial.keep(page(1, next: "p2", items: 2, etag: "e1"))
        try await initial.stage(
            [StagedRecord(key: "3", data: #""c""#), StagedRecord(key: "4", data: #""d""#)], page: 2)
        initial.keep(page(2, next: nil, items: 2, etag: "e2"))
        try await store.record(finished("users", at: first), snapshot: initial)
        #expect(
            try await store.pages(of: "users") == [
                page(1, next: "p2", items: 2, etag: "e1"), page(2, next: nil, items: 2, etag: "e2"),
            ])

        // Page 1 unchanged; page 2 changed: 3 changed, 4 gone, 5 new. Key 2
        // also moved to page 2: the received copy wins over the kept one.
        let next = try await store.beginSnapshot(of: "users")
        next.keepUnchanged(page: 1)
        next.keep(page(1, next: "p2", items: 2, etag: "e1"))
        try await next.stage(
            [
                StagedRecord(key: "3", data: #""C""#), StagedRecord(key: "5", data: #""e""#),
                StagedRecord(key: "2", data: #""b""#),
            ],
            page: 2)
        next.keep(page(2, next: nil, items: 3, etag: "e2b"))
        let changes = try await store.record(finished("users", at: second), snapshot: next).changes

        #expect(changes == SnapshotChanges(added: 1, changed: 1, removed: 1))
        let rows = try fixture.rows("users")
        #expect(rows.mapValues(\.0) == ["1": #""a""#, "2": #""b""#, "3": #""C""#, "5": #""e""#])
        // Only what changed moved its time; key 2 moved pages, not data.
        #expect(rows["1"]?.1 == Timestamp.string(from: first))
        #expect(rows["2"]?.1 == Timestamp.string(from: first))
        #expect(rows["3"]?.1 == Timestamp.string(from: second))
        #expect(try fixture.query("SELECT key, page FROM records ORDER BY key") == "1\t1\n2\t2\n3\t2\n5\t2\n")
        #expect(try await store.pages(of: "users").map(\.validators.etag) == ["e1", "e2b"])
    }

    @Test(arguments: StoreKind.allCases) func recordsOfAPageThatIsNotKeptAreGone(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let store = fixture.store
        let initial = try await store.beginSnapshot(of: "users")
        try await initial.stage([StagedRecord(key: "1", data: #""a""#)], page: 1)
        try await initial.stage([StagedRecord(key: "2", data: #""b""#)], page: 2)
        try await initial.stage([StagedRecord(key: "3", data: #""c""#)], page: 3)
        try await store.record(finished("users", at: first), snapshot: initial)
        // Page 1 unchanged, page 2 received empty, page 3 no longer in the walk.
        let next = try await store.beginSnapshot(of: "users")
        next.keepUnchanged(page: 1)
        let changes = try await store.record(finished("users", at: second), snapshot: next).changes
        #expect(changes == SnapshotChanges(added: 0, changed: 0, removed: 2))
        #expect(try fixture.rows("users").mapValues(\.0) == ["1": #""a""#])
        #expect(try await store.resource(named: "users")?.itemCount == 1)
    }

    @Test(arguments: StoreKind.allCases) func aKeyReceivedTwiceIsStillADuplicate(_ kind: StoreKind) async throws {
        let fixture = try await StoreFixture(kind)
        let snapshot = try await fixture.store.beginSnapshot(of: "users")
        try await snapshot.stage([StagedRecord(key: "1", data: #""a""#)], page: 1)
        await #expect(throws: StoreError.self) {
            try await snapshot.stage([StagedRecord(key: "1", data: #""b""#)], page: 2)
        }
        await snapshot.discard()
    }
}
