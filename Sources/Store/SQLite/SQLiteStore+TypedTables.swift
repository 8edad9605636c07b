import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/declareTables(_:)``.
    @discardableResult
    public func declareTables(_ tables: [TypedTable]) async throws(StoreError) -> TableDeclarations {
        guard tables.isEmpty else {
            throw StoreError(.io, "typed tables are not kept in an SQLite store yet")
        }
        return TableDeclarations()
    }
}
