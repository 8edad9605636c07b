import Foundation
import Logging
import PostgresNIO

extension PostgresStore {
    /// Implements ``SyncStore/declareTables(_:)``.
    ///
    /// Each resource's tables are made or rebuilt in a transaction of their
    /// own that holds the change feed's lock, as every write of records does:
    /// no write of the resource's records runs meanwhile, and every write
    /// after it finds the new declaration in `typed_tables`. Writes follow
    /// the catalog rather than this agent's declarations alone, so that the
    /// agents of a fleet that share the schema keep the same tables. A
    /// resource whose tables cannot be made is in `failed`; the others are
    /// made all the same.
    @discardableResult
    public func declareTables(_ tables: [TypedTable]) async throws(StoreError) -> TableDeclarations {
        var result = TableDeclarations()
        let declared = Set(tables.map(\.resource))
        let logger = logger
        let catalog = try await read { connection in
            try await connection.rows("SELECT resource FROM typed_tables ORDER BY resource", logger)
                .compactMap { try $0.get("resource", as: String.self) }
        }
        // Tables no longer declared go first: a new table may take a name they had.
        for resource in catalog where !declared.contains(resource) {
            let dropped = try await transaction { [self] connection in
                try await dropDeclared(resource, connection)
            }
            if dropped { result.dropped.append(resource) }
        }
        typedTables.withLock { known in
            known = known.filter { declared.contains($0.key) }
        }
        for table in tables {
            do throws(StoreError) {
                let kept = try await transaction(patience: Self.applyPatience) { [self] connection in
                    try await keepDeclared(table, connection)
                }
                if kept.rebuilt { result.rebuilt.append(table.resource) }
                if let misfit = kept.misfit { result.misfits[table.resource] = misfit }
            } catch {
                // Its transaction rolled back: the catalog, and the writes that follow it, are as before.
                result.failed[table.resource] = error.message
            }
        }
        return result
    }

    /// Makes `table`'s tables, or rebuilds them from the stored records when
    /// the catalog holds another declaration (or they are missing).
    private func keepDeclared(
        _ table: TypedTable, _ connection: PostgresConnection
    ) async throws -> (rebuilt: Bool, misfit: ColumnMisfit?) {
        let sql = PostgresTypedTableSQL(table: table)
        let text = table.declarationText
        let resource = table.resource
        _ = try await Self.lockFeed(connection, logger)
        let row = try await connection.rows(
            """
            SELECT declaration, misfit_table, misfit_column, misfit_key, misfit_pointer
            FROM typed_tables WHERE resource = \(resource)
            """, logger
        ).first
        let existing = try await relations(named: table.tableNames, connection)
        if let row, try row.get("declaration", as: String.self) == text, existing.count == table.tableNames.count {
            remember(table, text)
            return (false, try Self.storedMisfit(row))
        }
        // Only the tables the catalog says the agent made are dropped.
        if let old = try row?.get("declaration", as: String.self) {
            let oldTable = try? JSONDecoder().decode(TypedTable.self, from: Data(old.utf8))
            let dropped = PostgresTypedTableSQL(table: oldTable ?? TypedTable(resource: resource, columns: []))
            try await connection.query(PostgresQuery(unsafeSQL: dropped.dropTables), logger: logger)
        }
        if let other = try await relations(named: table.tableNames, connection).first {
            throw StoreError(
                .io,
                "\(resource): the schema \(place.schema) holds a table \"\(other)\" the agent did not make: "
                    + "rename it or the resource")
        }
        for statement in sql.createTables {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        let filled = try await fill(sql, .all, inserting: true, connection)
        for statement in sql.createIndexes {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        // The planner learns the new tables' values now, not when autovacuum comes by.
        for name in table.tableNames {
            try await connection.query(
                PostgresQuery(unsafeSQL: "ANALYZE \(PostgresTypedTableSQL.name(name))"), logger: logger)
        }
        let misfit = filled.first
        try await connection.query(
            """
            INSERT INTO typed_tables (resource, declaration, built_at, misfit_table, misfit_column, misfit_key,
                                      misfit_pointer)
            VALUES (\(resource), \(text), \(Timestamp.string(from: now()))::timestamptz, \(misfit?.table),
                    \(misfit?.column), \(misfit?.key), \(misfit?.pointer))
            ON CONFLICT (resource) DO UPDATE SET
                declaration = excluded.declaration, built_at = excluded.built_at,
                misfit_table = excluded.misfit_table, misfit_column = excluded.misfit_column,
                misfit_key = excluded.misfit_key, misfit_pointer = excluded.misfit_pointer
            """, logger: logger)
        remember(table, text)
        return (true, misfit)
    }

    /// Drops the tables of `resource` that the catalog lists, and its entry;
    /// `false` when another agent did first.
    private func dropDeclared(_ resource: String, _ connection: PostgresConnection) async throws -> Bool {
        _ = try await Self.lockFeed(connection, logger)
        guard
            let text = try await connection.value(
                String.self, "SELECT declaration FROM typed_tables WHERE resource = \(resource)", logger)
        else { return false }
        let table = try? JSONDecoder().decode(TypedTable.self, from: Data(text.utf8))
        let sql = PostgresTypedTableSQL(table: table ?? TypedTable(resource: resource, columns: []))
        try await connection.query(PostgresQuery(unsafeSQL: sql.dropTables), logger: logger)
        try await connection.query("DELETE FROM typed_tables WHERE resource = \(resource)", logger: logger)
        return true
    }

    /// Which of `names` are relations of the store's schema (tables, indexes, views, …).
    private func relations(named names: [String], _ connection: PostgresConnection) async throws -> [String] {
        try await connection.rows(
            """
            SELECT c.relname::text AS name FROM pg_class AS c JOIN pg_namespace AS n ON n.oid = c.relnamespace
            WHERE n.nspname = current_schema() AND c.relname = ANY(\(names)::text[])
            ORDER BY c.relname
            """, logger
        ).compactMap { try $0.get("name", as: String.self) }
    }

    /// Keeps `declaration` (whose text is `text`) for the writes that find it in the catalog.
    private func remember(_ declaration: TypedTable, _ text: String) {
        typedTables.withLock { $0[declaration.resource] = (text, declaration) }
    }

    /// The declaration whose text the catalog holds for `resource`: the one
    /// declared, unless another agent of a fleet declared another since.
    private func declaration(of resource: String, text: String) -> TypedTable? {
        if let known = typedTables.withLock({ $0[resource] }), known.text == text { return known.table }
        guard let table = try? JSONDecoder().decode(TypedTable.self, from: Data(text.utf8)) else { return nil }
        remember(table, text)
        return table
    }

    // MARK: Writes

    /// Keeps the typed tables of `resource` for the changes `feed` of the
    /// calling transaction, which holds the change feed's lock: the rows of
    /// the changed keys are replaced by those of their records now (none for
    /// a deleted record), and the catalog's first misfit is kept
    /// (docs/schema.md#typed-tables). `nil` when the resource declares no table.
    func keepTypedTables(
        of resource: String, changes feed: ClosedRange<Int64>?, _ connection: PostgresConnection
    ) async throws -> TypedTableWrite? {
        guard
            let row = try await connection.rows(
                """
                SELECT declaration, misfit_table, misfit_column, misfit_key, misfit_pointer
                FROM typed_tables WHERE resource = \(resource)
                """, logger
            ).first,
            let text = try row.get("declaration", as: String.self)
        else { return nil }
        let stored = try Self.storedMisfit(row)
        guard let table = declaration(of: resource, text: text) else {
            // A declaration this agent cannot read (a newer agent's): its tables are left to it.
            return TypedTableWrite(firstMisfit: stored)
        }
        guard let feed else { return TypedTableWrite(firstMisfit: stored) }
        let sql = PostgresTypedTableSQL(table: table)
        for statement in sql.deleteRows(changedBy: feed) {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        let written = try await fill(sql, .changes(feed), inserting: true, connection)
        // The stored misfit goes when its record was rewritten (it fits now, or
        // this write's misfits say again where the first is).
        var first = stored
        var dropped = false
        if let stored {
            let rewritten =
                try await connection.value(
                    Bool.self,
                    """
                    SELECT EXISTS (SELECT 1 FROM changes WHERE resource = \(resource)
                                   AND seq BETWEEN \(feed.lowerBound) AND \(feed.upperBound) AND key = \(stored.key))
                    """, logger) ?? false
            if rewritten {
                first = nil
                dropped = true
            }
        }
        if first == nil {
            first = written.first
            if first == nil, dropped {
                // Rare: the first misfit was fixed, and this write made none. Any
                // other left? Only the records whose rows hold a NULL are read.
                first = try await fill(sql, .withNulls, inserting: false, connection).first
            }
        }
        if first != stored {
            try await connection.query(
                """
                UPDATE typed_tables SET misfit_table = \(first?.table), misfit_column = \(first?.column),
                    misfit_key = \(first?.key), misfit_pointer = \(first?.pointer)
                WHERE resource = \(resource)
                """, logger: logger)
        }
        return TypedTableWrite(misfits: written.count, firstMisfit: first)
    }

    /// Runs the fill of `sql` from `source`: how many misfits, and the first.
    private func fill(
        _ sql: PostgresTypedTableSQL, _ source: PostgresTypedTableSQL.Source, inserting: Bool,
        _ connection: PostgresConnection
    ) async throws -> (count: Int, first: ColumnMisfit?) {
        guard
            let row = try await connection.rows(
                PostgresQuery(unsafeSQL: sql.fill(source, inserting: inserting)), logger
            ).first
        else { return (0, nil) }
        let first = sql.misfit(
            key: try row.get("key") ?? "", tab: try row.get("tab") ?? 0, position: try row.get("position") ?? 0,
            col: try row.get("col") ?? 0)
        return (try row.get("misfits") ?? 0, first)
    }

    /// The first misfit a row of `typed_tables` holds.
    /// Implements ``SyncStore/typedTableMisfits()``.
    public func typedTableMisfits() async throws(StoreError) -> [String: ColumnMisfit] {
        let logger = logger
        return try await read { connection in
            // A schema of an earlier version, opened read-only, has no catalog.
            let exists = try await connection.rows("SELECT to_regclass('typed_tables') IS NOT NULL AS here", logger)
            guard try exists.first?.get("here", as: Bool.self) == true else { return [:] }
            var misfits: [String: ColumnMisfit] = [:]
            for row in try await connection.rows(
                """
                SELECT resource, misfit_table, misfit_column, misfit_key, misfit_pointer FROM typed_tables
                """, logger)
            {
                misfits[try row.get("resource") ?? ""] = try Self.storedMisfit(row)
            }
            return misfits
        }
    }

    private static func storedMisfit(_ row: PostgresRandomAccessRow) throws -> ColumnMisfit? {
        guard let key = try row.get("misfit_key", as: String.self) else { return nil }
        return ColumnMisfit(
            table: try row.get("misfit_table") ?? "", column: try row.get("misfit_column") ?? "", key: key,
            pointer: try row.get("misfit_pointer") ?? "")
    }
}
