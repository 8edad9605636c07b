import Foundation
import Testing

@testable import Store

/// The reads of a PostgreSQL store that walk many records.
@Suite struct PostgresStoreQueriesTests {
    @Test func aWalkOverTheRecordsReadsEachPageFromTheIndexOfTheKeys() async throws {
        let fixture = try await StoreFixture(.postgres)
        let store = fixture.store
        let keys = ["b", "B", "a", "a b", "ab", "é", "z", "10", "9", "_"]
        let snapshot = try await store.beginSnapshot(of: "orders")
        try await snapshot.stage(keys.map { StagedRecord(key: $0, data: #"{"k": "\#($0)"}"#) })
        try await store.record(
            FinishedSync(
                resource: "orders", trigger: .refresh, startedAt: Date(), outcome: .success, state: .idle, pages: 1,
                items: keys.count),
            snapshot: snapshot)
        let other = try await store.beginSnapshot(of: "users")
        try await other.stage([StagedRecord(key: "c", data: "{}")])
        try await store.record(
            FinishedSync(
                resource: "users", trigger: .refresh, startedAt: Date(), outcome: .success, state: .idle, pages: 1,
                items: 1),
            snapshot: other)

        // Pages of two, each after the last key of the one before: every record once, in the
        // order PostgreSQL gives the keys (their column's collation).
        var walked: [StagedRecord] = []
        var after: String?
        while true {
            let page = try await store.records(of: "orders", after: after, limit: 2)
            walked += page
            guard page.count == 2, let last = page.last else { break }
            after = last.key
        }
        let ordered = try fixture.query("SELECT key FROM records WHERE resource = 'orders' ORDER BY key")
        #expect(walked.map(\.key) == ordered.split(separator: "\n").map(String.init))
        #expect(Set(walked.map(\.key)) == Set(keys) && walked.count == keys.count)
        #expect(walked.allSatisfy { $0.data == #"{"k": "\#($0.key)"}"# })

        // Each page is a scan of the primary key's index, not a sort of the resource's records.
        for (after, arguments) in [(nil, "'orders', 2"), ("a", "'orders', 'a', 2")] as [(String?, String)] {
            let query = PostgresStore.recordsPage(of: "orders", after: after, limit: 2)
            let plan = try fixture.query(
                """
                SET enable_seqscan = off; SET enable_sort = off; PREPARE page AS \(query.sql);
                EXPLAIN EXECUTE page(\(arguments))
                """)
            #expect(plan.contains("Index Scan using records_pkey on records") && !plan.contains("Sort"), "\(plan)")
        }
    }
}
