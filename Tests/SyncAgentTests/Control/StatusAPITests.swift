import Foundation
import Hummingbird
import HummingbirdTesting
import Store
import Synchronization
import Testing

@testable import SyncAgentCore

/// The status API's routes, without a socket: a stand-in agent behind them.
@Suite(.timeLimit(.minutes(1))) struct StatusAPITests {
    final class FakeAgent: AgentControl {
        let startedAt = Date(timeIntervalSince1970: 1_795_000_000)
        var isOnline: Bool { false }
        let refreshed = Mutex<[String]>([])

        func statuses() -> [ResourceStatus] {
            ["users", "groups"].compactMap(status(of:))
        }

        func status(of name: String) -> ResourceStatus? {
            guard ["users", "groups"].contains(name) else { return nil }
            var status = ResourceStatus(name: name, row: nil)
            status.items = name.count
            return status
        }

        func refresh(_ name: String) async -> SyncResult? {
            guard status(of: name) != nil else { return nil }
            refreshed.withLock { $0.append(name) }
            return SyncResult(resource: name, outcome: .success, joined: name == "users", pages: 1, items: 3)
        }

        func refreshAll() async -> [SyncResult] {
            var results: [SyncResult] = []
            for name in ["users", "groups"] { results.append(await refresh(name)!) }
            return results
        }
    }

    let agent = FakeAgent()

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
}
