/// The SQL that keeps a typed table in SQLite (docs/schema.md#typed-tables):
/// its definition, and the expressions that read each declared column from a
/// record's JSON, typed, a value that does not fit being NULL.
///
/// Every identifier is double-quoted and every text a literal with its quotes
/// doubled, so no name or pointer can change the statement.
struct SQLiteTypedSQL {
    let table: TypedTable

    /// `name` as a quoted identifier.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a string literal.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The SQLite JSON path (an SQL expression) of `tokens` after `base`, a
    /// path of `data` (an SQL literal, or an expression): `$."customer"."email"`.
    /// A token of digits is what JSON Pointer makes it: an index into an array,
    /// a member's name in an object; the path asks `data` which, where it goes.
    static func path(
        _ tokens: [String], after base: String = "$", expression: String? = nil, in data: String
    )
        -> String
    {
        var prefix = expression
        var pending = expression == nil ? base : ""
        func current() -> String {
            guard let prefix else { return literal(pending) }
            return pending.isEmpty ? prefix : "\(prefix) || \(literal(pending))"
        }
        for token in tokens {
            let isIndex = !token.isEmpty && token.utf8.allSatisfy { (48...57).contains($0) }
            if isIndex {
                let parent = current()
                let step =
                    "CASE json_type(\(data), \(parent)) WHEN 'array' THEN \(literal("[\(token)]")) "
                    + "ELSE \(literal(".\"\(token)\"")) END"
                prefix = "(\(parent) || \(step))"
                pending = ""
            } else {
                pending += ".\"\(token)\""
            }
        }
        return current()
    }

    /// The value of a column of `type` at the JSON path `path` (an SQL
    /// expression) of `data`: NULL when absent, null, or not of the type.
    static func value(_ type: ColumnType, data: String, path: String) -> String {
        let kind = "json_type(\(data), \(path))"
        let value = "json_extract(\(data), \(path))"
        let time = "'%Y-%m-%dT%H:%M:%fZ'"
        switch type {
        case .text:
            return "CASE WHEN \(kind) = 'text' THEN \(value) END"
        case .integer:
            // A number too large for 64 bits comes out of json_extract as a real.
            return """
                CASE \(kind) WHEN 'integer' THEN CASE WHEN typeof(\(value)) = 'integer' THEN \(value) END \
                WHEN 'real' THEN CASE WHEN abs(\(value)) < 9.2e18 AND \(value) = CAST(\(value) AS INTEGER) \
                THEN CAST(\(value) AS INTEGER) END END
                """
        case .real:
            return "CASE WHEN \(kind) IN ('integer', 'real') THEN CAST(\(value) AS REAL) END"
        case .boolean:
            return "CASE \(kind) WHEN 'true' THEN 1 WHEN 'false' THEN 0 END"
        case .timestamp:
            // A date first: strftime would read a bare number as a Julian day, and 'now' as now;
            // and one the calendar has: SQLite would read 2026-02-30 as 2026-03-02.
            return """
                CASE \(kind) WHEN 'text' THEN CASE WHEN \(value) GLOB '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]*' \
                AND date(substr(\(value), 1, 10), '+0 days') = substr(\(value), 1, 10) THEN strftime(\(time), \(value)) END \
                WHEN 'integer' THEN strftime(\(time), \(value), 'unixepoch') \
                WHEN 'real' THEN strftime(\(time), \(value), 'unixepoch') END
                """
        case .json:
            return "CASE WHEN \(kind) <> 'null' THEN \(data) -> \(path) END"
        }
    }

    /// Whether the value at `path` of `data` was stored as NULL in `column`
    /// (an SQL expression) without being absent or null, or, for a column
    /// that is not nullable, at all.
    static func misfit(_ column: TypedColumn, stored: String, data: String, path: String) -> String {
        column.nullable
            ? "(\(stored) IS NULL AND coalesce(json_type(\(data), \(path)), 'null') <> 'null')"
            : "(\(stored) IS NULL)"
    }

    // MARK: The tables

    var name: String { Self.identifier(table.name) }

    func childName(_ list: ChildTable) -> String { Self.identifier(table.tableName(of: list)) }

    /// The statements that create the tables, without their indexes.
    var creations: [String] {
        func columns(_ columns: [TypedColumn]) -> String {
            columns.map { "\(Self.identifier($0.name)) \($0.type.sqliteType)" }.joined(separator: ", ")
        }
        let own = table.columns.isEmpty ? "" : columns(table.columns) + ", "
        var statements = [
            "CREATE TABLE \(name) (key TEXT PRIMARY KEY NOT NULL, \(own)updated_at TEXT NOT NULL) WITHOUT ROWID"
        ]
        for list in table.lists {
            let own = list.columns.isEmpty ? "" : ", " + columns(list.columns)
            statements.append(
                """
                CREATE TABLE \(childName(list)) (key TEXT NOT NULL, position INTEGER NOT NULL\(own), \
                PRIMARY KEY (key, position)) WITHOUT ROWID
                """)
        }
        return statements
    }

    /// The statements that create the indexes of `indexed` columns.
    var indexes: [String] {
        indexed.map { index in
            "CREATE INDEX \(Self.identifier(index.name)) ON \(Self.identifier(index.table)) "
                + "(\(Self.identifier(index.column)))"
        }
    }

    /// The statements that drop the indexes of `indexed` columns.
    var indexDrops: [String] {
        indexed.map { "DROP INDEX IF EXISTS \(Self.identifier($0.name))" }
    }

    /// The indexes of `indexed` columns: each named `<table>.<column>`.
    private var indexed: [(name: String, table: String, column: String)] {
        func indexes(_ columns: [TypedColumn], of table: String) -> [(name: String, table: String, column: String)] {
            columns.filter(\.indexed).map { ("\(table).\($0.name)", table, $0.name) }
        }
        return indexes(table.columns, of: table.name)
            + table.lists.flatMap { indexes($0.columns, of: table.tableName(of: $0)) }
    }

    /// The statements that drop the tables (their indexes go with them).
    var drops: [String] {
        table.tableNames.map { "DROP TABLE IF EXISTS \(Self.identifier($0))" }
    }

    // MARK: Rows

    /// The path of a column in the record (an SQL expression).
    func path(_ column: TypedColumn) -> String {
        Self.path(column.tokens, in: "r.data")
    }

    /// The path of a list in the record (an SQL expression).
    func path(_ list: ChildTable) -> String {
        Self.path(list.tokens, in: "r.data")
    }

    /// The path of an element's column, element `position` (an SQL expression) of `list`.
    func path(_ column: TypedColumn, in list: ChildTable, position: String) -> String {
        let element = "\(path(list)) || '[' || \(position) || ']'"
        return Self.path(column.tokens, expression: element, in: "r.data")
    }

    /// Fills the table from the records `source` selects (aliased `r`).
    func insertRows(_ source: Source) -> String {
        let names = table.columns.map { Self.identifier($0.name) + ", " }.joined()
        let values = table.columns.map { Self.value($0.type, data: "r.data", path: path($0)) + ", " }.joined()
        return """
            INSERT OR REPLACE INTO \(name) (key, \(names)updated_at)
            SELECT r.key, \(values)r.updated_at \(source.from) \(source.whereClause)
            """
    }

    /// Fills the child table of `list` from the records `source` selects.
    func insertElements(of list: ChildTable, _ source: Source) -> String {
        let names = list.columns.map { ", " + Self.identifier($0.name) }.joined()
        let values = list.columns.map {
            ", " + Self.value($0.type, data: "r.data", path: path($0, in: list, position: "e.key"))
        }.joined()
        return """
            INSERT OR REPLACE INTO \(childName(list)) (key, position\(names))
            SELECT r.key, e.key\(values) \(source.from), json_each(r.data, \(path(list))) AS e
            \(source.whereClause) AND json_type(r.data, \(path(list))) = 'array'
            """
    }

    /// The rows of the records `source` selects that hold a misfit: `key`, the
    /// first misfit's `column` and `pointer`, and `n`, how many they hold, in
    /// the source's order.
    func misfitRows(_ source: Source) -> String {
        let checks = table.columns.map { column in
            (
                column,
                Self.misfit(column, stored: "t.\(Self.identifier(column.name))", data: "r.data", path: path(column))
            )
        }
        let lists = table.lists.map { list in
            "(coalesce(json_type(r.data, \(path(list))), 'array') NOT IN ('array', 'null'))"
        }
        guard !checks.isEmpty || !lists.isEmpty else {
            return "SELECT NULL AS key, NULL AS column, NULL AS pointer, 0 AS n WHERE false"
        }
        let all =
            checks.map { (column: $0.0.name, pointer: $0.0.pointer, test: $0.1) }
            + zip(table.lists, lists).map { (column: $0.0.name, pointer: $0.0.pointer, test: $0.1) }
        // Only rows with a NULL, or a list without elements, can hold a misfit: the JSON is read for those alone.
        var candidates = table.columns.map { "t.\(Self.identifier($0.name)) IS NULL" }
        candidates += table.lists.map { "NOT EXISTS (SELECT 1 FROM \(childName($0)) AS l WHERE l.key = r.key)" }
        return """
            SELECT r.key AS key, \(Self.misfitColumns(all))
            \(source.from) JOIN \(name) AS t ON t.key = r.key
            \(source.whereClause) AND (\(candidates.joined(separator: " OR ")))
            ORDER BY \(source.order)
            """
    }

    /// The `column`, `pointer` and `n` of a misfit query: the first check of
    /// `checks` that holds, and how many hold.
    private static func misfitColumns(_ checks: [(column: String, pointer: String, test: String)]) -> String {
        let column = checks.map { "WHEN \($0.test) THEN \(literal($0.column))" }.joined(separator: " ")
        let pointer = checks.map { "WHEN \($0.test) THEN \(literal($0.pointer))" }.joined(separator: " ")
        let count = checks.map(\.test).joined(separator: " + ")
        return "CASE \(column) END AS column, CASE \(pointer) END AS pointer, \(count) AS n"
    }

    /// The misfits of the elements of `list`, as ``misfitRows(_:)``, with the element's `position`.
    func misfitElements(of list: ChildTable, _ source: Source) -> String? {
        guard !list.columns.isEmpty else { return nil }
        let checks = list.columns.map { column in
            (
                column,
                Self.misfit(
                    column, stored: "t.\(Self.identifier(column.name))", data: "r.data",
                    path: path(column, in: list, position: "t.position"))
            )
        }
        let all = checks.map { (column: $0.0.name, pointer: $0.0.pointer, test: $0.1) }
        let candidates = list.columns.map { "t.\(Self.identifier($0.name)) IS NULL" }.joined(separator: " OR ")
        return """
            SELECT r.key AS key, t.position AS position, \(Self.misfitColumns(all))
            \(source.from) JOIN \(childName(list)) AS t ON t.key = r.key
            \(source.whereClause) AND (\(candidates))
            ORDER BY \(source.order), t.position
            """
    }

    /// The records a statement reads, aliased `r`.
    struct Source {
        /// `FROM …` (with its joins), without a WHERE clause.
        var from: String
        /// `WHERE …`, which a statement may extend with `AND`.
        var whereClause: String
        /// The order in which misfits are found.
        var order: String

        /// Every record of `resource`.
        static func all(of resource: String) -> Source {
            Source(
                from: "FROM records AS r", whereClause: "WHERE r.resource = \(SQLiteTypedSQL.literal(resource))",
                order: "r.key")
        }

        /// The records of `resource` that the changes `feed` inserted or updated.
        static func changed(_ resource: String, in feed: ClosedRange<Int64>) -> Source {
            Source(
                from: """
                    FROM changes AS c JOIN records AS r ON r.resource = \(SQLiteTypedSQL.literal(resource)) \
                    AND r.key = c.key
                    """,
                whereClause: "WHERE c.seq BETWEEN \(feed.lowerBound) AND \(feed.upperBound) AND c.op <> 'delete'",
                order: "c.seq")
        }
    }
}
