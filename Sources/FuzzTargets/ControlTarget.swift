import Foundation
import Logging
import SyncAgentDaemon
import SyncCore
import Synchronization
import TestUpstream

#if canImport(Glibc)
import Glibc
#endif

extension FuzzTarget {
    /// The status API's request parsing through its real servers: the input, after a
    /// first byte that picks the status socket (odd) or the TCP listener (even), is sent
    /// on a new connection to a running agent (``ControlAgent``), which is then half-closed.
    ///
    /// The answer is a run of well-formed HTTP/1.1 responses (docs/api.md), each framed
    /// by its `Content-Length` or chunked, and whole, except an event stream, which is
    /// cut; then the server closes the connection. A JSON answer parses as JSON. No answer
    /// is a 5xx but the documented `503`s (`too_many_connections`, `database_unavailable`,
    /// `/readyz` not ready): a malformed request gets a 4xx. Afterwards a new connection
    /// still gets `200` for `GET /v1/status`: the server is not wedged, and gives back
    /// its connections (docs/api.md#connections: past its cap it would answer `503`).
    static let control = FuzzTarget(
        name: "control",
        property: "any request to the status socket or the TCP listener gets well-formed HTTP/1.1 answers "
            + "(4xx when malformed, JSON when they say so) or a close; the server then still answers GET /v1/status"
    ) { input throws(PropertyViolation) in
        let agent = try ControlAgent.shared()
        let endpoint = (input.first ?? 1) & 1 == 1 ? agent.socket : agent.tcp
        let request = Array(input.dropFirst())
        let answer = try endpoint.exchange(request)
        let responses: [ParsedResponse]
        do throws(ResponseError) {
            responses = try ParsedResponse.all(
                in: answer.bytes, endedByClose: answer.closed, headAsked: request.contains(headMethod))
        } catch {
            throw PropertyViolation(
                "\(endpoint) answers \(error.reason): \(shown(request))\n  answer: \(shown(answer.bytes))")
        }
        try require(
            answer.closed || responses.last?.isEventStream == true,
            "\(endpoint) neither closes the connection nor streams events: \(shown(request))\n"
                + "  answer: \(shown(answer.bytes))")
        for response in responses {
            try require(
                response.status < 500 || response.isDocumentedUnavailable,
                "\(endpoint) answers \(response.status): \(shown(request))\n  answer: \(shown(answer.bytes))")
            if response.isJSON, response.isWhole, !response.isBodiless {
                try require(
                    (try? JSONValue(parsing: response.body)) != nil,
                    "\(endpoint) answers JSON that does not parse: \(shown(request))\n  answer: \(shown(answer.bytes))"
                )
            }
        }
        try agent.checkStillAnswers(endpoint, after: request)
    }
}

/// Where the fuzzed requests go: the status socket, or the TCP listener on loopback.
struct ControlEndpoint: Sendable, CustomStringConvertible {
    enum Address: Sendable {
        case unix(String)
        case tcp(port: Int)
    }

    let address: Address

    var description: String {
        switch address {
        case .unix: "the status socket"
        case .tcp: "the TCP listener"
        }
    }

    /// The longest an exchange waits for the server to answer and close.
    static let timeout: Duration = .seconds(5)
    /// How long an event stream is read before the connection is dropped.
    static let eventStreamRead: Duration = .milliseconds(50)
    /// The start of the events of `GET /v1/events` (docs/api.md#following-changes-get-v1events).
    static let resourceEvent = Array("event: resource\ndata: ".utf8)

    /// What the server sent back, and whether it closed the connection.
    struct Answer {
        var bytes: [UInt8]
        var closed: Bool
    }

    /// Connects, sends `request`, half-closes, and reads until the server closes
    /// (or, for an event stream, a little while).
    func exchange(_ request: [UInt8]) throws(PropertyViolation) -> Answer {
        let descriptor = try connect()
        defer { close(descriptor) }
        var sent = 0
        while sent < request.count {
            let count = request[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL))
            }
            if count < 0, errno == EINTR { continue }
            // A server that answers before it reads everything (413) may close first.
            guard count > 0 else { break }
            sent += count
        }
        shutdown(descriptor, Int32(SHUT_WR))
        var bytes: [UInt8] = []
        let clock = ContinuousClock()
        var deadline = clock.now + Self.timeout
        var streaming = false
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline - clock.now
            guard left > .zero else { return Answer(bytes: bytes, closed: false) }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(
                left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000)
            let ready = poll(&poller, 1, max(1, milliseconds))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            // A reset after the answer (the server closed with input unread) is a close too.
            guard count > 0 else { return Answer(bytes: bytes, closed: true) }
            bytes += buffer[..<count]
            if !streaming, ParsedResponse.startsEventStream(bytes) {
                streaming = true
                deadline = min(deadline, clock.now + Self.eventStreamRead)
            }
            // `GET /v1/events` never ends: the start of its first event is enough.
            if streaming, bytes.contains(Self.resourceEvent) {
                return Answer(bytes: bytes, closed: false)
            }
        }
    }

    private func connect() throws(PropertyViolation) -> Int32 {
        switch address {
        case .unix(let path):
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.prefix(raw.count - 1).enumerated() { raw[index] = byte }
            }
            return try Self.connected(AF_UNIX, to: address, "the status socket \(path)")
        case .tcp(let port):
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
            return try Self.connected(AF_INET, to: address, "the TCP listener on port \(port)")
        }
    }

    /// A stream socket of `family` connected to `address` (a `sockaddr_un` or `sockaddr_in`).
    private static func connected<Address>(
        _ family: Int32, to address: Address, _ name: String
    ) throws(PropertyViolation) -> Int32 {
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw PropertyViolation("socket(): errno \(errno)") }
        var address = address
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<Address>.size))
            }
        }
        guard result == 0 else {
            let error = errno
            close(descriptor)
            throw PropertyViolation("cannot connect to \(name): errno \(error)")
        }
        return descriptor
    }
}

/// One HTTP/1.1 response as the server framed it.
struct ParsedResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    /// Whether the body is all there: only an event stream may be cut.
    var isWhole: Bool
    /// Whether it has no body, as an answer to `HEAD`.
    var isBodiless = false

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name }?.value
    }

    var isEventStream: Bool { header("content-type")?.lowercased().hasPrefix("text/event-stream") ?? false }
    var isJSON: Bool { header("content-type")?.lowercased().hasPrefix("application/json") ?? false }

    /// A `503` that docs/api.md#errors and #health-checks-and-the-runs-of-a-resource name.
    var isDocumentedUnavailable: Bool {
        guard status == 503, isWhole, let json = try? JSONValue(parsing: body) else { return false }
        let code = json["error"]?["code"]?.stringValue
        return ["too_many_connections", "database_unavailable"].contains(code)
            || json["status"]?.stringValue == "not ready"
    }

    /// Whether `bytes` hold the head of an event stream.
    static func startsEventStream(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes.prefix(8192), as: UTF8.self).lowercased()
        return text.contains("\r\ncontent-type: text/event-stream")
    }

    /// Every response in `bytes`, in order; the last one's body may run to the end
    /// when `endedByClose`, or be cut when it is an event stream. When `headAsked`
    /// (a request may be `HEAD`), a response followed by nothing or by the next one
    /// may have no body whatever its head says, as the answer to `HEAD` has none.
    static func all(
        in bytes: [UInt8], endedByClose: Bool, headAsked: Bool = false
    ) throws(ResponseError) -> [ParsedResponse] {
        var responses: [ParsedResponse] = []
        var rest = bytes[...]
        while !rest.isEmpty {
            let response = try next(&rest, endedByClose: endedByClose, headAsked: headAsked)
            responses.append(response)
            if !response.isWhole { break }
        }
        return responses
    }

    private static let crlf: [UInt8] = [13, 10]

    private static func line(_ rest: inout ArraySlice<UInt8>) -> String? {
        guard let end = rest.indices.first(where: { rest[$0] == 13 && $0 + 1 < rest.endIndex && rest[$0 + 1] == 10 })
        else { return nil }
        defer { rest = rest[(end + 2)...] }
        return String(decoding: rest[..<end], as: UTF8.self)
    }

    private static func next(
        _ rest: inout ArraySlice<UInt8>, endedByClose: Bool, headAsked: Bool
    ) throws(ResponseError) -> ParsedResponse {
        guard let statusLine = line(&rest) else { throw ResponseError("a status line cut short") }
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", parts[1].count == 3,
            let status = Int(parts[1]), (100...599).contains(status)
        else { throw ResponseError("the status line \"\(statusLine)\"") }
        var headers: [(name: String, value: String)] = []
        while true {
            guard let header = line(&rest) else { throw ResponseError("a head cut short") }
            if header.isEmpty { break }
            guard let colon = header.firstIndex(of: ":"), colon > header.startIndex,
                header[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "-_".contains($0) }),
                !header.contains("\r"), !header.contains("\n")
            else { throw ResponseError("the header line \"\(header)\"") }
            let value = header[header.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            headers.append((String(header[..<colon]), value))
        }
        var response = ParsedResponse(status: status, headers: headers, body: [], isWhole: true)
        let lengths = Set(headers.filter { $0.name.lowercased() == "content-length" }.map(\.value))
        let chunked = response.header("transfer-encoding")?.lowercased() == "chunked"
        guard !(chunked && !lengths.isEmpty) else { throw ResponseError("both Content-Length and chunked") }
        if status < 200 || status == 204 || status == 304 {
            guard lengths.isEmpty || lengths == ["0"], !chunked else { throw ResponseError("a body on \(status)") }
            return response
        }
        if headAsked, rest.isEmpty || rest.starts(with: "HTTP/1.".utf8) {
            response.isBodiless = true
            return response
        }
        if chunked {
            while true {
                guard let sizeLine = line(&rest) else {
                    guard response.isEventStream else { throw ResponseError("a chunked body cut short") }
                    response.isWhole = false
                    return response
                }
                guard let size = Int(sizeLine.split(separator: ";").first ?? "", radix: 16), size >= 0 else {
                    throw ResponseError("the chunk size \"\(sizeLine)\"")
                }
                if size == 0 {
                    while let trailer = line(&rest), !trailer.isEmpty {}
                    return response
                }
                guard rest.count >= size + 2 else {
                    guard response.isEventStream else { throw ResponseError("a chunk cut short") }
                    response.body += rest
                    response.isWhole = false
                    rest = []
                    return response
                }
                response.body += rest.prefix(size)
                guard Array(rest[(rest.startIndex + size)...].prefix(2)) == crlf else {
                    throw ResponseError("a chunk not ended by CRLF")
                }
                rest = rest.dropFirst(size + 2)
            }
        }
        if let text = lengths.first {
            guard lengths.count == 1, let length = Int(text), length >= 0 else {
                throw ResponseError("the Content-Length \(lengths.sorted())")
            }
            guard rest.count >= length else {
                throw ResponseError("a body of \(rest.count) bytes where Content-Length says \(length)")
            }
            response.body = Array(rest.prefix(length))
            rest = rest.dropFirst(length)
            return response
        }
        // No length: the body runs until the server closes.
        guard endedByClose || response.isEventStream else { throw ResponseError("a body without a length") }
        response.body = Array(rest)
        response.isWhole = endedByClose
        rest = []
        return response
    }
}

/// The bytes of the `HEAD` method.
private let headMethod = Array("HEAD".utf8)

/// What is wrong with an answer.
struct ResponseError: Error {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }
}

/// A running agent for the `control` target, started at the first input and kept
/// for the process: a real engine and SQLite database in a temporary folder, two
/// resources synced from ``TestUpstream`` on loopback, the status socket, and the TCP
/// listener with control on (its token is `$HTTP_TOKEN`, ``token``).
///
/// Thread-safety: `Sendable`; immutable once started.
final class ControlAgent: Sendable {
    let socket: ControlEndpoint
    let tcp: ControlEndpoint
    /// Why the agent stopped, if it did.
    private let stopped = Mutex<String?>(nil)

    /// The listener's token, which seeds send in `Authorization: Bearer`.
    static let token = "fuzz-token-0123456789abcdef"

    private init(socket: ControlEndpoint, tcp: ControlEndpoint) {
        self.socket = socket
        self.tcp = tcp
    }

    /// The agent, started at the first call.
    static func shared() throws(PropertyViolation) -> ControlAgent {
        try started.get()
    }

    private static let started: Result<ControlAgent, PropertyViolation> = {
        do {
            return .success(try start())
        } catch let error as PropertyViolation {
            return .failure(error)
        } catch {
            return .failure(PropertyViolation("the agent does not start: \(error)"))
        }
    }()

    private static func start() throws -> ControlAgent {
        let folder = TemporaryFolder.make("sa-fuzz")
        let upstream = try wait { try await TestUpstream.start(collections: ["items": 20, "users": 5]) }
        let port = try freePort()
        let config = """
            {
              "database": "agent.db",
              "socket": "agent.sock",
              "http": {"listen": "127.0.0.1:\(port)", "control": true, "token": "${HTTP_TOKEN}"},
              "defaults": {"interval": "1h", "retry": {"maxAttempts": 1}},
              "resources": [
                {"name": "items", "url": "\(upstream.baseURL)/page/items", "items": "/data", "key": "/id",
                 "pagination": {"style": "page", "size": 10}},
                {"name": "users", "url": "\(upstream.baseURL)/all/users", "key": "/id"}
              ]
            }
            """
        try Data(config.utf8).write(to: URL(fileURLWithPath: folder + "/config.json"))
        let environment = ["HTTP_TOKEN": token]
        let loaded = try ConfigLoader.load(path: folder + "/config.json", environment: environment)
        let agent = ControlAgent(
            socket: ControlEndpoint(address: .unix(loaded.socket)), tcp: ControlEndpoint(address: .tcp(port: port)))
        // The agent's service group takes SIGINT and SIGTERM; libFuzzer (or the test
        // runner) keeps them once the agent has started.
        let signals = [SIGINT, SIGTERM].map { number in
            var action = sigaction()
            sigaction(number, nil, &action)
            return (number, action)
        }
        Task.detached { [upstream] in
            let runner = AgentRunner(
                config: loaded, logger: Logger(label: "sync-agent-fuzz") { _ in SwiftLogNoOpLogHandler() },
                environment: environment)
            do {
                try await runner.run()
                agent.stopped.withLock { $0 = "the agent stopped" }
            } catch {
                agent.stopped.withLock { $0 = "the agent stopped: \(error)" }
            }
            _ = upstream
        }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(60)
        while true {
            do {
                try agent.checkStillAnswers(agent.socket, after: [])
                try agent.checkStillAnswers(agent.tcp, after: [])
                break
            } catch {
                guard clock.now < deadline else { throw PropertyViolation("the agent does not start: \(error)") }
                usleep(20_000)
            }
        }
        for (number, var action) in signals { sigaction(number, &action, nil) }
        return agent
    }

    /// Fails unless a new connection to `endpoint` gets `200` and JSON for `GET /v1/status`.
    func checkStillAnswers(_ endpoint: ControlEndpoint, after request: [UInt8]) throws(PropertyViolation) {
        if let stopped = stopped.withLock({ $0 }) { throw PropertyViolation(stopped) }
        let answer = try endpoint.exchange(
            Array("GET /v1/status HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))
        let responses = try? ParsedResponse.all(in: answer.bytes, endedByClose: answer.closed)
        guard let response = responses?.first, response.status == 200, response.isWhole,
            (try? JSONValue(parsing: response.body)) != nil
        else {
            throw PropertyViolation(
                "after \(shown(request)), \(endpoint) answers GET /v1/status with \(shown(answer.bytes))")
        }
    }

    /// A TCP port free on loopback now.
    private static func freePort() throws -> Int {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw PropertyViolation("cannot find a free port: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// The result of `work`, waited for on this thread (which is not one of the tasks').
    private static func wait<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do {
                let value = try await work()
                result.withLock { $0 = .success(value) }
            } catch {
                result.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try result.withLock { $0 }!.get()
    }
}
