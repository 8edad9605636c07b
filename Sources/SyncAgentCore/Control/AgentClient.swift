import AsyncHTTPClient
import Foundation
import NIOCore

/// Talks to a running agent over its status socket (SPEC §4): how `refresh`
/// reaches the agent (and joins its syncs), and how `status` reads it.
///
/// Thread-safety: `Sendable`; call ``shutdown()`` once, when done.
struct AgentClient: Sendable {
    /// The socket's path.
    let socket: String
    private let client: HTTPClient

    /// A client for the agent listening on `socket`, or `nil` when none answers there.
    static func connect(socket: String) -> AgentClient? {
        guard UnixSocketPath.connects(to: socket) else { return nil }
        return AgentClient(socket: socket, client: HTTPClient(eventLoopGroupProvider: .singleton))
    }

    private init(socket: String, client: HTTPClient) {
        self.socket = socket
        self.client = client
    }

    /// The agent stopped answering, or answered something unexpected.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `GET /v1/status`: the agent's fields and every resource.
    func status() async throws(Failure) -> (agent: JSONValue, resources: [ResourceStatus]) {
        let json = try await send("GET", "/v1/status")
        guard let agent = json["agent"], let list = json["resources"]?.arrayValue else {
            throw Failure(description: "the agent's status is not what this command expects")
        }
        let resources = list.compactMap(ResourceStatus.init(json:))
        guard resources.count == list.count else {
            throw Failure(description: "the agent's status is not what this command expects")
        }
        return (agent, resources)
    }

    /// `POST /v1/resources/NAME/refresh`, or `POST /v1/refresh` for every resource.
    func refresh(_ names: [String]) async throws(Failure) -> [SyncResult] {
        if names.isEmpty {
            let json = try await send("POST", "/v1/refresh")
            return try Self.results(json["results"]?.arrayValue ?? [])
        }
        let client = self
        let answers = await withTaskGroup(of: (Int, Result<JSONValue, Failure>).self) { group in
            for (index, name) in names.enumerated() {
                group.addTask {
                    let path = "/v1/resources/\(PercentEncoding.encode(name))/refresh"
                    do throws(Failure) {
                        return (index, .success(try await client.send("POST", path)))
                    } catch {
                        return (index, .failure(error))
                    }
                }
            }
            var answers: [(Int, Result<JSONValue, Failure>)] = []
            for await answer in group { answers.append(answer) }
            return answers.sorted { $0.0 < $1.0 }.map(\.1)
        }
        return try Self.results(answers.map { answer throws(Failure) in try answer.get() })
    }

    private static func results(_ list: [JSONValue]) throws(Failure) -> [SyncResult] {
        let results = list.compactMap(SyncResult.init(json:))
        guard results.count == list.count else {
            throw Failure(description: "the agent's results are not what this command expects")
        }
        return results
    }

    /// Sends a request and parses the JSON answer; an error answer becomes its message.
    private func send(_ method: String, _ path: String) async throws(Failure) -> JSONValue {
        guard let url = URL(httpURLWithSocketPath: socket, uri: path) else {
            throw Failure(description: "the socket path \(socket) cannot be used")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: method)
        do {
            let response = try await client.execute(request, timeout: .hours(24))
            let body = try await response.body.collect(upTo: 64 * 1024 * 1024)
            let json = try JSONValue(parsing: Array(body.readableBytesView))
            if let message = json["error"]?["message"]?.stringValue {
                throw Failure(description: "the agent answered: \(message)")
            }
            return json
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the agent at \(socket) stopped answering (\(error))")
        }
    }

    /// Closes the connections.
    func shutdown() async {
        try? await client.shutdown()
    }
}
