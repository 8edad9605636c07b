import Store

extension TypedTable {
    /// `columns` of resource `resource` (docs/configuration.md#typed-columns):
    /// a list of columns, each `name`, `pointer`, `type`, and optionally
    /// `nullable` and `indexed`, or a nested list, `name`, `pointer` and its
    /// own `columns`; `nil` when it has a problem.
    static func load(
        _ value: JSONValue, at path: String, resource: String?, in context: ConfigContext
    ) -> TypedTable? {
        let reader = context.reader
        let problems = reader.problems.count
        if let resource, let problem = ColumnNames.tableProblem(resource) {
            reader.report(path, "makes a table named after the resource, and \"\(resource)\" \(problem)")
        }
        let (columns, lists) = loadEntries(value, at: path, inList: false, in: context)
        if let resource {
            for list in lists {
                let table = "\(resource)__\(list.name)"
                if table.utf8.count > ColumnNames.maxLength {
                    reader.report(
                        path,
                        "makes the table \"\(table)\", longer than \(ColumnNames.maxLength) bytes: shorten "
                            + "the list's name")
                }
            }
        }
        guard reader.problems.count == problems, let resource else { return nil }
        return TypedTable(resource: resource, columns: columns, lists: lists)
    }

    /// The entries of a `columns` array: columns, and (outside a list) nested lists.
    private static func loadEntries(
        _ value: JSONValue, at path: String, inList: Bool, in context: ConfigContext
    ) -> (columns: [TypedColumn], lists: [ChildTable]) {
        let reader = context.reader
        guard case .array(let elements) = value else {
            reader.report(
                path,
                "must be an array of columns, e.g. [{\"name\": \"email\", \"pointer\": \"/email\", "
                    + "\"type\": \"text\"}]")
            return ([], [])
        }
        if elements.isEmpty { reader.report(path, "must list at least one column") }
        var columns: [TypedColumn] = []
        var lists: [ChildTable] = []
        var seen: [String: String] = [:]
        // The entries that are columns of this table, not nested lists (tables of their own).
        let declared = elements.filter {
            guard case .object(let members) = $0 else { return true }
            return !members.contains { $0.name == "columns" }
        }
        if declared.count > ColumnNames.maxColumns {
            reader.report(
                path,
                "declares \(declared.count) columns: at most \(ColumnNames.maxColumns) columns per table; declare the "
                    + "rest as one json column")
        }
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let fields = reader.object(element, at: elementPath) else { continue }
            defer { fields.finish(reader) }
            let name = loadName(fields, inList: inList, reader)
            if let name {
                if let first = seen[name] {
                    reader.report(fields.path("name"), "\"\(name)\" is already the name of \(first)")
                }
                seen[name] = seen[name] ?? elementPath
            }
            var pointer: JSONPointer?
            if let value = fields.take("pointer") {
                pointer = reader.pointer(value, at: fields.path("pointer"))
                if let pointer { checkTokens(pointer, at: fields.path("pointer"), reader) }
            } else {
                reader.report(fields.path("pointer"), "is required: a JSON pointer to the member, e.g. \"/email\"")
            }
            if fields.has("columns") {
                let nested = fields.take("columns")
                if inList {
                    reader.report(
                        fields.path("columns"),
                        "a nested list cannot hold another list: declare it as "
                            + "\"type\": \"json\"")
                    continue
                }
                for key in ["type", "nullable", "indexed"] where fields.has(key) {
                    reader.report(fields.path(key), "does not apply to a nested list, which is a table of its own")
                    _ = fields.take(key)
                }
                let (elementColumns, _) =
                    nested.map {
                        loadEntries($0, at: fields.path("columns"), inList: true, in: context)
                    } ?? ([], [])
                if pointer == .root {
                    reader.report(fields.path("pointer"), "must name the list in the record, e.g. \"/line_items\"")
                }
                if let name, let pointer {
                    lists.append(
                        ChildTable(
                            name: name, pointer: pointer.description, tokens: pointer.tokens, columns: elementColumns))
                }
                continue
            }
            var type: ColumnType?
            if let value = fields.take("type"), let text = reader.string(value, at: fields.path("type")) {
                type = ColumnType(rawValue: text)
                if type == nil {
                    reader.report(
                        fields.path("type"),
                        "must be one of " + ColumnType.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
                            + ", or the entry a nested list with its own \"columns\"")
                }
            } else if !fields.has("type") {
                reader.report(
                    fields.path("type"),
                    "is required: text, integer, real, boolean, timestamp or json (or "
                        + "\"columns\" for a nested list)")
            }
            var nullable = true
            fields.assign(&nullable, "nullable", reader.boolean)
            var indexed = false
            fields.assign(&indexed, "indexed", reader.boolean)
            if pointer == .root, !inList {
                reader.report(fields.path("pointer"), "must name a member of the record, e.g. \"/email\"")
            }
            if let name, let pointer, let type {
                columns.append(
                    TypedColumn(
                        name: name, pointer: pointer.description, tokens: pointer.tokens, type: type,
                        nullable: nullable, indexed: indexed))
            }
        }
        return (columns, lists)
    }

    /// Reports what a declared pointer's tokens hold that no store reads the same:
    /// each kind of problem once.
    private static func checkTokens(_ pointer: JSONPointer, at path: String, _ reader: ConfigReader) {
        var reported: Set<ColumnNames.TokenProblem> = []
        for token in pointer.tokens {
            guard let problem = ColumnNames.tokenProblem(token), reported.insert(problem).inserted else { continue }
            switch problem {
            case .doubleQuote:
                reader.report(path, "cannot name a member whose name holds a double quote")
            case .controlCharacter:
                reader.report(path, "cannot name a member whose name holds a control character")
            case .ambiguousNumber:
                reader.report(
                    path,
                    "cannot hold the token \"\(token)\": a number with a leading zero or a minus sign is an "
                        + "array's index to PostgreSQL and not to SQLite; write an index without them (\"/tags/1\")")
            }
        }
    }

    private static func loadName(_ fields: ObjectFields, inList: Bool, _ reader: ConfigReader) -> String? {
        guard let value = fields.take("name") else {
            reader.report(fields.path("name"), "is required: the column's name, e.g. \"email\"")
            return nil
        }
        guard let name = reader.string(value, at: fields.path("name")) else { return nil }
        if let problem = ColumnNames.columnProblem(name, inList: inList) {
            reader.report(fields.path("name"), "\"\(name)\" \(problem)")
            return nil
        }
        return name
    }
}
