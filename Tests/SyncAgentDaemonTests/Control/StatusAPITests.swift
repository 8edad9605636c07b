import Foundation
import Hummingbird
import HummingbirdTesting
import NIOHTTP1
import Synchronization
import Testing

@testable import Store
@testable import Streams
@testable import SyncAgentDaemon
@testable import SyncCore

/// The status API's routes, without a socket: a stand-in agent behind them.
@Suite(.timeLimit(.minutes(1))) struct StatusAPITests {
    final class FakeAgent: AgentControl {
        let startedAt = Date(timeIntervalSince1970: 1_795_000_000)
        var isOnline: Bool { false }
        var statusVersion: Int { 0 }
        let refreshed = Mutex<[String]>([])
        let changes = PassthroughSubject<StatusChange, Never>()

        func statusSnapshot() -> (version: Int, statuses: [ResourceStatus]) { (0, statuses()) }

        func statuses() -> [ResourceStatus] {
            ["users", "groups"].compactMap(status(of:))
        }

        func status(of name: String) -> ResourceStatus? {
            guard ["users", "groups"].contains(name) else { return nil }
            var status = ResourceStatus(name: name, row: nil)
            status.items = name.count
            if let table = typedTable(of: name) {
                status.columns = ColumnsStatus(
                    tables: table.tableNames,
                    misfit: ColumnMisfit(table: "users__roles", column: "since", key: "7", pointer: "/roles/1/since"))
            }
            return status
        }

        /// `users` declares a column of each type and a list; `groups` declares none.
        func typedTable(of name: String) -> TypedTable? {
            guard name == "users" else { return nil }
            let columns = ColumnType.allCases.map { type in
                TypedColumn(
                    name: "a_\(type.rawValue)", pointer: "/\(type.rawValue)", tokens: [type.rawValue], type: type,
                    nullable: type != .text, indexed: type == .integer)
            }
            let roles = ChildTable(
                name: "roles", pointer: "/roles", tokens: ["roles"],
                columns: [TypedColumn(name: "since", pointer: "/since", tokens: ["since"], type: .timestamp)])
            return TypedTable(resource: "users", columns: columns, lists: [roles])
        }

        /// Reports a page, a retry, slowness and its end, then answers.
        func refresh(_ name: String, onActivity: (@Sendable (SyncActivity) -> Void)?) async -> SyncResult? {
            guard status(of: name) != nil else { return nil }
            refreshed.withLock { $0.append(name) }
            let result = SyncResult(
                resource: name, outcome: .success, joined: name == "users", counts: SyncCounts(pages: 1, items: 3))
            onActivity?(.progress(SyncProgress(resource: name, pages: 1, items: 3)))
            onActivity?(
                .retry(
                    resource: name,
                    RetryNotice(
                        request: "GET https://h/\(name)?page=2", cause: "the server answered 503", attempt: 2,
                        maxAttempts: 5, delay: .milliseconds(1500))))
            onActivity?(.slow(resource: name))
            onActivity?(.finished(result))
            return result
        }

        func metricsPage() -> String {
            let metrics = AgentMetrics(resources: ["users", "groups"])
            metrics.syncStarted("users")
            metrics.request("users", status: 200)
            metrics.request("users", status: 503)
            metrics.request("users", status: nil)
            metrics.received("users", wire: 1400, decoded: 14_000)
            metrics.joined("users")
            metrics.retried("users")
            var result = SyncResult(resource: "users", outcome: .success, durationMilliseconds: 700)
            result.changes = SnapshotChanges(added: 5, changed: 2, removed: 1)
            metrics.syncEnded(result, seconds: 0.7)
            metrics.syncStarted("groups")
            return metrics.render(statuses: statuses(), online: isOnline, startedAt: startedAt)
        }

        /// Two changes of users at seqs 7 and 8, one of groups at 9; nothing pruned.
        func changeFeed(of resource: String?, after seq: Int64, limit: Int) async throws(StoreError) -> ChangePage {
            let at = Date(timeIntervalSince1970: 1_795_000_000)
            let all = [
                ChangeRow(seq: 7, resource: "users", key: "1", op: .insert, syncRun: 3, at: at),
                ChangeRow(seq: 8, resource: "users", key: "2", op: .delete, syncRun: 3, at: at),
                ChangeRow(seq: 9, resource: "groups", key: "g", op: .update, syncRun: 4, at: at),
            ]
            let changes = Array(
                all.filter { $0.seq > seq && (resource == nil || $0.resource == resource) }.prefix(limit))
            return ChangePage(changes: changes, next: changes.last?.seq ?? seq, missed: false)
        }

        /// Two runs of each resource, newest first: a failure after a success.
        func recentRuns(of resources: [String], limitEach: Int) async throws(StoreError) -> [String: [SyncRunRow]] {
            let start = Date(timeIntervalSince1970: 1_795_000_000)
            return Dictionary(
                uniqueKeysWithValues: resources.map { resource in
                    let runs = [(2, SyncOutcome.failed, 900), (1, .success, 300)].prefix(limitEach).map {
                        id, outcome, milliseconds in
                        SyncRunRow(
                            id: Int64(id), resource: resource, trigger: .poll, startedAt: start,
                            finishedAt: start.addingTimeInterval(Double(milliseconds) / 1000), outcome: outcome,
                            counts: SyncCounts(attempts: 1, pages: 1, items: 3, bytes: 10, wireBytes: 10), error: nil,
                            changes: SnapshotChanges())
                    }
                    return (resource, Array(runs))
                })
        }

        let storeFailure = Mutex<String?>(nil)
        /// Whether a read of the database never answers (until cancelled).
        let storeHangs = Mutex(false)

        func storeProblem() async -> String? {
            if storeHangs.withLock({ $0 }) {
                // Waits, without a clock, until the caller gives up and cancels it.
                let (never, continuation) = AsyncStream<Void>.makeStream()
                for await _ in never {}
                continuation.finish()
            }
            return storeFailure.withLock { $0 }
        }

        func refreshAll() async -> [SyncResult] {
            var results: [SyncResult] = []
            for name in ["users", "groups"] { results.append(await refresh(name)!) }
            return results
        }
    }

    let agent = FakeAgent()

    /// Sends `method uri` with `headers` and returns the status, the content type and the body as text.
    func text(
        _ method: HTTPRequest.Method, _ uri: String, headers: HTTPFields = [:]
    ) async throws -> (HTTPResponse.Status, String?, String) {
        let app = Application(router: StatusAPI(control: agent, pid: 4242).router())
        return try await app.test(.router) { client in
            try await client.execute(uri: uri, method: method, headers: headers) { response in
                (response.status, response.headers[.contentType], String(buffer: response.body))
            }
        }
    }

    /// The events of a stream's text.
    func events(_ text: String) -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        return parser.feed(Array(text.utf8))
    }

    /// Sends `method uri` to the routes and returns the status and the body as JSON.
    func call(_ method: HTTPRequest.Method, _ uri: String) async throws -> (HTTPResponse.Status, JSONValue, String?) {
        let app = Application(router: StatusAPI(control: agent, pid: 4242).router())
        return try await app.test(.router) { client in
            try await client.execute(uri: uri, method: method) { response in
                let json = try JSONValue(parsing: Array(response.body.readableBytesView))
                return (response.status, json, response.headers[.contentType])
            }
        }
    }

    @Test func statusShowsTheAgentAndEveryResource() async throws {
        let (status, json, contentType) = try await call(.get, "/v1/status")
        #expect(status == .ok)
        #expect(contentType == "application/json")
        #expect(json["agent"]?["pid"] == 4242)
        #expect(json["agent"]?["online"] == .bool(false))
        #expect(json["agent"]?["startedAt"]?.stringValue == "2026-11-18T11:06:40.000Z")
        #expect(json["agent"]?["version"]?.stringValue == SyncAgentVersion.current)
        #expect(json["resources"]?.arrayValue?.compactMap { $0["name"]?.stringValue } == ["users", "groups"])
    }

    @Test func aResourceIsAnsweredByName() async throws {
        let (status, json, _) = try await call(.get, "/v1/resources/groups")
        #expect(status == .ok)
        #expect(json["name"]?.stringValue == "groups")
        #expect(json["items"] == 6)
        #expect(json["state"]?.stringValue == "idle")
    }

    @Test func columnsAnswerTheDeclarationWithEachStoresTypesAndTheMisfit() async throws {
        let (status, json, contentType) = try await call(.get, "/v1/resources/users/columns")
        #expect(status == .ok)
        #expect(contentType == "application/json")
        #expect(json["resource"]?.stringValue == "users")
        #expect(json["tables"] == ["users", "users__roles"])
        let types = json["columns"]?.arrayValue?.map { column in
            [column["type"], column["sqlite"], column["postgres"]].map { $0?.stringValue ?? "-" }
        }
        #expect(
            types == [
                ["text", "TEXT", "text"], ["integer", "INTEGER", "bigint"], ["real", "REAL", "double precision"],
                ["boolean", "BOOLEAN", "boolean"], ["timestamp", "TIMESTAMP", "timestamptz"],
                ["json", "TEXT", "jsonb"],
            ])
        #expect(
            json["columns"]?.arrayValue?[1]
                == [
                    "name": "a_integer", "pointer": "/integer", "type": "integer", "nullable": true, "indexed": true,
                    "sqlite": "INTEGER", "postgres": "bigint",
                ])
        #expect(json["columns"]?.arrayValue?[0]["nullable"] == .bool(false))
        #expect(
            json["lists"]
                == [
                    [
                        "name": "roles", "pointer": "/roles", "table": "users__roles",
                        "columns": [
                            [
                                "name": "since", "pointer": "/since", "type": "timestamp", "nullable": true,
                                "indexed": false, "sqlite": "TIMESTAMP", "postgres": "timestamptz",
                            ]
                        ],
                    ]
                ])
        #expect(
            json["misfit"]
                == ["table": "users__roles", "column": "since", "key": "7", "pointer": "/roles/1/since"])
    }

    @Test func aResourceShowsItsColumnsOrNullWithoutThem() async throws {
        let (_, users, _) = try await call(.get, "/v1/resources/users")
        #expect(users["columns"]?["tables"] == ["users", "users__roles"])
        #expect(users["columns"]?["misfit"]?["key"]?.stringValue == "7")
        let (_, groups, _) = try await call(.get, "/v1/resources/groups")
        #expect(groups["columns"] == .null)
    }

    @Test func refreshWaitsAndAnswersTheResultWithJoined() async throws {
        let (status, json, _) = try await call(.post, "/v1/resources/users/refresh")
        #expect(status == .ok)
        #expect(json["resource"]?.stringValue == "users")
        #expect(json["outcome"]?.stringValue == "success")
        #expect(json["joined"] == .bool(true))
        #expect(json["items"] == 3)
        #expect(agent.refreshed.withLock { $0 } == ["users"])
    }

    @Test func refreshAllAnswersEveryResult() async throws {
        let (status, json, _) = try await call(.post, "/v1/refresh")
        #expect(status == .ok)
        #expect(json["results"]?.arrayValue?.compactMap { $0["resource"]?.stringValue } == ["users", "groups"])
    }

    @Test(arguments: [
        (HTTPRequest.Method.get, "/v1/resources/nope", HTTPResponse.Status.notFound, "unknown_resource"),
        (.post, "/v1/resources/nope/refresh", .notFound, "unknown_resource"),
        (.get, "/v1/resources/nope/columns", .notFound, "unknown_resource"),
        (.get, "/v1/resources/groups/columns", .notFound, "no_columns"),
        (.post, "/v1/resources/users/columns", .methodNotAllowed, "method_not_allowed"),
        (.get, "/v2/status", .notFound, "not_found"),
        (.get, "/v1/refresh", .methodNotAllowed, "method_not_allowed"),
        (.post, "/v1/status", .methodNotAllowed, "method_not_allowed"),
        (.delete, "/v1/resources/users", .methodNotAllowed, "method_not_allowed"),
    ])
    func errorsAreJSON(
        method: HTTPRequest.Method, uri: String, status: HTTPResponse.Status, code: String
    )
        async throws
    {
        let (answered, json, contentType) = try await call(method, uri)
        #expect(answered == status)
        #expect(contentType == "application/json")
        #expect(json["error"]?["code"]?.stringValue == code)
        #expect(json["error"]?["message"]?.stringValue?.isEmpty == false)
        #expect(agent.refreshed.withLock { $0 }.isEmpty)
    }

    // Found by the control fuzz target (fuzz/regressions/control): a chunk size that is
    // no number, or a body cut before its Content-Length, was answered 500 `internal`.
    @Test(arguments: [HTTPParserError.invalidChunkSize, .invalidEOFState])
    func aBodyThatBreaksTheFramingIsABadRequestThatClosesTheConnection(_ error: HTTPParserError) async throws {
        let router = Router()
        router.add(middleware: JSONErrorMiddleware(routes: []))
        router.post("/v1/refresh") { _, _ -> Response in throw error }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/v1/refresh", method: .post) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[.connection] == "close")
                let json = try JSONValue(parsing: Array(response.body.readableBytesView))
                #expect(json["error"]?["code"]?.stringValue == "bad_request")
            }
        }
    }

    @Test func refreshAsAnEventStreamTellsProgressRetrySlowThenTheResult() async throws {
        let (status, contentType, body) = try await text(
            .post, "/v1/resources/groups/refresh", headers: [.accept: "text/event-stream"])
        #expect(status == .ok)
        #expect(contentType == "text/event-stream")
        let events = events(body)
        #expect(events.map(\.name) == ["progress", "retry", "slow", "result"])
        let data = try events.map { try JSONValue(parsing: Array($0.data.utf8)) }
        #expect(data[0] == ["resource": "groups", "pages": 1, "items": 3, "attempts": 1])
        #expect(data[1]["attempt"] == 2)
        #expect(data[1]["maxAttempts"] == 5)
        #expect(data[1]["delayMs"] == 1500)
        #expect(data[1]["cause"]?.stringValue == "the server answered 503")
        #expect(data[2] == ["resource": "groups", "message": "taking longer than expected"])
        #expect(data[3]["outcome"]?.stringValue == "success")
        #expect(data[3]["joined"] == .bool(false))
        // What the CLI reads back.
        #expect(
            try SyncActivity(event: events[1].name, data: Data(events[1].data.utf8), decoder: .api)
                == .retry(
                    resource: "groups",
                    RetryNotice(
                        request: "GET https://h/groups?page=2", cause: "the server answered 503", attempt: 2,
                        maxAttempts: 5,
                        delay: .milliseconds(1500))))
        #expect(try JSONDecoder.api.decode(SyncResult.self, from: Data(events[3].data.utf8)).counts.items == 3)
    }

    @Test func eventsSendEveryResourceThenEachChangeUntilTheAgentStops() async throws {
        let subject = agent.changes
        let sender = Task {
            // Once the stream has subscribed: two changes, then the agent stops.
            while subject.storage.consumerCount == 0 { await Task.yield() }
            var syncing = ResourceStatus(name: "users", row: nil)
            // A change the snapshot (version 0) already shows is not sent again.
            syncing.state = .retrying
            subject.send(StatusChange(version: 0, status: syncing))
            syncing.state = .syncing
            subject.send(StatusChange(version: 1, status: syncing))
            syncing.state = .failed
            subject.send(StatusChange(version: 2, status: syncing))
            subject.finish()
        }
        let (status, contentType, body) = try await text(.get, "/v1/events")
        await sender.value
        #expect(status == .ok)
        #expect(contentType == "text/event-stream")
        let events = events(body)
        #expect(events.map(\.name) == ["resource", "resource", "resource", "resource"])
        let resources = try events.map { try JSONDecoder.api.decode(ResourceStatus.self, from: Data($0.data.utf8)) }
        #expect(resources.map(\.name) == ["users", "groups", "users", "users"])
        #expect(resources.map(\.state) == [.idle, .idle, .syncing, .failed])
    }

    @Test func changesAreReadAfterASeqByResourceAndBadRequestsAreNamed() async throws {
        let (status, json, _) = try await call(.get, "/v1/changes?resource=users&after=7&limit=5")
        #expect(status == .ok)
        #expect(
            json
                == [
                    "changes": [
                        [
                            "seq": 8, "resource": "users", "key": "2", "op": "delete", "syncRun": 3,
                            "at": "2026-11-18T11:06:40.000Z",
                        ]
                    ],
                    "next": 8, "missed": false,
                ])
        let (_, all, _) = try await call(.get, "/v1/changes?limit=2")
        #expect(all["changes"]?.arrayValue?.compactMap { $0["seq"] } == [7, 8])
        #expect(all["next"] == 8)
        let (_, none, _) = try await call(.get, "/v1/changes?after=9")
        #expect(none["changes"]?.arrayValue?.isEmpty == true)
        #expect(none["next"] == 9)
        for (uri, code, message) in [
            ("/v1/changes?after=-1", "bad_request", #"after must be a seq: a whole number, 0 or more (got "-1")"#),
            ("/v1/changes?limit=0", "bad_request", #"limit must be between 1 and 10000 (got "0")"#),
            ("/v1/changes?resource=nobody", "unknown_resource", #"no resource named "nobody""#),
        ] {
            let (status, error, _) = try await call(.get, uri)
            #expect(status == (code == "bad_request" ? .badRequest : .notFound), "\(uri)")
            #expect(error["error"]?["code"]?.stringValue == code, "\(uri)")
            #expect(error["error"]?["message"]?.stringValue == message, "\(uri)")
        }
    }

    @Test func aSyncThatChangedRecordsIsFollowedByAChangesEvent() async throws {
        let subject = agent.changes
        let sender = Task {
            while subject.storage.consumerCount == 0 { await Task.yield() }
            subject.send(StatusChange(version: 1, status: ResourceStatus(name: "users", row: nil), feed: 12...14))
            subject.finish()
        }
        let (_, _, body) = try await text(.get, "/v1/events")
        await sender.value
        let events = events(body)
        #expect(events.map(\.name) == ["resource", "resource", "resource", "changes"])
        #expect(try JSONValue(parsing: Array(events[3].data.utf8)) == ["resource": "users", "first": 12, "last": 14])
    }

    @Test func eventClientsShareOneSubscriptionAndEachGetsEveryChange() async throws {
        let api = StatusAPI(control: agent, pid: 4242)
        let following = Task { await api.followChanges() }
        let subject = agent.changes
        while subject.storage.consumerCount == 0 { await Task.yield() }
        let shared = api.resourceEvents.storage
        let app = Application(router: api.router())
        let bodies = try await app.test(.router) { client in
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<2 {
                    group.addTask {
                        try await client.execute(uri: "/v1/events", method: .get) { String(buffer: $0.body) }
                    }
                }
                // Both clients and the follower share one iteration of the changes.
                while shared.state.withLock({ $0.consumers.count }) < 3 { await Task.yield() }
                #expect(subject.storage.consumerCount == 1)
                var syncing = ResourceStatus(name: "users", row: nil)
                syncing.state = .syncing
                subject.send(StatusChange(version: 1, status: syncing))
                subject.finish()
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        await following.value
        #expect(bodies.count == 2)
        for body in bodies {
            let events = events(body)
            #expect(events.map(\.name) == ["resource", "resource", "resource"])
            let last = try JSONDecoder.api.decode(ResourceStatus.self, from: Data(events[2].data.utf8))
            #expect(last.state == .syncing)
        }
    }

    @Test func metricsAreThePrometheusTextFormat() async throws {
        let (status, contentType, body) = try await text(.get, "/metrics")
        #expect(status == .ok)
        #expect(contentType == "text/plain; version=0.0.4; charset=utf-8")
        let samples = try PrometheusText.samples(body)
        #expect(samples[#"sync_agent_syncs_total{resource="users",outcome="success"}"#] == 1)
        #expect(samples[#"sync_agent_syncs_total{resource="groups",outcome="failed"}"#] == 0)
        #expect(samples[#"sync_agent_upstream_requests_total{resource="users",status="200",status_class="2xx"}"#] == 1)
        #expect(samples[#"sync_agent_upstream_requests_total{resource="users",status="503",status_class="5xx"}"#] == 1)
        #expect(
            samples[#"sync_agent_upstream_requests_total{resource="users",status="error",status_class="error"}"#] == 1)
        #expect(samples[#"sync_agent_joined_requests_total{resource="users"}"#] == 1)
        #expect(samples[#"sync_agent_response_bytes_total{resource="users",form="wire"}"#] == 1400)
        #expect(samples[#"sync_agent_response_bytes_total{resource="users",form="decoded"}"#] == 14_000)
        #expect(samples[#"sync_agent_response_bytes_total{resource="groups",form="wire"}"#] == 0)
        #expect(samples[#"sync_agent_syncs_in_flight{resource="users"}"#] == 0)
        #expect(samples[#"sync_agent_syncs_in_flight{resource="groups"}"#] == 1)
        #expect(samples[#"sync_agent_sync_duration_seconds_bucket{resource="users",le="0.5"}"#] == 0)
        #expect(samples[#"sync_agent_sync_duration_seconds_bucket{resource="users",le="1"}"#] == 1)
        #expect(samples[#"sync_agent_sync_duration_seconds_bucket{resource="users",le="+Inf"}"#] == 1)
        #expect(samples[#"sync_agent_sync_duration_seconds_sum{resource="users"}"#] == 0.7)
        #expect(samples[#"sync_agent_sync_duration_seconds_count{resource="users"}"#] == 1)
        #expect(samples[#"sync_agent_records{resource="groups"}"#] == 6)
        #expect(samples["sync_agent_online"] == 0)
        #expect(samples[#"sync_agent_retries_total{resource="users"}"#] == 1)
        #expect(samples[#"sync_agent_retries_total{resource="groups"}"#] == 0)
        #expect(samples[#"sync_agent_records_changed_total{resource="users",op="insert"}"#] == 5)
        #expect(samples[#"sync_agent_records_changed_total{resource="users",op="update"}"#] == 2)
        #expect(samples[#"sync_agent_records_changed_total{resource="users",op="delete"}"#] == 1)
        #expect(samples[#"sync_agent_resources{state="idle"}"#] == 2)
        #expect(samples[#"sync_agent_resources{state="failed"}"#] == 0)
        #expect(samples["sync_agent_slow_syncs"] == 0)
        #expect(samples["sync_agent_start_time_seconds"] == 1_795_000_000)
        #expect(samples[#"sync_agent_build_info{version="\#(SyncAgentVersion.current)"}"#] == 1)
        // Never synced: no last success yet.
        #expect(!body.contains("sync_agent_last_success_timestamp_seconds{"))
    }

    @Test func labelValuesAreEscaped() {
        var page = Exposition()
        page.family("m", type: "gauge", help: "a \\ and a\nline")
        page.sample("m", ["path": "a\"b\\c\nd"], 1)
        #expect(page.text == "# HELP m a \\\\ and a\\nline\n# TYPE m gauge\nm{path=\"a\\\"b\\\\c\\nd\"} 1\n")
    }
}

/// A strict reader of the Prometheus text format, for checking what `/metrics` serves.
enum PrometheusText {
    struct Problem: Error, CustomStringConvertible {
        var description: String
    }

    /// Every sample, by its name and labels as written; fails on a malformed
    /// line, a sample before its family's `# TYPE`, or a family typed twice.
    static func samples(_ text: String) throws -> [String: Double] {
        var samples: [String: Double] = [:]
        var typed: Set<String> = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("# HELP ") { continue }
            if line.hasPrefix("# TYPE ") {
                let parts = line.split(separator: " ")
                guard parts.count == 4, ["counter", "gauge", "histogram"].contains(parts[3]),
                    typed.insert(String(parts[2])).inserted
                else { throw Problem(description: "bad TYPE line: \(line)") }
                continue
            }
            guard let space = line.lastIndex(of: " "),
                let value = Double(line[line.index(after: space)...]) ?? (line.hasSuffix("+Inf") ? .infinity : nil)
            else { throw Problem(description: "bad sample: \(line)") }
            let series = String(line[..<space])
            let name = String(series.prefix { $0 != "{" })
            let family = ["_bucket", "_sum", "_count"].reduce(name) { name, suffix in
                typed.contains(name) || !name.hasSuffix(suffix) ? name : String(name.dropLast(suffix.count))
            }
            guard typed.contains(family), name.allSatisfy({ $0.isLetter || $0 == "_" }) else {
                throw Problem(description: "sample without a family: \(line)")
            }
            guard samples.updateValue(value, forKey: series) == nil else {
                throw Problem(description: "sample twice: \(line)")
            }
        }
        return samples
    }
}

@Suite struct ServerSentEventParserTests {
    @Test func readsEventsSplitAcrossChunksWithAnyLineEnding() {
        let stream =
            "event: result\r\ndata: {\"a\":1}\r\n\r\n: keep-alive\n\nevent: resource\ndata: one\ndata:two\n\ndata: plain\r\r"
        var parser = ServerSentEventParser()
        var events: [ServerSentEvent] = []
        // One byte at a time: the parser keeps what it has not finished.
        for byte in stream.utf8 { events += parser.feed([byte]) }
        #expect(
            events == [
                ServerSentEvent(name: "result", text: "{\"a\":1}"),
                ServerSentEvent(name: "resource", text: "one\ntwo"),
                ServerSentEvent(name: "message", text: "plain"),
            ])
    }

    @Test func anEventIsEncodedAsItsFieldsAndABlankLine() {
        #expect(ServerSentEvent(name: "slow", text: "a\nb").encoded == "event: slow\ndata: a\ndata: b\n\n")
        var parser = ServerSentEventParser()
        let event = ServerSentEvent(name: "result", data: ["resource": "users", "items": 3])
        #expect(parser.feed(Array(event.encoded.utf8)) == [event])
    }
}
