import Store

/// The names typed tables and their columns may take
/// (docs/configuration.md#typed-columns): plain SQL identifiers that readers
/// can write without quotes in SQLite and in PostgreSQL, and that name none of
/// the agent's own tables or columns.
enum ColumnNames {
    /// PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1).
    static let maxLength = 63

    /// The columns every typed table has.
    static let tableColumns: Set<String> = ["key", "updated_at"]
    /// The columns every child table has.
    static let childColumns: Set<String> = ["key", "position"]

    /// The system columns PostgreSQL gives every table: CREATE TABLE refuses a
    /// column of one of these names (and GIS APIs send `xmin`, `xmax`).
    static let systemColumns: Set<String> = ["xmin", "xmax", "cmin", "cmax", "ctid", "tableoid"]

    /// Why `name` cannot be a column's name, if it cannot.
    static func columnProblem(_ name: String, inList: Bool) -> String? {
        if let problem = identifierProblem(name) { return problem }
        if systemColumns.contains(name) { return "is a column PostgreSQL gives every table: choose another name" }
        let own = inList ? childColumns : tableColumns
        if own.contains(name) {
            return "is a column every \(inList ? "child " : "")table has ("
                + own.sorted().joined(separator: ", ") + "): choose another name"
        }
        return nil
    }

    /// Why a table cannot be named `name`, if it cannot.
    static func tableProblem(_ name: String) -> String? {
        if let problem = identifierProblem(name) { return problem + "; rename the resource" }
        if TypedTable.reservedNames.contains(name) || name.hasPrefix("sqlite_") || name.hasPrefix("pg_") {
            return "is the name of one of the agent's tables or indexes; rename the resource"
        }
        return nil
    }

    /// Why `name` is not a plain SQL identifier, if it is not.
    static func identifierProblem(_ name: String) -> String? {
        let scalars = name.unicodeScalars
        guard let first = scalars.first else { return "is empty" }
        let plain =
            (first.isASCIILowercase || first == "_")
            && scalars.allSatisfy { $0.isASCIILowercase || $0.isASCIIDigit || $0 == "_" }
        if !plain {
            return "is not a plain SQL identifier: use a-z, 0-9 and \"_\", not starting with a digit "
                + "(PostgreSQL folds unquoted names to lower case)"
        }
        if name.utf8.count > maxLength { return "is longer than \(maxLength) bytes" }
        if keywords.contains(name) { return "is an SQL keyword, which readers would have to quote" }
        return nil
    }

    /// The most columns a table may declare: SQLite's limit on the depth of
    /// an expression is reached near 1,000 by the query that counts misfits.
    static let maxColumns = 500

    /// Why a declared pointer cannot hold a member's name.
    enum TokenProblem: Sendable, Hashable {
        /// It holds `"`, which quotes a member's name in SQLite's JSON paths.
        case doubleQuote
        /// It holds a control character (NUL, which PostgreSQL's text cannot hold…).
        case controlCharacter
        /// A number with a leading zero (`01`) or a minus sign (`-1`): on an
        /// array, PostgreSQL reads it as an index (`-1` the last element), the
        /// SQLite store not.
        case ambiguousNumber
    }

    /// Why a declared pointer cannot hold the reference token `token`, if it cannot.
    static func tokenProblem(_ token: String) -> TokenProblem? {
        if token.contains("\"") { return .doubleQuote }
        if token.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return .controlCharacter
        }
        let negative = token.hasPrefix("-")
        let number = negative ? token.utf8.dropFirst() : token.utf8[...]
        let isNumber = !number.isEmpty && number.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        if isNumber, negative || (number.first == UInt8(ascii: "0") && number.count > 1) { return .ambiguousNumber }
        return nil
    }

    /// Reports each table two resources would both make (`a__b` of resource
    /// `a`'s list `b`, and a resource named `a__b`).
    static func checkClashes(_ resources: [(String, ResourceConfig)], in context: ConfigContext) {
        var first: [String: String] = [:]
        for (path, resource) in resources {
            guard let table = resource.table else { continue }
            for name in table.tableNames {
                if let other = first[name] {
                    context.reader.report(
                        "\(path).columns", "makes the table \"\(name)\", which \(other) makes too: rename one")
                } else {
                    first[name] = path
                }
            }
        }
    }

    /// Keywords reserved by PostgreSQL (up to 16: `system_user`) or SQLite (or
    /// both): a column of such a name would need quotes in every query.
    static let keywords: Set<String> = [
        "abort", "add", "all", "alter", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric",
        "attach", "authorization", "autoincrement", "before", "begin", "between", "binary", "both", "by",
        "cascade", "case", "cast", "check", "collate", "collation", "column", "commit", "concurrently",
        "conflict", "constraint", "create", "cross", "current_catalog", "current_date", "current_role",
        "current_schema", "current_time", "current_timestamp", "current_user", "database", "default",
        "deferrable", "delete", "desc", "detach", "distinct", "do", "drop", "else", "end", "escape", "except",
        "exclusive", "exists", "explain", "false", "fetch", "filter", "for", "foreign", "freeze", "from", "full",
        "glob", "grant", "group", "having", "if", "ilike", "in", "index", "indexed", "initially", "inner", "insert",
        "instead", "intersect", "into", "is", "isnull", "join", "lateral", "leading", "left", "like", "limit",
        "localtime", "localtimestamp", "match", "natural", "not", "nothing", "notnull", "null", "offset", "on",
        "only", "or", "order", "outer", "over", "overlaps", "placing", "pragma", "primary", "raise", "references",
        "regexp", "reindex", "release", "rename", "replace", "returning", "right", "rollback", "rowid",
        "savepoint", "select", "session_user", "set", "similar", "some", "symmetric", "system_user", "table",
        "tablesample", "temp", "temporary", "then", "to", "trailing", "transaction", "trigger", "true", "union",
        "unique", "update", "user", "using", "vacuum", "values", "variadic", "verbose", "view", "virtual", "when",
        "where", "window", "with",
    ]
}
