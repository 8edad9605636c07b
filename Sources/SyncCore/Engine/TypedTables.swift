import Logging
import Store

extension SyncStore {
    /// Keeps the typed tables that `resources` declare
    /// (docs/schema.md#typed-tables): made or rebuilt from the stored records
    /// when their declaration changed, dropped when no longer declared. Logs
    /// what it did; a table that cannot be kept is logged and its resource
    /// syncs on without it.
    ///
    /// - Returns: Each declaring resource's tables as status shows them
    ///   (`nil` for one whose tables could not be made); `nil` when the store failed.
    func keepTypedTables(of resources: [ResourceConfig], logger: Logger) async -> [String: ColumnsStatus?]? {
        let tables = resources.compactMap(\.table)
        let declared: TableDeclarations
        do {
            declared = try await declareTables(tables)
        } catch {
            logger.error("cannot keep the typed tables: \(error.message)")
            return nil
        }
        for name in declared.rebuilt {
            logger.notice("typed table built from the stored records", metadata: [LogKey.resource: "\(name)"])
        }
        for name in declared.dropped {
            logger.notice(
                "typed table dropped: its columns are no longer declared", metadata: [LogKey.resource: "\(name)"])
        }
        for (name, message) in declared.failed.sorted(by: { $0.key < $1.key }) {
            logger.error(
                "the typed table cannot be kept, the records are: \(message)", metadata: [LogKey.resource: "\(name)"])
        }
        var statuses: [String: ColumnsStatus?] = [:]
        for table in tables {
            statuses[table.resource] =
                declared.failed[table.resource] == nil
                ? ColumnsStatus(tables: table.tableNames, misfit: declared.misfits[table.resource]) : nil
        }
        return statuses
    }
}
