import ArgumentParser
import Foundation
import SyncCore

/// `sync-agent validate`: checks the configuration and prints a summary.
struct ValidateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check the configuration and print a summary.",
        discussion: """
            Every problem is listed on standard error as "path: message", such as \
            "resources[1].pagination.size: must be between 1 and 10000", and the exit code is \
            78. Nothing is created: no database, no socket.

            Example:
              sync-agent validate --config /etc/sync-agent/config.json
            """)

    @OptionGroup var options: GlobalOptions

    package func run() async throws {
        let config = try options.loadConfig()
        Console.out(Self.summary(config))
    }

    /// The summary of a valid configuration; secrets appear as their `${…}` references.
    static func summary(_ config: AgentConfig) -> String {
        var lines = [
            "\(config.file) is valid.",
            config.store == .sqlite ? "database  \(config.database)" : "store     \(config.storeDescription)",
            "socket    \(config.socket) (mode \(String(format: "%04o", config.socketMode)))",
            "",
        ]
        var table = TextTable("RESOURCE", "EVERY", "PAGES", "RETRY", "URL")
        for resource in config.resources {
            let settings = resource.settings
            table.add([
                resource.name,
                DurationText.format(settings.interval),
                paginationSummary(resource.pagination),
                "\(settings.retry.maxAttempts)×",
                "\(resource.method.rawValue) \(resource.url.display)",
            ])
        }
        lines.append(table.render())
        let tables = config.resources.compactMap(\.table)
        if !tables.isEmpty {
            // docs/schema.md#typed-tables
            lines.append("")
            lines += tables.map { table in
                let children = table.lists.map { table.tableName(of: $0) }
                return "table \(table.name): \(table.columns.count) column\(table.columns.count == 1 ? "" : "s")"
                    + (children.isEmpty ? "" : ", with \(children.joined(separator: ", "))")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func paginationSummary(_ pagination: Pagination) -> String {
        let summary =
            switch pagination.style {
            case .none: "one request"
            case .page(_, _, let size, _): "page (\(size))"
            case .offset(_, _, let limit): "offset (\(limit))"
            case .cursor: "cursor"
            case .link: "link"
            case .nextURL: "nextUrl"
            }
        return pagination.placement == .body ? summary + " in body" : summary
    }
}
