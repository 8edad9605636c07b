import Foundation

extension PostgresStore {
    /// Implements ``SyncStore/declareTables(_:)``.
    @discardableResult
    public func declareTables(_ tables: [TypedTable]) async throws(StoreError) -> TableDeclarations {
        guard tables.isEmpty else {
            throw StoreError(.io, "typed tables are not kept in a PostgreSQL store yet")
        }
        return TableDeclarations()
    }
}
