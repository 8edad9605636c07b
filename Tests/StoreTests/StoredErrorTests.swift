import Foundation
import Testing

@testable import Store

/// An error's kind as the status API and the database carry it.
@Suite struct StoredErrorTests {
    @Test func eachKindKeepsItsStoredString() throws {
        let error = StoredError(kind: .storage, message: "users: disk full: /var/lib/sync-agent", status: nil)
        let text = String(decoding: try JSONEncoder().encode(error), as: UTF8.self)
        #expect(text.contains(#""kind":"storage""#))
        #expect(try JSONDecoder().decode(StoredError.self, from: Data(text.utf8)) == error)
        #expect(
            StoredError.Kind.allCases.map(\.rawValue)
                == ["transient", "unrecoverable", "offline", "rateLimited", "storage", "store", "cancelled"])
    }

    @Test func aKindANewerVersionAddedReadsAsUnrecoverableFromTheSocket() throws {
        let json = #"{"kind": "somethingNew", "message": "users: it broke", "status": 418}"#
        let error = try JSONDecoder().decode(StoredError.self, from: Data(json.utf8))
        #expect(error == StoredError(kind: .unrecoverable, message: "users: it broke", status: 418))
        // Read from the database, it is an error that names it (docs/schema.md#stored-values).
        #expect(throws: StoreError.self) {
            try StoredError(
                message: "users: it broke", kind: "somethingNew", status: nil, column: "sync_runs.error_kind",
                of: "id 1")
        }
    }
}
