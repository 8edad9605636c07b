import Store

/// A `columns` declaration inferred from a resource's stored records
/// (docs/cli.md#columns), with what the person should know before pasting it.
package struct InferredColumns: Sendable, Hashable {
    /// The resource.
    package var resource: String
    /// How many records it was inferred from.
    package var records: Int
    /// The declaration's entries, in the order their members were first seen.
    package var entries: [Entry]
    /// What the declaration cannot show: conflicting types, members only ever
    /// null, members left out.
    package var notes: [Note]

    /// Creates an inferred declaration.
    package init(resource: String, records: Int, entries: [Entry], notes: [Note]) {
        self.resource = resource
        self.records = records
        self.entries = entries
        self.notes = notes
    }

    /// An entry of the declaration: a column, or a nested list.
    package enum Entry: Sendable, Hashable {
        case column(Column)
        case list(List)
    }

    /// A column: `{"name", "pointer", "type"}`, and `"nullable": false` when
    /// every record holds the member.
    package struct Column: Sendable, Hashable {
        /// The column's name.
        package var name: String
        /// The pointer to the member, as written in the declaration.
        package var pointer: String
        /// Its type.
        package var type: ColumnType
        /// Whether some record lacks the member or holds null.
        package var nullable: Bool

        /// Creates a column.
        package init(name: String, pointer: String, type: ColumnType, nullable: Bool = true) {
            self.name = name
            self.pointer = pointer
            self.type = type
            self.nullable = nullable
        }
    }

    /// A nested list: `{"name", "pointer", "columns"}`, its columns read from each element.
    package struct List: Sendable, Hashable {
        /// The list's name (its table is `<resource>__<name>`).
        package var name: String
        /// The pointer to the list in a record.
        package var pointer: String
        /// The element's columns.
        package var columns: [Column]

        /// Creates a nested list.
        package init(name: String, pointer: String, columns: [Column]) {
            self.name = name
            self.pointer = pointer
            self.columns = columns
        }
    }

    /// Something the person should know about a member, at its pointer (in
    /// a nested list's elements, `*` stands for each position:
    /// `/line_items/*/price`); the empty pointer is about the whole resource.
    package struct Note: Sendable, Hashable {
        /// Where.
        package var pointer: String
        /// What, as a sentence without its full stop.
        package var message: String

        /// Creates a note.
        package init(pointer: String, message: String) {
            self.pointer = pointer
            self.message = message
        }

        /// The note as `columns` writes it to a terminal: `note: /code: …`, a
        /// control character of the pointer written as `\u{1b}`.
        package var line: String {
            guard !pointer.isEmpty else { return "note: \(message)" }
            var shown = ""
            for scalar in pointer.unicodeScalars {
                if scalar.properties.generalCategory == .control {
                    shown += "\\u{" + String(scalar.value, radix: 16) + "}"
                } else {
                    shown.unicodeScalars.append(scalar)
                }
            }
            return "note: \(shown): \(message)"
        }
    }
}

extension InferredColumns {
    /// The `"columns": [...]` member to paste into the resource: one column per
    /// line; `nil` when there is no entry, as the configuration takes no empty list.
    package var declarationText: String? {
        guard !entries.isEmpty else { return nil }
        var lines = [#""columns": ["#]
        for (index, entry) in entries.enumerated() {
            let comma = index < entries.count - 1 ? "," : ""
            switch entry {
            case .column(let column):
                lines.append("  " + Self.line(column.json) + comma)
            case .list(let list):
                lines.append(
                    #"  {"name": \#(JSONValue.string(list.name).serialized()), "pointer": "#
                        + JSONValue.string(list.pointer).serialized() + #", "columns": ["#)
                for (position, column) in list.columns.enumerated() {
                    let end = position < list.columns.count - 1 ? "," : "]}" + comma
                    lines.append("    " + Self.line(column.json) + end)
                }
            }
        }
        lines.append("]")
        return lines.joined(separator: "\n")
    }

    /// The machine form of `columns --json`: `{"resource", "records",
    /// "columns", "notes"}`, `columns` being the declaration itself (empty when
    /// there is nothing to declare).
    package var json: JSONValue {
        .object([
            .init("resource", .string(resource)),
            .init("records", .number(records)),
            .init("columns", .array(entries.map(\.json))),
            .init(
                "notes",
                .array(
                    notes.map {
                        .object([.init("pointer", .string($0.pointer)), .init("message", .string($0.message))])
                    })),
        ])
    }

    /// The one-line summary: `inferred from 1,234 records of orders`.
    package var summary: String {
        "inferred from \(Self.grouped(records)) record\(records == 1 ? "" : "s") of \(resource)"
    }

    /// `count` with its thousands separated by commas: `1,234,567`.
    static func grouped(_ count: Int) -> String {
        let digits = String(count.magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return (count < 0 ? "-" : "") + text
    }

    /// An object of scalars on one line, as people write it: `{"name": "total", "type": "real"}`.
    private static func line(_ value: JSONValue) -> String {
        guard case .object(let members) = value else { return value.serialized() }
        return "{"
            + members.map { "\(JSONValue.string($0.name).serialized()): \($0.value.serialized())" }
            .joined(separator: ", ") + "}"
    }
}

extension InferredColumns.Entry {
    /// The entry as declared.
    var json: JSONValue {
        switch self {
        case .column(let column): column.json
        case .list(let list):
            .object([
                .init("name", .string(list.name)), .init("pointer", .string(list.pointer)),
                .init("columns", .array(list.columns.map(\.json))),
            ])
        }
    }
}

extension InferredColumns.Column {
    /// The column as declared: `nullable` only when `false`, the default being `true`.
    var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("name", .string(name)), .init("pointer", .string(pointer)), .init("type", .string(type.rawValue)),
        ]
        if !nullable { members.append(.init("nullable", .bool(false))) }
        return .object(members)
    }
}
