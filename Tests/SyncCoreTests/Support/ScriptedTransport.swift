import Foundation
import NIOCore
import NIOHTTP1
import StreamsTesting
import Synchronization

@testable import SyncCore

/// A stand-in for the network in engine tests: every request is answered by
/// the test's handler (which may wait on the virtual clock, fail, or answer
/// JSON), and remembered with the virtual time it was sent at.
final class ScriptedTransport: PageTransport {
    typealias Handler = @Sendable (HTTPRequestSpec) async throws -> HTTPResponseData

    struct Seen: Sendable {
        var url: String
        var at: Duration
    }

    let clock: VirtualClock
    private let handler: Mutex<Handler>
    private let seen = Mutex<[Seen]>([])

    init(clock: VirtualClock, handler: @escaping Handler = { _ in ScriptedTransport.json(#"{"items": []}"#) }) {
        self.clock = clock
        self.handler = Mutex(handler)
    }

    /// Answers the requests from now on with `handler`.
    func respond(_ handler: @escaping Handler) {
        self.handler.withLock { $0 = handler }
    }

    /// The requests sent so far.
    var requests: [Seen] { seen.withLock { $0 } }

    func send(_ spec: HTTPRequestSpec, maxBytes: Int) async throws -> HTTPResponseData {
        seen.withLock { $0.append(Seen(url: spec.url, at: clock.now.offset)) }
        let handler = handler.withLock { $0 }
        return try await handler(spec)
    }

    /// A JSON answer.
    static func json(_ text: String, status: Int = 200) -> HTTPResponseData {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json")
        return HTTPResponseData(status: status, headers: headers, body: ByteBuffer(string: text), url: "")
    }

    /// What a request fails with when the network is unreachable.
    static let unreachable = IOError(errnoCode: ENETUNREACH, reason: "connect")
}
