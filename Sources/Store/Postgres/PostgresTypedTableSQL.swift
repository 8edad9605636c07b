import Foundation

/// The statements that keep one typed table of ``PostgresStore``
/// (docs/schema.md#typed-tables): its tables and indexes, and the fill that
/// converts records' members to the columns' types.
///
/// Every name is double-quoted and every literal escaped here, so that no
/// declaration can change what a statement does. A value converts without
/// ever raising an error (an error would roll the sync back): each cast is
/// guarded by the JSON type and range checks, and a timestamp is parsed by
/// `typed_timestamp`, the schema's function that turns any error into NULL.
/// A value stored as NULL although the record has one is a misfit, as is an
/// absent value of a column that is not nullable.
struct PostgresTypedTableSQL {
    let table: TypedTable

    /// PostgreSQL's longest name, in bytes (NAMEDATALEN - 1): a longer one is cut.
    static let maxNameLength = 63

    /// Where the records of a fill come from.
    enum Source {
        /// The records of the keys a transaction changed: its changes, seqs `seqs`.
        case changes(ClosedRange<Int64>)
        /// Every record of the resource (a rebuild).
        case all
        /// The records whose rows hold a NULL, or that have no rows in a
        /// child table: the only ones that can hold a misfit (a scan for one).
        case withNulls
    }

    // MARK: Tables

    /// The statements that make the tables (indexes come after the fill).
    var createTables: [String] {
        var statements = [
            "CREATE TABLE \(Self.name(table.name)) (\"key\" text PRIMARY KEY"
                + table.columns.map { ", \(Self.name($0.name)) \($0.type.postgresType)" }.joined()
                + ", \"updated_at\" timestamptz NOT NULL)"
        ]
        for list in table.lists {
            statements.append(
                "CREATE TABLE \(Self.name(table.tableName(of: list))) (\"key\" text NOT NULL, "
                    + "\"position\" integer NOT NULL"
                    + list.columns.map { ", \(Self.name($0.name)) \($0.type.postgresType)" }.joined()
                    + ", PRIMARY KEY (\"key\", \"position\"))")
        }
        return statements
    }

    /// The statements that make the index of each indexed column, `"<table>.<column>"`.
    var createIndexes: [String] {
        var statements: [String] = []
        func add(_ tableName: String, _ columns: [TypedColumn]) {
            for column in columns where column.indexed {
                statements.append(
                    "CREATE INDEX \(Self.name(Self.indexName(tableName, column.name))) ON \(Self.name(tableName)) "
                        + "(\(Self.name(column.name)))")
            }
        }
        add(table.name, table.columns)
        for list in table.lists { add(table.tableName(of: list), list.columns) }
        return statements
    }

    /// The statement that drops the tables (their indexes go with them).
    var dropTables: String {
        "DROP TABLE IF EXISTS " + table.tableNames.map(Self.name).joined(separator: ", ")
    }

    /// The statements that remove from each table the rows of the keys changed by `seqs`.
    func deleteRows(changedBy seqs: ClosedRange<Int64>) -> [String] {
        table.tableNames.map { name in
            "DELETE FROM \(Self.name(name)) WHERE \"key\" IN (SELECT key FROM changes WHERE resource = "
                + "\(Self.literal(table.resource)) AND seq BETWEEN \(seqs.lowerBound) AND \(seqs.upperBound))"
        }
    }

    /// The index of `column` of `tableName`: `"<table>.<column>"`, or when that
    /// is too long for PostgreSQL, its start and a digest of the whole (no two
    /// names are cut to the same).
    static func indexName(_ tableName: String, _ column: String) -> String {
        let whole = "\(tableName).\(column)"
        guard whole.utf8.count > maxNameLength else { return whole }
        // FNV-1a: stable across processes, unlike Hasher.
        var digest: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in whole.utf8 {
            digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let suffix = "~" + String(digest, radix: 16)
        var start = ""
        for character in whole where start.utf8.count + character.utf8.count + suffix.utf8.count <= maxNameLength {
            start.append(character)
        }
        return start + suffix
    }

    // MARK: The fill

    /// The statement that converts the records of `source` and, when
    /// `inserting`, writes their rows to the tables (which hold none of those
    /// keys). Its one row (none when every value fits) says how many misfits
    /// there were and where the first is: the parent table's first (its
    /// columns, then its lists that are no array), then each child table's,
    /// each in the order of the changes' seqs (for the other sources, of keys), then
    /// positions and columns: `misfits, key, tab, position, col` (see
    /// ``misfit(key:tab:position:col:)``).
    func fill(_ source: Source, inserting: Bool) -> String {
        let resource = Self.literal(table.resource)
        var ctes: [String] = []
        let from: String
        let order: String
        switch source {
        case .changes(let seqs):
            ctes.append(
                """
                keys AS (
                    SELECT key, max(seq) AS ord FROM changes
                    WHERE resource = \(resource) AND seq BETWEEN \(seqs.lowerBound) AND \(seqs.upperBound)
                    GROUP BY key
                )
                """)
            from = "keys AS k JOIN records AS r ON r.resource = \(resource) AND r.key = k.key"
            order = "k.ord"
        case .all:
            from = "records AS r"
            order = "0::bigint"
        case .withNulls:
            ctes.append("keys AS (\n" + candidates + "\n)")
            from = "keys AS k JOIN records AS r ON r.resource = \(resource) AND r.key = k.key"
            order = "0::bigint"
        }
        var bad: [String] = []
        // The parent's row: the converted values, a misfit flag each, and for each
        // list whether its member is there but no array.
        let values = table.columns.enumerated().map { index, column in
            (raw: "r.data #> \(Self.path(column.tokens)) AS v\(index)", column: column, index: index)
        }
        let listFlags = table.lists.enumerated().map { index, list in
            "coalesce(jsonb_typeof(r.data #> \(Self.path(list.tokens))), 'null') NOT IN ('array', 'null') AS l\(index)"
        }
        ctes.append(
            """
            parent AS (
                \(Self.converted(
                    values, carried: ["key", "ord", "updated_at"] + table.lists.indices.map { "l\($0)" },
                    from: "SELECT r.key, \(order) AS ord, r.updated_at"
                        + values.map { ", " + $0.raw }.joined() + listFlags.map { ", " + $0 }.joined()
                        + " FROM \(from) WHERE r.resource = \(resource)"))
            )
            """)
        if inserting {
            let names = ["\"key\""] + table.columns.map { Self.name($0.name) } + ["\"updated_at\""]
            let selected = ["key"] + table.columns.indices.map { "c\($0)" } + ["updated_at"]
            ctes.append(
                "parent_rows AS (INSERT INTO \(Self.name(table.name)) (\(names.joined(separator: ", "))) "
                    + "SELECT \(selected.joined(separator: ", ")) FROM parent)")
        }
        if !table.columns.isEmpty {
            bad.append(Self.misfitRows(of: "parent", columns: table.columns.count, tab: 0, position: "-1"))
        }
        for (index, list) in table.lists.enumerated() {
            bad.append("SELECT ord, key, \(index + 1) AS tab, -1 AS position, 0 AS col FROM parent WHERE l\(index)")
            let listValue = "r.data #> \(Self.path(list.tokens))"
            let elements = list.columns.enumerated().map { column, declared in
                (raw: "e.value #> \(Self.path(declared.tokens)) AS v\(column)", column: declared, index: column)
            }
            ctes.append(
                """
                list\(index) AS (
                    \(Self.converted(
                        elements, carried: ["key", "ord", "position"],
                        from: "SELECT r.key, \(order) AS ord, (e.ordinality - 1)::integer AS position"
                            + elements.map { ", " + $0.raw }.joined()
                            + " FROM \(from) CROSS JOIN LATERAL jsonb_array_elements(CASE WHEN "
                            + "jsonb_typeof(\(listValue)) = 'array' THEN \(listValue) END) WITH ORDINALITY AS e"
                            + " WHERE r.resource = \(resource)"))
                )
                """)
            if inserting {
                let names =
                    ["\"key\"", "\"position\""] + list.columns.map { Self.name($0.name) }
                let selected = ["key", "position"] + list.columns.indices.map { "c\($0)" }
                ctes.append(
                    "list\(index)_rows AS (INSERT INTO \(Self.name(table.tableName(of: list))) "
                        + "(\(names.joined(separator: ", "))) SELECT \(selected.joined(separator: ", ")) "
                        + "FROM list\(index))")
            }
            if !list.columns.isEmpty {
                bad.append(
                    Self.misfitRows(
                        of: "list\(index)", columns: list.columns.count, tab: index + 1, position: "position"))
            }
        }
        if bad.isEmpty {
            bad.append("SELECT 0::bigint AS ord, ''::text AS key, 0 AS tab, 0 AS position, 0 AS col WHERE false")
        }
        ctes.append("bad AS (\n" + bad.joined(separator: "\nUNION ALL\n") + "\n)")
        return "WITH " + ctes.joined(separator: ",\n") + "\n"
            + """
            SELECT count(*) OVER () AS misfits, key, tab, position, col FROM bad
            ORDER BY CASE WHEN position < 0 THEN 0 ELSE tab END, ord, key COLLATE "C", tab, position, col LIMIT 1
            """
    }

    /// The keys of the rows that hold a NULL in a column, of the parent's
    /// rows that have no rows in a child table, and of the child rows that
    /// hold a NULL: the records that can hold a misfit.
    private var candidates: String {
        var selects: [String] = []
        func withNull(_ tableName: String, _ columns: [TypedColumn]) {
            guard !columns.isEmpty else { return }
            selects.append(
                "SELECT \"key\" FROM \(Self.name(tableName)) WHERE "
                    + columns.map { "\(Self.name($0.name)) IS NULL" }.joined(separator: " OR "))
        }
        withNull(table.name, table.columns)
        for list in table.lists {
            let child = Self.name(table.tableName(of: list))
            selects.append(
                "SELECT p.\"key\" FROM \(Self.name(table.name)) AS p "
                    + "WHERE NOT EXISTS (SELECT 1 FROM \(child) AS c WHERE c.\"key\" = p.\"key\")")
            withNull(table.tableName(of: list), list.columns)
        }
        if selects.isEmpty { selects.append("SELECT NULL::text AS \"key\" WHERE false") }
        return selects.joined(separator: "\nUNION\n")
    }

    /// `SELECT` of the converted values `c<i>` and the misfit flags `m<i>` of
    /// `values`, read as `v<i>` by `from`, with the `carried` columns.
    private static func converted(
        _ values: [(raw: String, column: TypedColumn, index: Int)], carried: [String], from: String
    ) -> String {
        // OFFSET 0 keeps each level a subquery of its own, so that each value is
        // converted once (not again in its misfit flag).
        let conversions = values.map { ", \(conversion($0.column.type, "v\($0.index)")) AS c\($0.index)" }
        let absences = values.map { ", coalesce(jsonb_typeof(v\($0.index)), 'null') = 'null' AS n\($0.index)" }
        let flags = values.map { value in
            let index = value.index
            return value.column.nullable
                ? ", (c\(index) IS NULL AND NOT n\(index)) AS m\(index)" : ", c\(index) IS NULL AS m\(index)"
        }
        let kept = carried.joined(separator: ", ")
        return "SELECT \(kept)" + values.map { ", c\($0.index)" }.joined() + flags.joined()
            + " FROM (SELECT \(kept)" + conversions.joined() + absences.joined()
            + " FROM (\(from) OFFSET 0) AS raw OFFSET 0) AS typed"
    }

    /// The misfits of the rows of `cte`, with its flags `m0…m<columns-1>`.
    private static func misfitRows(of cte: String, columns: Int, tab: Int, position: String) -> String {
        let flags = (0..<columns).map { "m\($0)" }
        return "SELECT ord, key, \(tab) AS tab, \(position) AS position, m.col::integer AS col "
            + "FROM (SELECT * FROM \(cte) WHERE \(flags.joined(separator: " OR "))) AS t "
            + "CROSS JOIN LATERAL unnest(ARRAY[\(flags.joined(separator: ", "))]) WITH ORDINALITY AS m(bad, col) "
            + "WHERE m.bad"
    }

    /// The misfit a row of ``fill(_:inserting:)`` names.
    func misfit(key: String, tab: Int, position: Int, col: Int) -> ColumnMisfit? {
        if tab == 0 {
            guard table.columns.indices.contains(col - 1) else { return nil }
            let column = table.columns[col - 1]
            return ColumnMisfit(table: table.name, column: column.name, key: key, pointer: column.pointer)
        }
        guard table.lists.indices.contains(tab - 1) else { return nil }
        let list = table.lists[tab - 1]
        if position < 0 {
            // The list's member is not an array: a misfit of the list, in the parent's table.
            return ColumnMisfit(table: table.name, column: list.name, key: key, pointer: list.pointer)
        }
        guard list.columns.indices.contains(col - 1) else { return nil }
        let column = list.columns[col - 1]
        return ColumnMisfit(
            table: table.tableName(of: list), column: column.name, key: key,
            pointer: "\(list.pointer)/\(position)\(column.pointer)")
    }

    // MARK: Types and conversions

    /// The expression that converts `value`, a `jsonb` (NULL when absent), to
    /// `type`: NULL when it is absent, null, or does not fit. Nested CASEs
    /// order the checks before the casts (the order of AND is not guaranteed).
    static func conversion(_ type: ColumnType, _ value: String) -> String {
        switch type {
        case .text:
            return "CASE WHEN jsonb_typeof(\(value)) = 'string' THEN \(value) #>> '{}' END"
        case .integer:
            let number = "(\(value))::numeric"
            return "CASE WHEN jsonb_typeof(\(value)) = 'number' THEN CASE WHEN \(number) = trunc(\(number)) "
                + "AND \(number) BETWEEN -9223372036854775808 AND 9223372036854775807 THEN \(number)::bigint END END"
        case .real:
            // The cast reads the number's text with strtod (correctly
            // rounded) and refuses only a result of infinity or zero: from
            // 2^1024 - 2^970 up a number rounds to infinity, a misfit; below
            // 2^-1075 it rounds to zero, stored as zero. Subnormals in between
            // are stored as they are. Each bound is a little inside the exact
            // one: the few numbers between them and it, which would round to
            // the largest double or to the smallest subnormal, are a misfit or zero.
            let number = "(\(value))::numeric"
            return "CASE WHEN jsonb_typeof(\(value)) = 'number' THEN CASE "
                + "WHEN abs(\(number)) >= \(largestDouble) THEN NULL "
                + "WHEN abs(\(number)) < \(smallestDouble) THEN 0::double precision "
                + "ELSE \(number)::double precision END END"
        case .boolean:
            return "CASE WHEN jsonb_typeof(\(value)) = 'boolean' THEN (\(value))::boolean END"
        case .timestamp:
            // Years 0001 to 9999, as text or as Unix seconds. Only a text of the
            // right shape reaches the function, whose exception handler costs a
            // subtransaction: it catches what the pattern lets through (2024-02-30).
            let number = "(\(value))::numeric"
            let text = "(\(value) #>> '{}')"
            // The seconds are rounded to the microsecond (timestamptz's
            // precision) before the cast to double, which would refuse a
            // number that rounds to zero (1e-400). The range keeps to_timestamp
            // within its own.
            return "CASE jsonb_typeof(\(value)) WHEN 'number' THEN CASE WHEN \(number) >= -62135596800 "
                + "AND \(number) < 253402300800 THEN to_timestamp(round(\(number), 6)::double precision) END "
                + "WHEN 'string' THEN CASE WHEN \(text) ~ \(literal(isoDateTime)) THEN typed_timestamp(\(text)) END END"
        case .json:
            return "CASE WHEN jsonb_typeof(\(value)) <> 'null' THEN \(value) END"
        }
    }

    /// Numbers of this magnitude or more round to infinity as doubles (the
    /// bound is 2^1024 - 2^970, 1.79769313486231580793…e308, cut short).
    static let largestDouble = "1.7976931348623158079e308"
    /// Numbers of a smaller magnitude round to zero as doubles (the bound is
    /// 2^-1075, 2.47032822920623272088…e-324, rounded up).
    static let smallestDouble = "2.4703282292062328e-324"

    /// The date-times SQLite's conversion reads too (docs/configuration.md#typed-columns):
    /// `YYYY-MM-DD`, optionally `T` or a space and `HH:MM`, `:SS` (no leap
    /// second) and a fraction, then `Z` (or `z`, which SQLite reads too) or
    /// `±HH:MM` of at most 14 hours, colon required. The values of the fields
    /// (`2024-02-30`, hour 25) are `typed_timestamp`'s to check.
    static let isoDateTime =
        #"^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-5][0-9](:[0-5][0-9](\.[0-9]+)?)?([Zz]|[+-](0[0-9]|1[0-4]):[0-5][0-9])?)?$"#

    // MARK: Quoting

    /// `identifier` double-quoted, each double quote doubled.
    static func name(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `text` as a string constant: an escape string (`E'…'`), its quotes and
    /// backslashes doubled, which means the same whatever
    /// `standard_conforming_strings` says.
    static func literal(_ text: String) -> String {
        "E'" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The `text[]` path of `tokens` for `#>`: a token of digits indexes an array.
    static func path(_ tokens: [String]) -> String {
        tokens.isEmpty ? "'{}'::text[]" : "ARRAY[" + tokens.map(literal).joined(separator: ", ") + "]::text[]"
    }
}
