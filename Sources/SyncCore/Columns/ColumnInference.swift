import Store

/// Infers a resource's `columns` declaration from its records
/// (docs/cli.md#columns), as `sync-agent columns` shows it: records are
/// added one at a time, so memory grows with the members seen, not with the
/// records.
///
/// - Each member of a record is a column; a nested object's members are
///   columns too (`/customer/email` is `customer_email`), down to
///   ``maxDepth`` members deep, below which an object is `json`.
/// - An array of objects is a nested list, its elements' members inferred the
///   same way; a list inside a list's elements, or an array of other values,
///   is `json`.
/// - A member's type fits every value it held: `text` (`timestamp` when every
///   string is an ISO 8601 date-time), `integer` (every number whole), else
///   `real`, `boolean`. Values of two kinds, or only ever null, make it
///   `json`, with a note.
/// - `"nullable": false` when every record holds the member, not null.
package struct ColumnInference: Sendable {
    /// The deepest member a column reads: `/a/b/c`.
    static let maxDepth = 3
    /// The most members a nested object may have, over all records, to be
    /// flattened: more is a map (`{"<id>": …}`), kept as `json`.
    static let maxWidth = 100
    /// The most members one table tracks, for memory; of them, a table
    /// declares at most ``ColumnNames/maxColumns`` columns.
    static let maxMembers = 1_000

    /// The resource.
    package let resource: String
    /// The tables other resources make, or would: a nested list's table must not be one.
    private let otherTables: Set<String>
    /// How many records were added.
    private(set) var records = 0
    /// How many of them were not JSON objects.
    private var notObjects = 0
    /// What the records held.
    private var shape = ObjectShape()
    private var budget = ColumnBudget()
    /// The objects seen, to number each.
    private var visits = 0

    /// Starts an inference for `resource`, whose nested lists' tables must
    /// not be named like any of `otherTables`.
    package init(resource: String, otherTables: Set<String> = []) {
        self.resource = resource
        self.otherTables = otherTables
    }

    /// Adds one record.
    package mutating func add(_ record: JSONValue) {
        records += 1
        guard case .object(let members) = record else {
            notObjects += 1
            return
        }
        visits += 1
        shape.add(members, depth: 1, inList: false, visit: visits, visits: &visits, budget: &budget)
    }

    /// Adds one record given as JSON text; one that is not JSON counts as not an object.
    package mutating func add(data: String) {
        add((try? JSONValue(parsing: Array(data.utf8))) ?? .null)
    }

    /// The declaration the records added so far make, with its notes.
    package var result: InferredColumns {
        var notes: [InferredColumns.Note] = []
        if records == 0 {
            notes.append(
                .init(
                    pointer: "",
                    message: "no records of \(resource) are stored yet: run `sync-agent refresh \(resource)` first"))
        }
        if let problem = ColumnNames.tableProblem(resource) {
            notes.append(
                .init(pointer: "", message: "the table takes the resource's name, and \"\(resource)\" \(problem)"))
        }
        if notObjects > 0 {
            let count = InferredColumns.grouped(notObjects)
            notes.append(
                .init(
                    pointer: "",
                    message: "\(count) record\(notObjects == 1 ? " is" : "s are") not a JSON object, with no members"))
        }
        var table = TableBuilder(inference: self, total: records, unit: "record", inList: false, notePrefix: "")
        table.add(shape, under: [])
        if budget.overflowed { notes.append(.init(pointer: "", message: Self.overflowMessage)) }
        if let cap = table.capNote(at: "") { notes.append(cap) }
        if records > notObjects, table.entries.isEmpty {
            notes.append(.init(pointer: "", message: "the records hold no member to declare"))
        }
        return InferredColumns(resource: resource, records: records, entries: table.entries, notes: notes + table.notes)
    }

    static let overflowMessage =
        "more than \(InferredColumns.grouped(maxMembers)) different members: those first seen after them are left out"

    /// Builds the entries of one table from its shape, naming each column.
    private struct TableBuilder {
        let inference: ColumnInference
        /// How many objects the table's rows come from: records, or a list's elements.
        let total: Int
        /// What they are, for notes: `record`, `element`.
        let unit: String
        let inList: Bool
        /// What notes' pointers start with: a list's pointer and `/*` in its elements.
        let notePrefix: String
        var naming: ColumnNaming
        private(set) var entries: [InferredColumns.Entry] = []
        private(set) var notes: [InferredColumns.Note] = []
        /// How many of the entries are columns (not nested lists), and how
        /// many more members were left out past ``ColumnNames/maxColumns``.
        private var columnCount = 0
        private var leftOut = 0

        init(inference: ColumnInference, total: Int, unit: String, inList: Bool, notePrefix: String) {
            self.inference = inference
            self.total = total
            self.unit = unit
            self.inList = inList
            self.notePrefix = notePrefix
            naming = ColumnNaming(inList: inList)
        }

        /// Adds the entries of the members of `shape`, which sits at `tokens`.
        mutating func add(_ shape: ObjectShape, under tokens: [String]) {
            for member in shape.members {
                add(member, at: tokens + [member.name])
            }
        }

        private mutating func add(_ member: MemberShape, at tokens: [String]) {
            let pointer = JSONPointer(tokens: tokens).description
            switch ColumnNames.tokenProblem(member.name) {
            case .doubleQuote:
                note(pointer, "its name holds a double quote, which no declared pointer may: left out")
                return
            case .controlCharacter:
                note(pointer, "its name holds a control character, which no declared pointer may: left out")
                return
            case .ambiguousNumber:
                note(
                    pointer,
                    "its name is a number with a leading zero or a minus sign, which the stores read differently "
                        + "in a pointer: left out")
                return
            case nil: break
            }
            let nullable = member.present < total
            let kinds = member.kinds
            guard kinds.count == 1, let kind = kinds.first?.kind else {
                let message =
                    kinds.isEmpty
                    ? "only ever null (in \(count(member.nulls, of: total))): declared json"
                    : "holds " + describe(kinds) + ": declared json"
                column(tokens, .json, nullable: nullable, note: message)
                return
            }
            switch kind {
            case .string: column(tokens, member.allDateTimes ? .timestamp : .text, nullable: nullable)
            case .number: column(tokens, member.allWhole ? .integer : .real, nullable: nullable)
            case .boolean: column(tokens, .boolean, nullable: nullable)
            case .object:
                if member.tooWide {
                    column(
                        tokens, .json, nullable: nullable,
                        note: "holds more than \(ColumnInference.maxWidth) different members, like a map: declared json"
                    )
                } else if tokens.count >= ColumnInference.maxDepth {
                    column(tokens, .json, nullable: nullable)
                } else if member.nested.members.isEmpty {
                    column(tokens, .json, nullable: nullable, note: "only ever an empty object: declared json")
                } else {
                    add(member.nested, under: tokens)
                }
            case .array:
                addArray(member, at: tokens, nullable: nullable)
            }
        }

        private mutating func addArray(_ member: MemberShape, at tokens: [String], nullable: Bool) {
            if member.elements == 0 {
                column(tokens, .json, nullable: nullable, note: "only ever an empty array: declared json")
            } else if member.objectElements == 0 {
                column(tokens, .json, nullable: nullable)
            } else if member.otherElements > 0 {
                column(
                    tokens, .json, nullable: nullable,
                    note: "holds arrays of objects mixed with other values: declared json")
            } else if inList {
                column(
                    tokens, .json, nullable: nullable,
                    note: "a list in a list's elements: declared json (lists nest one level)")
            } else {
                addList(member, at: tokens, nullable: nullable)
            }
        }

        private mutating func addList(_ member: MemberShape, at tokens: [String], nullable: Bool) {
            let pointer = JSONPointer(tokens: tokens).description
            var elements = TableBuilder(
                inference: inference, total: member.objectElements + member.nullElements, unit: "element",
                inList: true, notePrefix: pointer + "/*")
            elements.add(member.elementShape, under: [])
            let columns = elements.entries.compactMap { entry -> InferredColumns.Column? in
                guard case .column(let column) = entry else { return nil }
                return column
            }
            let resource = inference.resource
            let room = ColumnNames.maxLength - resource.utf8.count - 2
            guard !columns.isEmpty else {
                notes += elements.notes
                column(tokens, .json, nullable: nullable, note: "its elements hold no member to declare: declared json")
                return
            }
            guard
                let name = naming.name(
                    for: tokens, maxLength: room, isFree: { !inference.otherTables.contains("\(resource)__\($0)") })
            else {
                column(
                    tokens, .json, nullable: nullable,
                    note: "a nested list here would make a table name longer than \(ColumnNames.maxLength) "
                        + "bytes: declared json")
                return
            }
            entries.append(.list(.init(name: name, pointer: pointer, columns: columns)))
            notes += elements.notes
            if member.elementBudget.overflowed { note(pointer, ColumnInference.overflowMessage) }
            if let cap = elements.capNote(at: notePrefix + pointer) { notes.append(cap) }
        }

        /// Declares the member at `tokens` a column, with a note if there is one.
        private mutating func column(
            _ tokens: [String], _ type: ColumnType, nullable: Bool, note message: String? = nil
        ) {
            let pointer = JSONPointer(tokens: tokens).description
            guard columnCount < ColumnNames.maxColumns else {
                leftOut += 1
                return
            }
            guard let name = naming.name(for: tokens) else {
                note(pointer, "no valid column name is left for it: left out")
                return
            }
            entries.append(.column(.init(name: name, pointer: pointer, type: type, nullable: nullable)))
            columnCount += 1
            if let message { note(pointer, message) }
        }

        /// The note on the members left out past ``ColumnNames/maxColumns``, if any were, at `pointer`.
        func capNote(at pointer: String) -> InferredColumns.Note? {
            guard leftOut > 0 else { return nil }
            return .init(
                pointer: pointer,
                message: "\(InferredColumns.grouped(leftOut)) more member\(leftOut == 1 ? " is" : "s are") left out: "
                    + "at most \(ColumnNames.maxColumns) columns per table; declare the rest as one json column")
        }

        private mutating func note(_ pointer: String, _ message: String) {
            notes.append(.init(pointer: notePrefix + pointer, message: message))
        }

        /// `3 records`, `1 element`.
        private func count(_ number: Int, of total: Int? = nil) -> String {
            let shown = total.map { "\(InferredColumns.grouped(number)) of \(InferredColumns.grouped($0))" }
            let last = total ?? number
            return (shown ?? InferredColumns.grouped(number)) + " \(unit)" + (last == 1 ? "" : "s")
        }

        /// `a string in 3 records and a number in 2`.
        private func describe(_ kinds: [(kind: MemberShape.ValueKind, count: Int)]) -> String {
            let parts = kinds.enumerated().map { index, kind in
                "\(kind.kind) in " + (index == 0 ? count(kind.count) : InferredColumns.grouped(kind.count))
            }
            return parts.dropLast().joined(separator: ", ") + " and " + parts.last!
        }
    }
}

extension ColumnInference {
    /// Adds every record of the resource stored in `store`, `pageSize` at a
    /// time in the order of their keys.
    package mutating func add(recordsIn store: any SyncStore, pageSize: Int = 1_000) async throws(StoreError) {
        var after: String?
        while true {
            let page = try await store.records(of: resource, after: after, limit: pageSize)
            for record in page { add(data: record.data) }
            guard page.count == pageSize, let last = page.last else { return }
            after = last.key
        }
    }
}
