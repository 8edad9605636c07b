import Foundation

/// The typed table of a resource that declares `columns`
/// (docs/schema.md#typed-tables): its records' declared members as named,
/// typed columns beside the key and `updated_at`, and a child table for each
/// declared nested list.
///
/// A store keeps each declared table in the transaction that changes the
/// resource's records, from the records it wrote, so readers see the table
/// change with `records`: old or new, never a mix. `records.data` stays the
/// source of truth; a table is rebuilt from it, never from the API.
public struct TypedTable: Sendable, Hashable, Codable {
    /// The resource, and the table's name.
    public var resource: String
    /// The declared columns, in order.
    public var columns: [TypedColumn]
    /// The declared nested lists, each a child table.
    public var lists: [ChildTable]

    /// Creates a declaration.
    public init(resource: String, columns: [TypedColumn], lists: [ChildTable] = []) {
        self.resource = resource
        self.columns = columns
        self.lists = lists
    }

    /// The table's name: the resource's.
    public var name: String { resource }

    /// The name of the child table of `list`: `<resource>__<list>`.
    public func tableName(of list: ChildTable) -> String { "\(resource)__\(list.name)" }

    /// Every table the declaration makes: the resource's, then its children's.
    public var tableNames: [String] { [name] + lists.map(tableName(of:)) }
}

/// One declared column of a typed table.
public struct TypedColumn: Sendable, Hashable, Codable {
    /// The column's name: a plain SQL identifier, checked by the configuration.
    public var name: String
    /// The JSON pointer (RFC 6901) to the member, as written, for messages.
    public var pointer: String
    /// The pointer's reference tokens, unescaped (`/a~1b` is `["a/b"]`); empty
    /// for the whole value (a child table's element itself).
    public var tokens: [String]
    /// The column's type.
    public var type: ColumnType
    /// Whether a record may lack the member: when `false`, an absent or null
    /// member is counted as a misfit.
    public var nullable: Bool
    /// Whether the column has an index.
    public var indexed: Bool

    /// Creates a column.
    public init(
        name: String, pointer: String, tokens: [String], type: ColumnType, nullable: Bool = true,
        indexed: Bool = false
    ) {
        self.name = name
        self.pointer = pointer
        self.tokens = tokens
        self.type = type
        self.nullable = nullable
        self.indexed = indexed
    }
}

/// A declared nested list: one row per element, in `<resource>__<name>`, with
/// the parent record's `key`, the element's `position` (from 0) and the
/// declared columns, read from the element.
public struct ChildTable: Sendable, Hashable, Codable {
    /// The list's name, the suffix of its table's name.
    public var name: String
    /// The pointer to the list in a record, as written.
    public var pointer: String
    /// The pointer's tokens, unescaped.
    public var tokens: [String]
    /// The element's columns: their pointers are into each element.
    public var columns: [TypedColumn]

    /// Creates a child table's declaration.
    public init(name: String, pointer: String, tokens: [String], columns: [TypedColumn]) {
        self.name = name
        self.pointer = pointer
        self.tokens = tokens
        self.columns = columns
    }
}

/// The type of a typed column, and what fits it. A value that does not fit is
/// stored as NULL and counted (``ColumnMisfit``), never a failure.
public enum ColumnType: String, Sendable, Hashable, Codable, CaseIterable {
    /// A JSON string.
    case text
    /// A JSON number with no fraction (`3`, `3.0`, `3e2`) within 64 bits.
    case integer
    /// A JSON number.
    case real
    /// `true` or `false`.
    case boolean
    /// An ISO 8601 (RFC 3339) date-time string, UTC when it names no zone, or
    /// a number of Unix seconds.
    case timestamp
    /// Any JSON value, kept as JSON.
    case json
}

/// A value a sync stored as NULL because it did not fit its column: the
/// first one is shown in status until that record fits again.
public struct ColumnMisfit: Sendable, Hashable, Codable {
    /// The table of the column (the resource's, or a child table).
    public var table: String
    /// The column.
    public var column: String
    /// The key of the record that holds the value.
    public var key: String
    /// The pointer to the value in the record (for a child table, the list's
    /// pointer, the element's position and the column's pointer).
    public var pointer: String

    /// Creates a misfit.
    public init(table: String, column: String, key: String, pointer: String) {
        self.table = table
        self.column = column
        self.key = key
        self.pointer = pointer
    }
}

/// What keeping a typed table did in one transaction.
public struct TypedTableWrite: Sendable, Hashable {
    /// Values stored as NULL because they did not fit their column.
    public var misfits: Int
    /// The first misfit the table holds now, if any (it stays until its
    /// record fits or is gone).
    public var firstMisfit: ColumnMisfit?

    /// Creates the description of a write.
    public init(misfits: Int = 0, firstMisfit: ColumnMisfit? = nil) {
        self.misfits = misfits
        self.firstMisfit = firstMisfit
    }
}

/// What ``SyncStore/declareTables(_:)`` did.
public struct TableDeclarations: Sendable, Hashable {
    /// The resources whose tables were created or rebuilt from their records.
    public var rebuilt: [String] = []
    /// The resources whose tables were dropped (no longer declared).
    public var dropped: [String] = []
    /// The state of each declared table after it: its first misfit.
    public var misfits: [String: ColumnMisfit] = [:]
    /// The resources whose tables could not be made, with why (a table of
    /// that name that the agent did not make, say): their records are kept
    /// without a typed table.
    public var failed: [String: String] = [:]

    /// Creates an empty description.
    public init(
        rebuilt: [String] = [], dropped: [String] = [], misfits: [String: ColumnMisfit] = [:],
        failed: [String: String] = [:]
    ) {
        self.rebuilt = rebuilt
        self.dropped = dropped
        self.misfits = misfits
        self.failed = failed
    }
}

extension TypedTable {
    /// The names a typed table may not take: the agent's own tables, and its
    /// indexes and sequences, which share the tables' names in PostgreSQL (the
    /// indexes its primary keys and identity columns make too), in both stores.
    public static let reservedNames: Set<String> = {
        let tables: Set<String> = [
            "records", "resources", "sync_runs", "sync_runs_new", "changes", "cursors", "pages", "feed_state",
            "oauth2_refresh_tokens", "leases", "agents", "typed_tables", "migrations", "snapshots", "staging",
            "grdb_migrations",
        ]
        let indexes: Set<String> = [
            "records_by_update", "changes_by_resource", "sync_runs_by_resource", "sync_runs_running",
            "sync_runs_id_seq", "snapshots_id_seq",
        ]
        return tables.union(indexes).union(tables.map { $0 + "_pkey" })
    }()

    /// The declaration as stored in `typed_tables.declaration`: a change to it
    /// rebuilds the table.
    public var declarationText: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, booleans and arrays cannot fail.
        return (try? String(decoding: encoder.encode(self), as: UTF8.self)) ?? ""
    }
}
