import DemoUpstream
import Foundation
import ServiceLifecycle
import SyncCore

/// What the demo's API serves and does: four collections, faults that show
/// every behaviour within the first minute (and again every 30 seconds), and
/// data that changes every 15 seconds.
struct DemoScenario: Service {
    /// The collections and their sizes.
    static let collections = ["users": 1200, "orders": 600, "catalog": 300, "teams": 10_000]

    let upstream: DemoUpstream

    /// Gets the API ready before the agent starts: fresh versions (so a
    /// database left by an earlier demo is not simply up to date) and the
    /// first faults.
    func prepare() {
        for name in Self.collections.keys { upstream.changeItems(name, ids: [1]) }
        injectFaults()
    }

    /// The demo's configuration, with the files' absolute paths, and a
    /// read-only HTTP listener on loopback `httpPort` if there is one.
    func configText(files: DemoFiles, httpPort: Int? = nil) -> String {
        let base = upstream.baseURL
        func resource(
            _ name: String, _ path: String, items: String, interval: String, pagination: JSONValue? = nil,
            query: JSONValue? = nil, columns: JSONValue? = nil
        ) -> JSONValue {
            var members: [JSONValue.Member] = [
                .init("name", .string(name)), .init("url", .string(base + path)), .init("items", .string(items)),
                .init("key", "/id"), .init("interval", .string(interval)),
            ]
            if let pagination { members.append(.init("pagination", pagination)) }
            if let query { members.append(.init("query", query)) }
            if let columns { members.append(.init("columns", columns)) }
            return .object(members)
        }
        var config: JSONValue = [
            "$comment": "Written by sync-agent demo for its built-in API; it works only while the demo runs.",
            "database": .string(files.database),
            "socket": .string(files.socket),
            "socketMode": "0600",
            "defaults": [
                "interval": "20s", "slowAfter": "2s", "timeout": "10s",
                "retry": [
                    "maxAttempts": 5, "initialDelay": "500ms", "maxDelay": "5s", "multiplier": 2,
                    "jitter": .number(0.2),
                ],
            ],
            "connectivity": ["probe": .string("tcp://\(upstream.host):\(upstream.port)"), "maxProbeInterval": "5s"],
            "resources": [
                resource(
                    "users", "/page/users", items: "/data", interval: "20s",
                    pagination: ["style": "page", "param": "page", "sizeParam": "per_page", "size": 100],
                    // A table named users beside records (docs/schema.md#typed-tables).
                    columns: [
                        ["name": "name", "pointer": "/name", "type": "text"],
                        ["name": "email", "pointer": "/email", "type": "text", "indexed": true],
                        ["name": "score", "pointer": "/score", "type": "integer"],
                        ["name": "active", "pointer": "/active", "type": "boolean"],
                        ["name": "created", "pointer": "/created", "type": "timestamp"],
                        [
                            "name": "tags", "pointer": "/tags",
                            "columns": [["name": "tag", "pointer": "", "type": "text"]],
                        ],
                    ]),
                resource(
                    "orders", "/cursor/orders", items: "/items", interval: "15s",
                    pagination: ["style": "cursor", "param": "cursor", "next": "/next_cursor"],
                    query: ["limit": "100"]),
                resource(
                    "catalog", "/offset/catalog", items: "/items", interval: "30s",
                    pagination: ["style": "offset", "param": "offset", "limitParam": "limit", "limit": 100]),
                resource("me", "/one/users/7", items: "", interval: "10s"),
                resource("my-team", "/one/teams/{me:/revision}", items: "", interval: "1m"),
            ],
        ]
        if let httpPort, case .object(var members) = config {
            // The status page and the metrics, for a browser and curl (docs/observability.md).
            members.insert(.init("http", ["listen": .string("127.0.0.1:\(httpPort)")]), at: 4)
            config = .object(members)
        }
        return config.serialized(pretty: true) + "\n"
    }

    /// Two 503s on a page of users (retried), a 429 with `Retry-After: 2`
    /// on orders, and a page of catalog that takes 3 s (its `slowAfter` is 2 s).
    func injectFaults() {
        upstream.inject(Fault(path: "/page/users", query: "page=3", times: 2, action: .status(503)))
        upstream.inject(Fault(path: "/cursor/orders", times: 1, action: .status(429, retryAfter: "2")))
        upstream.inject(Fault(path: "/offset/catalog", query: "offset=100", times: 1, delay: .seconds(3)))
    }

    /// Every 15 seconds some items change, user 7 among them (the record of
    /// `me`, whose `revision` picks the team of `my-team`); every 30 seconds
    /// the faults come back, with a change of catalog so that its next sync
    /// reads every page again (the slow one too) rather than get a 304.
    package func run() async {
        await cancelWhenGracefulShutdown {
            var round = 0
            while (try? await Task.sleep(for: .seconds(15))) != nil {
                round += 1
                upstream.changeItems("users", ids: [7, 100 + round % 1000])
                upstream.changeItems("orders", ids: [1 + round % 600])
                if round.isMultiple(of: 2) {
                    upstream.changeItems("catalog", ids: [1 + round % 300])
                    injectFaults()
                }
            }
        }
    }
}
