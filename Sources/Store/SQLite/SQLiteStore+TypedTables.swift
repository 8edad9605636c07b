import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/declareTables(_:)``.
    ///
    /// The catalog `typed_tables` says which tables the agent made, from which
    /// declaration: every write keeps the tables it lists, read in the write's
    /// own transaction, so a declaration that could not be rebuilt leaves the
    /// tables of the one before kept, never stale.
    @discardableResult
    public func declareTables(_ tables: [TypedTable]) async throws(StoreError) -> TableDeclarations {
        let declared = Set(tables.map(\.resource))
        let built = try await read { db in
            try String.fetchAll(db, sql: "SELECT resource FROM typed_tables ORDER BY resource")
        }
        var result = TableDeclarations()
        // Tables no longer declared go first: a new table may take a name they had.
        for resource in built where !declared.contains(resource) {
            try await write { db in
                // A declaration this version cannot read names the resource's table at least.
                let old = try Self.catalogTable(of: resource, db) ?? TypedTable(resource: resource, columns: [])
                for statement in SQLiteTypedSQL(table: old).drops { try db.execute(sql: statement) }
                try db.execute(sql: "DELETE FROM typed_tables WHERE resource = ?", arguments: [resource])
            }
            result.dropped.append(resource)
        }
        for table in tables {
            do throws(StoreError) {
                let (rebuilt, misfit) = try await write { db -> (Bool, ColumnMisfit?) in
                    let old = try Self.catalogTable(of: table.resource, db)
                    if old == table, try Self.tablesExist(of: table, db) {
                        return (false, try Self.storedMisfit(of: table.resource, db))
                    }
                    try Self.checkNames(of: table, freeing: old, db)
                    return (true, try self.rebuild(table, replacing: old, db))
                }
                if rebuilt { result.rebuilt.append(table.resource) }
                if let misfit { result.misfits[table.resource] = misfit }
            } catch {
                result.failed[table.resource] = error.message
            }
        }
        return result
    }

    /// Drops the tables of `old`, makes those of `table` from every record of
    /// its resource, and records it in the catalog; returns the first misfit.
    private func rebuild(_ table: TypedTable, replacing old: TypedTable?, _ db: Database) throws -> ColumnMisfit? {
        // ``checkNames(of:freeing:_:)`` made sure no table of `table` is another's.
        for statement in SQLiteTypedSQL(table: old ?? table).drops { try db.execute(sql: statement) }
        let misfit = try Self.build(table, db)
        try db.execute(
            sql: """
                INSERT OR REPLACE INTO typed_tables (resource, declaration, built_at, misfit_table,
                                                     misfit_column, misfit_key, misfit_pointer)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
            arguments: [
                table.resource, table.declarationText, Timestamp.string(from: now()), misfit?.table,
                misfit?.column, misfit?.key, misfit?.pointer,
            ])
        return misfit
    }

    /// The declaration the catalog keeps for `resource`, if any and if this
    /// version can read it (one a newer agent wrote is left to that agent).
    static func catalogTable(of resource: String, _ db: Database) throws -> TypedTable? {
        try catalogText(of: resource, db).flatMap(decode)
    }

    /// The declaration's text in the catalog, as ``TypedTable/declarationText`` wrote it.
    private static func catalogText(of resource: String, _ db: Database) throws -> String? {
        try String.fetchOne(
            db.cachedStatement(sql: "SELECT declaration FROM typed_tables WHERE resource = ?"), arguments: [resource])
    }

    private static func decode(_ text: String) -> TypedTable? {
        try? JSONDecoder().decode(TypedTable.self, from: Data(text.utf8))
    }

    /// Whether every table of `table` is in the database (a person may have dropped one).
    private static func tablesExist(of table: TypedTable, _ db: Database) throws -> Bool {
        try table.tableNames.allSatisfy { try db.tableExists($0) }
    }

    /// Refuses to make a table whose name another table, view or index has,
    /// unless the agent made it for this resource (`old`): the agent never
    /// drops what it did not make.
    private static func checkNames(of table: TypedTable, freeing old: TypedTable?, _ db: Database) throws {
        let ours = Set((old?.tableNames ?? []).map { $0.lowercased() })
        for name in table.tableNames where !ours.contains(name.lowercased()) {
            // SQLite's names are the same whatever their case.
            if let kind = try String.fetchOne(
                db, sql: "SELECT type FROM sqlite_schema WHERE lower(name) = lower(?)", arguments: [name])
            {
                throw StoreError(
                    .io,
                    """
                    the database already has a \(kind) named "\(name)" that the agent did not make for \
                    \(table.resource): rename or drop it, or rename the resource
                    """)
            }
        }
    }

    /// Creates the tables of `table` and fills them from every record of its
    /// resource; returns the first misfit they hold.
    private static func build(_ table: TypedTable, _ db: Database) throws -> ColumnMisfit? {
        let sql = SQLiteTypedSQL(table: table)
        for statement in sql.creations { try db.execute(sql: statement) }
        let source = SQLiteTypedSQL.Source.all(of: table.resource)
        try db.execute(sql: sql.insertRows(source))
        for list in table.lists { try db.execute(sql: sql.insertElements(of: list, source)) }
        // Indexes after the rows: one sort instead of a b-tree grown row by row.
        for statement in sql.indexes { try db.execute(sql: statement) }
        return try misfits(sql, source, db).first
    }

    /// How many changes make a write into an empty table a bulk one.
    static let bulkWrite = 10_000

    /// Keeps the typed table of `resource`, if it declares one, for the
    /// changes `feed` of the transaction in progress: the rows of keys it
    /// deleted or changed go, those of keys it inserted or updated are read
    /// again from `records`.
    func keepTypedTable(of resource: String, feed: ClosedRange<Int64>?, _ db: Database) throws -> TypedTableWrite? {
        guard let table = try cachedCatalogTable(of: resource, db) else { return nil }
        guard let feed else { return TypedTableWrite(firstMisfit: try Self.storedMisfit(of: resource, db)) }
        guard try Self.tablesExist(of: table, db) else {
            // Dropped by a person: made again from the records, this write's included.
            let first = try rebuild(table, replacing: table, db)
            let count = try Self.misfits(SQLiteTypedSQL(table: table), .changed(resource, in: feed), db).count
            return TypedTableWrite(misfits: count, firstMisfit: first)
        }
        let sql = SQLiteTypedSQL(table: table)
        // A first sync of many records fills an empty table: its indexes are made after the rows,
        // one sort instead of a b-tree grown row by row, and there are no rows to take out.
        let empty = try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM \(sql.name))") ?? false
        let bulk = feed.count >= Self.bulkWrite && empty
        if bulk {
            for statement in sql.indexDrops { try db.execute(sql: statement) }
        } else {
            let keys = "SELECT key FROM changes WHERE seq BETWEEN \(feed.lowerBound) AND \(feed.upperBound)"
            try db.execute(sql: "DELETE FROM \(sql.name) WHERE key IN (\(keys))")
            for list in table.lists {
                try db.execute(sql: "DELETE FROM \(sql.childName(list)) WHERE key IN (\(keys))")
            }
        }
        let source = SQLiteTypedSQL.Source.changed(resource, in: feed)
        try db.execute(sql: sql.insertRows(source))
        for list in table.lists { try db.execute(sql: sql.insertElements(of: list, source)) }
        if bulk {
            for statement in sql.indexes { try db.execute(sql: statement) }
        }
        let (count, first) = try Self.misfits(sql, source, db)
        var sticky = try Self.storedMisfit(of: resource, db)
        var lookAgain = false
        if let kept = sticky,
            try Bool.fetchOne(
                db, sql: "SELECT EXISTS (SELECT 1 FROM changes WHERE seq BETWEEN ? AND ? AND key = ?)",
                arguments: [feed.lowerBound, feed.upperBound, kept.key]) == true
        {
            // Its record changed: it fits now, or this write found it again.
            sticky = nil
            lookAgain = first == nil
        }
        if sticky == nil {
            sticky = try first ?? (lookAgain ? Self.misfits(sql, .all(of: resource), db).first : nil)
        }
        try db.execute(
            sql: """
                UPDATE typed_tables SET misfit_table = ?, misfit_column = ?, misfit_key = ?, misfit_pointer = ?
                WHERE resource = ?
                """,
            arguments: [sticky?.table, sticky?.column, sticky?.key, sticky?.pointer, resource])
        return TypedTableWrite(misfits: count, firstMisfit: sticky)
    }

    /// How many values of the records `source` selects were stored as NULL
    /// without fitting, and the first of them.
    private static func misfits(
        _ sql: SQLiteTypedSQL, _ source: SQLiteTypedSQL.Source, _ db: Database
    ) throws -> (count: Int, first: ColumnMisfit?) {
        var count = 0
        var first: ColumnMisfit?
        // Each row: its misfits (`n`), and the first one's column and pointer, placed in its table by `pointer`.
        func scan(_ query: String, table: String, pointer: (Row, String) -> String) throws {
            let rows = try Row.fetchCursor(db, sql: query)
            while let row = try rows.next() {
                count += row["n"] as Int? ?? 0
                if first == nil, let column = row["column"] as String? {
                    first = ColumnMisfit(
                        table: table, column: column, key: row["key"], pointer: pointer(row, row["pointer"] ?? ""))
                }
            }
        }
        try scan(sql.misfitRows(source), table: sql.table.name) { _, pointer in pointer }
        for list in sql.table.lists {
            guard let query = sql.misfitElements(of: list, source) else { continue }
            try scan(query, table: sql.table.tableName(of: list)) { row, pointer in
                "\(list.pointer)/\(row["position"] as Int)\(pointer)"
            }
        }
        return (count, first)
    }

    /// Implements ``SyncStore/typedTableMisfits()``.
    public func typedTableMisfits() async throws(StoreError) -> [String: ColumnMisfit] {
        try await read { db in
            // A file of an earlier version, opened read-only, has no catalog.
            guard try db.tableExists("typed_tables") else { return [:] }
            var misfits: [String: ColumnMisfit] = [:]
            for resource in try String.fetchAll(db, sql: "SELECT resource FROM typed_tables") {
                misfits[resource] = try Self.storedMisfit(of: resource, db)
            }
            return misfits
        }
    }

    /// ``catalogTable(of:_:)``, decoded again only when its text changed.
    private func cachedCatalogTable(of resource: String, _ db: Database) throws -> TypedTable? {
        guard let text = try Self.catalogText(of: resource, db) else { return nil }
        if let cached = typedTables.withLock({ $0[resource] }), cached.declarationText == text { return cached }
        let table = Self.decode(text)
        typedTables.withLock { $0[resource] = table }
        return table
    }

    /// The first misfit the catalog keeps for `resource`.
    private static func storedMisfit(of resource: String, _ db: Database) throws -> ColumnMisfit? {
        guard
            let row = try Row.fetchOne(
                db,
                sql: "SELECT misfit_table, misfit_column, misfit_key, misfit_pointer FROM typed_tables "
                    + "WHERE resource = ?", arguments: [resource]),
            let table = row["misfit_table"] as String?, let column = row["misfit_column"] as String?,
            let key = row["misfit_key"] as String?
        else { return nil }
        return ColumnMisfit(table: table, column: column, key: key, pointer: row["misfit_pointer"] ?? "")
    }
}
