import AsyncHTTPClient
import Foundation
import NIOCore
import SyncCore

/// Talks to a running agent over its status socket (docs/api.md#the-status-socket): how `refresh`
/// reaches the agent (and joins its syncs), and how `status` reads it.
///
/// Thread-safety: `Sendable`; call ``shutdown()`` once, when done.
package struct AgentClient: Sendable {
    /// The socket's path.
    package let socket: String
    private let client: HTTPClient

    /// A client for the agent listening on `socket`, or `nil` when none answers there.
    package static func connect(socket: String) -> AgentClient? {
        guard UnixSocketPath.connects(to: socket) else { return nil }
        return AgentClient(socket: socket, client: HTTPClient(eventLoopGroupProvider: .singleton))
    }

    private init(socket: String, client: HTTPClient) {
        self.socket = socket
        self.client = client
    }

    /// The agent stopped answering, or answered something unexpected.
    package struct Failure: Error, CustomStringConvertible {
        package var description: String
    }

    /// `GET /v1/status`: the agent's fields and every resource.
    package func status() async throws(Failure) -> StatusAnswer {
        try Self.decode(StatusAnswer.self, from: try await send("GET", "/v1/status"), what: "the agent's status")
    }

    /// Refreshes `resources` through the agent, each after those its URL
    /// reads, and returns their results in the order given. What the syncs
    /// report as they go is passed to `onActivity`.
    package func refresh(
        _ resources: [ResourceConfig], onActivity: @escaping @Sendable (SyncActivity) -> Void
    ) async throws(Failure) -> [SyncResult] {
        let client = self
        return try await LocalRefresh.inWaves(resources) { resource throws(Failure) in
            try await client.refresh(resource.name, onActivity: onActivity)
        }
    }

    /// `POST /v1/resources/NAME/refresh` as an event stream: the sync's
    /// `progress`, `retry` and `slow` events go to `onActivity`; the
    /// `result` event is the answer.
    package func refresh(
        _ name: String, onActivity: @Sendable (SyncActivity) -> Void
    ) async throws(Failure) -> SyncResult {
        var result: SyncResult?
        try await stream(
            "POST", "/v1/resources/\(PercentEncoding.encode(name))/refresh", deadline: .now() + .hours(24)
        ) { event throws(Failure) in
            let activity: SyncActivity?
            do {
                activity = try SyncActivity(event: event.name, data: Data(event.data.utf8), decoder: Self.decoder)
            } catch {
                throw Failure(
                    description: "the agent's \(event.name) event is not what this command expects (\(error))")
            }
            if case .finished(let answer) = activity {
                result = answer
                return false
            }
            if let activity { onActivity(activity) }
            return true
        }
        guard let result else { throw Failure(description: "the agent ended the refresh of \(name) without a result") }
        return result
    }

    /// `GET /v1/events`: every resource as it is, then each change, passed to
    /// `onChange` until the agent stops (or `onChange` answers `false`).
    package func followChanges(_ onChange: (ResourceStatus) -> Bool) async throws(Failure) {
        try await stream("GET", "/v1/events", deadline: .distantFuture) { event throws(Failure) in
            guard event.name == "resource" else { return true }
            let status = try Self.decode(ResourceStatus.self, from: Data(event.data.utf8), what: "a resource event")
            return onChange(status)
        }
    }

    /// Sends a request that answers with server-sent events and passes each
    /// to `handle` until the stream ends or `handle` answers `false`.
    private func stream(
        _ method: String, _ path: String, deadline: NIODeadline,
        handle: (ServerSentEvent) throws(Failure) -> Bool
    ) async throws(Failure) {
        var request = try request(method, path)
        request.headers.add(name: "Accept", value: ServerSentEvent.contentType)
        do {
            let response = try await client.execute(request, deadline: deadline)
            guard response.status == .ok else {
                let body = try await response.body.collect(upTo: 1024 * 1024)
                let answer = try? Self.decoder.decode(ErrorAnswer.self, from: Data(body.readableBytesView))
                let message = answer?.error.message ?? "HTTP \(response.status.code)"
                throw Failure(description: "the agent answered: \(message)")
            }
            var parser = ServerSentEventParser()
            for try await chunk in response.body {
                for event in parser.feed(chunk.readableBytesView) {
                    guard try handle(event) else { return }
                }
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the agent at \(socket) stopped answering (\(error))")
        }
    }

    /// What the agent answered to a reload.
    package enum ReloadReply: Sendable {
        /// The new configuration is in force: what it changed.
        case reloaded(ReloadSummary)
        /// It was not loaded: why, with every problem.
        case refused(ErrorAnswer)
    }

    /// `POST /v1/reload`: what the new configuration changed, or every
    /// problem that kept the agent from loading it.
    package func reload() async throws(Failure) -> ReloadReply {
        let request = try request("POST", "/v1/reload")
        do {
            let response = try await client.execute(request, timeout: .minutes(5))
            let body = Data(try await response.body.collect(upTo: 16 * 1024 * 1024).readableBytesView)
            if response.status == .ok {
                return .reloaded(try Self.decode(ReloadSummary.self, from: body, what: "the reload's answer"))
            }
            return .refused(try Self.decode(ErrorAnswer.self, from: body, what: "the reload's answer"))
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the agent at \(socket) stopped answering (\(error))")
        }
    }

    /// Sends a request and returns the answer's body; an error answer becomes its message.
    private func send(_ method: String, _ path: String) async throws(Failure) -> Data {
        let request = try request(method, path)
        do {
            let response = try await client.execute(request, timeout: .hours(24))
            let body = Data(try await response.body.collect(upTo: 64 * 1024 * 1024).readableBytesView)
            if response.status != .ok, let answer = try? Self.decoder.decode(ErrorAnswer.self, from: body) {
                throw Failure(description: "the agent answered: \(answer.error.message)")
            }
            return body
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "the agent at \(socket) stopped answering (\(error))")
        }
    }

    /// Reads the API's JSON. The agent and the command come from one build, so
    /// an answer that does not decode is a bug, not an old agent to tolerate.
    private static func decode<T: Decodable>(_ type: T.Type, from data: Data, what: String) throws(Failure) -> T {
        do {
            return try decoder.decode(type, from: data)
        } catch {
            throw Failure(description: "\(what) is not what this command expects (\(error))")
        }
    }

    private static let decoder = JSONDecoder.api

    /// A request to the agent's socket.
    private func request(_ method: String, _ path: String) throws(Failure) -> HTTPClientRequest {
        guard let url = URL(httpURLWithSocketPath: socket, uri: path) else {
            throw Failure(description: "the socket path \(socket) cannot be used")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .init(rawValue: method)
        return request
    }

    /// Closes the connections.
    package func shutdown() async {
        try? await client.shutdown()
    }
}
