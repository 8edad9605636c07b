import Foundation
import GRDB

extension SQLiteStore {
    /// Implements ``SyncStore/declareTables(_:)``.
    @discardableResult
    public func declareTables(_ tables: [TypedTable]) async throws(StoreError) -> TableDeclarations {
        let declared = Dictionary(tables.map { ($0.resource, $0) }) { first, _ in first }
        let built = try await read { db in
            try Row.fetchAll(db, sql: "SELECT resource, declaration FROM typed_tables").map {
                (resource: $0["resource"] as String, declaration: $0["declaration"] as String)
            }
        }
        var result = TableDeclarations()
        // Tables no longer declared go first: a new table may take a name they had.
        for row in built where declared[row.resource] == nil {
            try await write { db in
                for statement in Self.tables(in: row.declaration, of: row.resource).drops {
                    try db.execute(sql: statement)
                }
                try db.execute(sql: "DELETE FROM typed_tables WHERE resource = ?", arguments: [row.resource])
                self.typedTables.withLock { $0[row.resource] = nil }
            }
            result.dropped.append(row.resource)
        }
        let builtByResource = Dictionary(built.map { ($0.resource, $0.declaration) }) { first, _ in first }
        for table in tables {
            let declaration = table.declarationText
            let previous = builtByResource[table.resource]
            do throws(StoreError) {
                let misfit = try await write { db -> ColumnMisfit? in
                    guard previous != declaration else {
                        self.typedTables.withLock { $0[table.resource] = table }
                        return try Self.storedMisfit(of: table.resource, db)
                    }
                    let old = previous.map { Self.tables(in: $0, of: table.resource) }
                    try Self.checkNames(of: table, freeing: old, db)
                    for statement in old?.drops ?? [] { try db.execute(sql: statement) }
                    let misfit = try Self.build(table, db)
                    try db.execute(
                        sql: """
                            INSERT OR REPLACE INTO typed_tables (resource, declaration, built_at, misfit_table,
                                                                 misfit_column, misfit_key, misfit_pointer)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """,
                        arguments: [
                            table.resource, declaration, Timestamp.string(from: self.now()), misfit?.table,
                            misfit?.column, misfit?.key, misfit?.pointer,
                        ])
                    self.typedTables.withLock { $0[table.resource] = table }
                    return misfit
                }
                if previous != declaration { result.rebuilt.append(table.resource) }
                if let misfit { result.misfits[table.resource] = misfit }
            } catch {
                typedTables.withLock { $0[table.resource] = nil }
                result.failed[table.resource] = error.message
            }
        }
        return result
    }

    /// The declaration stored as `text` for `resource`; one naming the
    /// resource's table alone when it cannot be read.
    private static func tables(in text: String, of resource: String) -> SQLiteTypedSQL {
        let table =
            (try? JSONDecoder().decode(TypedTable.self, from: Data(text.utf8)))
            ?? TypedTable(resource: resource, columns: [])
        return SQLiteTypedSQL(table: table)
    }

    /// Refuses to make a table whose name another table, view or index has,
    /// unless the agent made it for this resource (`old`): the agent never
    /// drops what it did not make.
    private static func checkNames(of table: TypedTable, freeing old: SQLiteTypedSQL?, _ db: Database) throws {
        let ours = Set((old?.table.tableNames ?? []).map { $0.lowercased() })
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

    /// Keeps the typed table of `resource`, if it declares one, for the
    /// changes `feed` of the transaction in progress: the rows of keys it
    /// deleted or changed go, those of keys it inserted or updated are read
    /// again from `records`.
    func keepTypedTable(of resource: String, feed: ClosedRange<Int64>?, _ db: Database) throws -> TypedTableWrite? {
        guard let table = typedTables.withLock({ $0[resource] }) else { return nil }
        guard let feed else { return TypedTableWrite(firstMisfit: try Self.storedMisfit(of: resource, db)) }
        let sql = SQLiteTypedSQL(table: table)
        let keys = "SELECT key FROM changes WHERE seq BETWEEN \(feed.lowerBound) AND \(feed.upperBound)"
        try db.execute(sql: "DELETE FROM \(sql.name) WHERE key IN (\(keys))")
        for list in table.lists {
            try db.execute(sql: "DELETE FROM \(sql.childName(list)) WHERE key IN (\(keys))")
        }
        let source = SQLiteTypedSQL.Source.changed(resource, in: feed)
        try db.execute(sql: sql.insertRows(source))
        for list in table.lists { try db.execute(sql: sql.insertElements(of: list, source)) }
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
        let rows = try Row.fetchCursor(db, sql: sql.misfitRows(source))
        while let row = try rows.next() {
            count += row["n"] as Int? ?? 0
            if first == nil, let column = row["column"] as String? {
                first = ColumnMisfit(
                    table: sql.table.name, column: column, key: row["key"], pointer: row["pointer"] ?? "")
            }
        }
        for list in sql.table.lists {
            guard let query = sql.misfitElements(of: list, source) else { continue }
            let rows = try Row.fetchCursor(db, sql: query)
            while let row = try rows.next() {
                count += row["n"] as Int? ?? 0
                if first == nil, let column = row["column"] as String? {
                    let position: Int = row["position"]
                    let pointer: String = row["pointer"] ?? ""
                    first = ColumnMisfit(
                        table: sql.table.tableName(of: list), column: column, key: row["key"],
                        pointer: "\(list.pointer)/\(position)\(pointer)")
                }
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
