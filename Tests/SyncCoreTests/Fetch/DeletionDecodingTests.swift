import Foundation
import Testing

@testable import SyncCore

/// How a page's items become records, and which of them say that their record
/// is deleted (docs/configuration.md#deletions).
@Suite struct DeletionDecodingTests {
    static let incremental = IncrementalSettings(
        source: .field(JSONPointer(tokens: ["updated_at"])), placement: .query("since"), format: .iso8601)

    func decoder(_ deleted: DeletedRule?, items: String = "/value") throws -> PageDecoder {
        PageDecoder(items: try JSONPointer(items), key: try JSONPointer("/id"), deleted: deleted)
    }

    func decode(
        _ body: String, _ deleted: DeletedRule?, incremental: IncrementalSettings? = Self.incremental
    ) throws -> PageDecoder.Decoded {
        try decoder(deleted).decode(Array(body.utf8), incremental: incremental)
    }

    func deletions(_ decoded: PageDecoder.Decoded) -> [String] {
        decoded.changes.compactMap {
            guard case .delete(let key) = $0 else { return nil }
            return key
        }
    }

    @Test func theMerePresenceOfAMemberMarksADeletionWhateverItHolds() throws {
        // Microsoft Graph's delta: {"id", "@removed": {"reason": "deleted" | "changed"}}.
        let rule = DeletedRule(pointer: try JSONPointer("/@removed"), match: .present)
        let decoded = try decode(
            #"""
            {"value": [{"id": "a", "displayName": "Ada"}, {"id": "b", "@removed": {"reason": "deleted"}},
                       {"id": "c", "@removed": null}, {"id": "d", "@removed": false}, {"id": "e", "removed": true}]}
            """#, rule)
        #expect(deletions(decoded) == ["b", "c", "d"])
        #expect(decoded.records.map(\.key) == ["a", "e"])
        #expect(decoded.itemCount == 5)
    }

    @Test func anyOfSeveralValuesMarksADeletion() throws {
        let rule = DeletedRule(
            pointer: try JSONPointer("/status"), match: .equals([.string("deleted"), .string("removed")]))
        let decoded = try decode(
            #"""
            {"value": [{"id": 1, "status": "open"}, {"id": 2, "status": "removed"}, {"id": 3, "status": "deleted"},
                       {"id": 4, "status": "Deleted"}, {"id": 5}]}
            """#, rule)
        #expect(deletions(decoded) == ["2", "3"])
        #expect(decoded.records.map(\.key) == ["1", "4", "5"])
        // The changes keep the page's order.
        #expect(decoded.changes.count == 5)
        #expect(decoded.changes[1] == .delete(key: "2"))
    }

    @Test func aDeletionSaysItsKeyWhereTheAPIPutsIt() throws {
        // A feed whose deletion rows name the record they delete, and have no "id".
        let rule = DeletedRule(
            pointer: try JSONPointer("/type"), match: .equals([.string("deleted")]), key: try JSONPointer("/deleted_id")
        )
        let decoded = try decode(
            #"""
            {"value": [{"id": 41, "type": "updated"}, {"deleted_id": 42, "type": "deleted"},
                       {"deleted_id": "x-7", "type": "deleted", "id": 99}]}
            """#, rule)
        #expect(deletions(decoded) == ["42", "x-7"])
        #expect(decoded.records.map(\.key) == ["41"])
        // A deletion without a key where it should say it is an error, as an item without one.
        #expect(throws: PageDecoder.Problem(message: #"the item at "/value/0" has no key at "/deleted_id""#)) {
            try decode(#"{"value": [{"id": 42, "type": "deleted"}]}"#, rule)
        }
        // Without deleted.key, a deletion's key is at the resource's key.
        let plain = DeletedRule(pointer: try JSONPointer("/type"), match: .equals([.string("deleted")]))
        #expect(throws: PageDecoder.Problem(message: #"the item at "/value/0" has no key at "/id""#)) {
            try decode(#"{"value": [{"deleted_id": 42, "type": "deleted"}]}"#, plain)
        }
    }

    @Test func aSnapshotLeavesTombstonesOutButCountsThemAsItemsOfThePage() throws {
        // CouchDB's _changes: {"results": [{"id", "seq", "deleted": true}, …]}.
        let rule = DeletedRule(pointer: try JSONPointer("/deleted"))
        let decoded = try decode(
            #"""
            {"value": [{"id": "a", "seq": "1-g"}, {"id": "b", "seq": "2-g", "deleted": true},
                       {"id": "c", "seq": "3-g", "deleted": false}, {"seq": "4-g", "deleted": true}]}
            """#, rule, incremental: nil)
        #expect(decoded.records.map(\.key) == ["a", "c"])
        #expect(decoded.changes.isEmpty)
        #expect(decoded.itemCount == 4)
        // Without a rule, a tombstone is an item like any other.
        let everything = try decode(#"{"value": [{"id": "a"}, {"id": "b", "deleted": true}]}"#, nil, incremental: nil)
        #expect(everything.records.map(\.key) == ["a", "b"])
    }
}
