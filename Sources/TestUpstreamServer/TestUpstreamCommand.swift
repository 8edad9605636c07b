import ArgumentParser
import Foundation
import TestUpstream

/// `test-upstream`: the test upstream as a standalone server, for benchmarks and manual tries.
@main
struct TestUpstreamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test-upstream",
        abstract: "Serve generated JSON collections in every pagination style, with faults on demand.",
        discussion: """
            Paths: /page/NAME?page=&per_page=, /offset/NAME?offset=&limit=, /cursor/NAME?cursor=&limit=, \
            /link/NAME?page=&per_page=, /next/NAME?page=&per_page=, /all/NAME, /one/NAME/ID, /echo.

            Imitated APIs: /github/NAME?per_page=&page=, /stripe/NAME?limit=&starting_after=, \
            /slack/NAME?limit=&cursor=, POST /notion/NAME/query {"page_size", "start_cursor"}, \
            /google/NAME?maxResults=&pageToken=, /shopify/NAME.json?limit=&page_info=, \
            /zendesk/NAME?cursor=&per_page=, /salesforce/NAME/query (Sforce-Query-Options: batchSize=N).

            Control: POST /_control/collections/NAME?count=N, POST or DELETE \
            /_control/collections/NAME/items/ID (change or remove an item), POST /_control/faults with \
            {"path": "/page/items", "query": "page=3", "times": 1, "delayMs": 0, \
            "action": "status", "status": 503, "retryAfter": "2"}, DELETE /_control/faults, \
            GET /_control/requests, POST /_control/ratelimits/API with {"requests": 10, "windowSeconds": 60} \
            or {"bucketSize": 40, "leaksPerSecond": 2}, DELETE /_control/ratelimits/API, \
            POST or DELETE /_control/tokens/API?token=T, GET or DELETE /_control/ratelimit-log.

            Example:
              test-upstream --port 8080 --collection items=250 --collection users=100000
            """)

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("A collection as NAME=COUNT (repeatable; default items=250).", valueName: "name=count"))
    var collection: [String] = []

    func run() async throws {
        var collections: [String: Int] = [:]
        for spec in collection {
            let parts = spec.split(separator: "=")
            guard parts.count == 2, let count = Int(parts[1]), count >= 0 else {
                throw ValidationError("--collection must look like NAME=COUNT, e.g. items=250")
            }
            collections[String(parts[0])] = count
        }
        let upstream = try await TestUpstream.start(
            host: host, port: port, collections: collections.isEmpty ? ["items": 250] : collections)
        FileHandle.standardOutput.write(Data("test-upstream listening on http://\(host):\(upstream.port)\n".utf8))
        // Serve until SIGINT or SIGTERM ends the process: there is nothing to clean up.
        while true {
            try await Task.sleep(for: .seconds(3600))
        }
    }
}
