import Store
import SyncCore

/// The answer of `GET /v1/resources/NAME/columns`
/// (docs/api.md#the-columns-of-a-resource-get-v1resourcesnamecolumns): the typed
/// table a resource declares in the configuration in force, each column with
/// its type in both stores, and the first value a sync stored as NULL because
/// it did not fit.
package struct ColumnsAnswer: Sendable, Hashable, Codable {
    /// One declared column, and what it is in each store.
    package struct Column: Sendable, Hashable, Codable {
        /// The column's name.
        package var name: String
        /// The JSON pointer to its member, as written (into each element, for a list's column).
        package var pointer: String
        /// Its declared type.
        package var type: ColumnType
        /// Whether a record may lack the member.
        package var nullable: Bool
        /// Whether it has an index.
        package var indexed: Bool
        /// Its declared type in SQLite.
        package var sqlite: String
        /// Its type in PostgreSQL.
        package var postgres: String

        package init(_ column: TypedColumn) {
            name = column.name
            pointer = column.pointer
            type = column.type
            nullable = column.nullable
            indexed = column.indexed
            sqlite = column.type.sqliteType
            postgres = column.type.postgresType
        }
    }

    /// A declared nested list: its child table and its element's columns.
    package struct List: Sendable, Hashable, Codable {
        /// The list's name.
        package var name: String
        /// The pointer to the list in a record.
        package var pointer: String
        /// Its child table, `<resource>__<name>`.
        package var table: String
        /// The element's columns.
        package var columns: [Column]
    }

    /// The resource's name, and its table's.
    package var resource: String
    /// The resource's table, then its child tables.
    package var tables: [String]
    /// The resource's declared columns, in order.
    package var columns: [Column]
    /// Its declared nested lists, in order.
    package var lists: [List]
    /// The first value a sync stored as NULL because it did not fit, until
    /// that record fits again; `nil` when none.
    package var misfit: ColumnMisfit?

    /// The answer for `table`, with the misfit the resource's status shows.
    package init(table: TypedTable, misfit: ColumnMisfit?) {
        resource = table.resource
        tables = table.tableNames
        columns = table.columns.map(Column.init)
        lists = table.lists.map { list in
            List(
                name: list.name, pointer: list.pointer, table: table.tableName(of: list),
                columns: list.columns.map(Column.init))
        }
        self.misfit = misfit
    }
}
