extension ColumnType {
    /// The column's declared type in SQLite (docs/api.md#the-columns-of-a-resource-get-v1resourcesnamecolumns):
    /// the affinity SQLite gives the name keeps the values as the agent writes
    /// them, and tools read the name. A `json` column is `TEXT` holding JSON text.
    public var sqliteType: String {
        switch self {
        case .text, .json: "TEXT"
        case .integer: "INTEGER"
        case .real: "REAL"
        case .boolean: "BOOLEAN"
        case .timestamp: "TIMESTAMP"
        }
    }

    /// The column's type in PostgreSQL (docs/api.md#the-columns-of-a-resource-get-v1resourcesnamecolumns).
    public var postgresType: String {
        switch self {
        case .text: "text"
        case .integer: "bigint"
        case .real: "double precision"
        case .boolean: "boolean"
        case .timestamp: "timestamptz"
        case .json: "jsonb"
        }
    }
}
