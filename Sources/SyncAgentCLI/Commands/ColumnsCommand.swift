import ArgumentParser
import Foundation
import Store
import SyncCore

/// `sync-agent columns`: a `columns` declaration inferred from a resource's stored records.
struct ColumnsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "columns",
        abstract: "Infer a resource's columns from its stored records, ready to paste.",
        discussion: """
            Reads every record of the resource stored by the last syncs and prints a "columns" \
            declaration to paste into the resource in the configuration: each member a column, a \
            nested object's members too (/customer/email is customer_email), an array of objects \
            a nested list. Each type fits every value seen: text, timestamp (ISO 8601 strings), \
            integer, real, boolean, or json for values of two kinds or only ever null, with a note. \
            "nullable": false marks a member every record holds. Review it, add "indexed": true \
            where you filter or join, and keep only the columns you want.

            The declaration goes to stdout; the notes and the number of records read to stderr. \
            With nothing to declare (no records stored yet), stdout stays empty; --json then \
            shows "columns": [].

            Examples:
              sync-agent columns orders           The declaration for orders, to paste.
              sync-agent columns orders --json    The same, with the notes, as JSON.
              sync-agent columns orders > cols    Keep the declaration; see the notes.

              $ sync-agent columns orders
              "columns": [
                {"name": "id", "pointer": "/id", "type": "integer", "nullable": false},
                {"name": "customer_email", "pointer": "/customer/email", "type": "text"},
                {"name": "line_items", "pointer": "/line_items", "columns": [
                  {"name": "sku", "pointer": "/sku", "type": "text"}]}
              ]
              inferred from 1,234 records of orders
              note: /code: holds a string in 1,200 records and a number in 34: declared json
            """)

    @OptionGroup var options: GlobalOptions

    @Argument(help: ArgumentHelp("The resource whose records to read.", valueName: "name"))
    var name: String

    @Flag(help: "Print the declaration and the notes as JSON.")
    package var json = false

    package func run() async throws {
        let config = try options.loadConfig(fillingReferences: false)
        try config.checkResourceNames([name])
        var inference = ColumnInference(resource: name, otherTables: Self.otherTables(in: config, than: name))
        do {
            try await Self.read(config, into: &inference)
        } catch let error where error.kind == .missing {
            // No copy yet: no records, and a note that says to sync first.
        } catch {
            Console.error("sync-agent: \(error.message)")
            throw ExitStatus.failure
        }
        let result = inference.result
        if json {
            Console.out(result.json.serialized(pretty: true))
            return
        }
        // Nothing to paste is no output: "columns": [] is no declaration the configuration takes.
        if let declaration = result.declarationText { Console.out(declaration) }
        Console.error(result.summary)
        for note in result.notes { Console.error(note.line) }
    }

    /// Adds every record of the resource stored in the configured store, opened read-only.
    private static func read(_ config: AgentConfig, into inference: inout ColumnInference) async throws(StoreError) {
        let store = try await config.openStore(mode: .readOnly)
        do {
            try await inference.add(recordsIn: store)
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    /// The tables the other resources make or would make, if they declared columns.
    static func otherTables(in config: AgentConfig, than name: String) -> Set<String> {
        var tables: Set<String> = []
        for resource in config.resources where resource.name != name {
            tables.insert(resource.name)
            tables.formUnion(resource.table?.tableNames ?? [])
        }
        return tables
    }
}
