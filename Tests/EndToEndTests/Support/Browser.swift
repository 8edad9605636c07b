import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven through chromedriver, for the status page's tests:
/// Debian's `/usr/bin/chromium` and `/usr/bin/chromedriver`, spoken to in the
/// W3C WebDriver protocol over HTTP on loopback.
///
/// Elements are named by CSS selector and looked up afresh at each call, so a
/// page that redraws itself between two calls is no trouble.
///
/// A keeper shell owns chromedriver (as `PostgresCluster` owns its server):
/// when its standard input closes, because ``quit()`` closed it or because
/// the test process ended however it did, it kills chromedriver's process
/// group, which holds the Chromium it started, and removes the temporary folder.
final class Browser: Sendable {
    /// chromedriver's loopback port.
    let port: Int
    /// The WebDriver session's id.
    let sessionID: String
    /// The temporary folder: chromedriver's log and Chromium's profile.
    let folder: String
    private let keeper: Process
    /// The keeper's standard input: closing it ends chromedriver and Chromium.
    private let commands: FileHandle

    private init(port: Int, sessionID: String, folder: String, keeper: Process, commands: FileHandle) {
        self.port = port
        self.sessionID = sessionID
        self.folder = folder
        self.keeper = keeper
        self.commands = commands
    }

    deinit {
        // A test that forgot `quit()`: the keeper still stops everything.
        try? commands.close()
    }

    /// An error chromedriver answered, such as `no such element` or `javascript error`.
    struct WebDriverError: Error, CustomStringConvertible {
        /// The request, such as `POST /session/ID/url`.
        var request: String
        /// The HTTP status of the answer.
        var status: Int
        /// The WebDriver error code, such as `stale element reference`.
        var error: String
        /// chromedriver's `value.message`.
        var message: String
        var description: String { "\(request) answered \(status) \(error): \(message)" }
    }

    /// No element matches a selector that a click or a keystroke needed.
    struct NoSuchElement: Error, CustomStringConvertible {
        var selector: String
        var description: String { "no element matches the CSS selector \(selector)" }
    }

    struct DidNotStart: Error, CustomStringConvertible {
        var reason: String
        var log: String
        var description: String { "chromedriver did not start: \(reason)\n\(log)" }
    }

    /// Starts chromedriver on a free loopback port and a headless Chromium
    /// session whose page viewport (`window.innerWidth` × `innerHeight`) is
    /// `width` × `height`; `javaScript: false` disables the pages' scripts
    /// (``evaluate(_:as:)`` still works: WebDriver's scripts are not the page's).
    static func start(width: Int = 1280, height: Int = 900, javaScript: Bool = true) async throws -> Browser {
        var reason = ""
        var log = ""
        for _ in 0..<5 {
            let folder = NSTemporaryDirectory() + "sync-agent-browser-" + UUID().uuidString
            try FileManager.default.createDirectory(atPath: folder + "/profile", withIntermediateDirectories: true)
            let port = Int.random(in: 20_000..<60_000)
            let (keeper, commands, driver) = try launchKeeper(folder: folder, port: port)
            let sessionID: String?
            do {
                // The first start of chromedriver on a machine can take a while.
                let ready = try await pollUntil(timeout: .seconds(30)) {
                    await isReady(port: port) || !isRunning(driver)
                }
                reason = ready ? "it exited (port \(port) taken?)" : "it did not answer on port \(port) within 30 s"
                sessionID =
                    ready && isRunning(driver)
                    ? try await createSession(
                        port: port, folder: folder, width: width, height: height, javaScript: javaScript)
                    : nil
            } catch {
                // Chromium did not start, or the test was cancelled: another port will not help.
                await stop(keeper: keeper, commands: commands)
                throw error
            }
            if let sessionID {
                let browser = Browser(
                    port: port, sessionID: sessionID, folder: folder, keeper: keeper, commands: commands)
                do {
                    // `--window-size` made the window that size already.
                    try await browser.setViewport(width: width, height: height)
                } catch {
                    await browser.quit()
                    throw error
                }
                return browser
            }
            log = ["chromedriver.out", "chromedriver.log"].map {
                (try? String(contentsOfFile: folder + "/" + $0, encoding: .utf8)) ?? ""
            }.joined()
            await stop(keeper: keeper, commands: commands)
        }
        throw DidNotStart(reason: reason, log: log)
    }

    /// Starts the keeper shell, which starts chromedriver in a process group
    /// of its own and tells its pid; when its input closes, it kills that
    /// group (chromedriver and the Chromium it started) and removes `folder`.
    ///
    /// The keeper does not `wait` for them: it inherits the test runner's
    /// signal mask, in which SIGCHLD is blocked, and dash's `wait` would never
    /// return; once it has exited, init collects them.
    private static func launchKeeper(folder: String, port: Int) throws -> (Process, FileHandle, Int32) {
        let script = """
            setsid /usr/bin/chromedriver --port=\(port) --log-path=\(quoted(folder + "/chromedriver.log")) \
            </dev/null >>\(quoted(folder + "/chromedriver.out")) 2>&1 &
            pid=$!
            echo $pid
            while read -r command; do :; done
            kill -s KILL -- -$pid 2>/dev/null
            kill -s KILL $pid 2>/dev/null
            rm -rf \(quoted(folder))
            """
        // Pipes closed on exec: no other process this test starts (an agent,
        // another browser) holds the keeper's input open after this one ends.
        let (inputRead, inputWrite) = try cloexecPipe()
        let (outputRead, outputWrite) = try cloexecPipe()
        let keeper = Process()
        keeper.executableURL = URL(fileURLWithPath: "/bin/sh")
        keeper.arguments = ["-c", script]
        keeper.standardInput = inputRead
        keeper.standardOutput = outputWrite
        keeper.standardError = FileHandle.nullDevice
        var environment = ProcessInfo.processInfo.environment
        // The machine's proxies are no test's: Chromium goes straight to loopback.
        for key in [
            "http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY",
        ] {
            environment[key] = nil
        }
        keeper.environment = environment
        defer {
            try? inputRead.close()
            try? outputWrite.close()
            try? outputRead.close()
        }
        do {
            try keeper.run()
        } catch {
            try? inputWrite.close()
            throw error
        }
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let more = outputRead.availableData
            if more.isEmpty { break }
            line.append(more)
        }
        let pid = Int32(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        return (keeper, inputWrite, pid)
    }

    /// A pipe whose ends are closed on exec (the child gets its end by `dup2`,
    /// which clears the flag). Foundation's `Pipe` leaves the flag off, so a
    /// process another test starts at the same moment could inherit the
    /// keeper's input and keep it open after this test ends.
    private static func cloexecPipe() throws -> (read: FileHandle, write: FileHandle) {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { throw LoopbackHTTP.Failure(what: "pipe", code: errno) }
        for descriptor in descriptors { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return (
            FileHandle(fileDescriptor: descriptors[0], closeOnDealloc: true),
            FileHandle(fileDescriptor: descriptors[1], closeOnDealloc: true)
        )
    }

    /// Whether process `pid` is alive (neither gone nor a zombie).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let end = stat.range(of: ") ", options: .backwards)
        else { return false }
        return !stat[end.upperBound...].hasPrefix("Z")
    }

    /// Whether chromedriver's `GET /status` says it is ready.
    private static func isReady(port: Int) async -> Bool {
        guard let data = try? await send(port: port, "GET", "/status", timeout: 2),
            let value = try? value(of: data) as? [String: Any]
        else { return false }
        return value["ready"] as? Bool == true
    }

    private static func createSession(
        port: Int, folder: String, width: Int, height: Int, javaScript: Bool
    ) async throws -> String {
        var arguments = [
            "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--user-data-dir=\(folder)/profile", "--window-size=\(width),\(height)",
            "--no-first-run", "--no-default-browser-check", "--lang=en-US",
        ]
        if !javaScript { arguments.append("--blink-settings=scriptEnabled=false") }
        let capabilities: [String: Any] = [
            "browserName": "chrome",
            "pageLoadStrategy": "normal",
            "timeouts": ["pageLoad": 60_000, "script": 30_000, "implicit": 0],
            "goog:chromeOptions": ["binary": "/usr/bin/chromium", "args": arguments],
        ]
        let data = try await send(
            port: port, "POST", "/session", ["capabilities": ["alwaysMatch": capabilities]], timeout: 120)
        guard let value = try value(of: data) as? [String: Any], let id = value["sessionId"] as? String else {
            throw WebDriverError(
                request: "POST /session", status: 200, error: "no session id",
                message: String(decoding: data, as: UTF8.self))
        }
        return id
    }

    /// Closes the keeper's input and waits until it has stopped everything.
    private static func stop(keeper: Process, commands: FileHandle) async {
        try? commands.close()
        _ = try? await pollUntil(timeout: .seconds(30)) { !keeper.isRunning }
    }

    // MARK: WebDriver requests

    /// Sends a WebDriver request; returns the answer's body, or throws the
    /// error it names, with chromedriver's `value.message`.
    private static func send(
        port: Int, _ method: String, _ path: String, _ body: [String: Any]? = nil, timeout: Int = 90
    ) async throws -> Data {
        let json = try body.map { try JSONSerialization.data(withJSONObject: $0) }
        let (status, data) = try await LoopbackHTTP.exchange(
            port: port, method: method, path: path, body: json, timeout: timeout)
        if status != 200 {
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
            let value = object?["value"] as? [String: Any]
            throw WebDriverError(
                request: "\(method) \(path)", status: status, error: value?["error"] as? String ?? "",
                message: value?["message"] as? String ?? String(decoding: data, as: UTF8.self))
        }
        return data
    }

    /// The `value` of a WebDriver answer, as `JSONSerialization` reads it.
    private static func value(of data: Data) throws -> Any? {
        let object = try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed) as? [String: Any]
        return object?["value"]
    }

    /// A request in this session: `path` is relative to `/session/ID`.
    @discardableResult
    private func session(_ method: String, _ path: String, _ body: [String: Any]? = nil) async throws -> Data {
        try await Self.send(port: port, method, "/session/\(sessionID)\(path)", body)
    }

    /// The WebDriver ids of the elements matching `selector`, in document order.
    private func elements(_ selector: String) async throws -> [String] {
        let data = try await session("POST", "/elements", ["using": "css selector", "value": selector])
        let found = try Self.value(of: data) as? [[String: Any]] ?? []
        return found.compactMap { $0["element-6066-11e4-a52e-4f735466cecf"] as? String }
    }

    /// Runs `body` with the first element matching `selector` (nil if none),
    /// looking again when the page replaced that element in between.
    private func withFirst<T>(_ selector: String, _ body: (String?) async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            do {
                return try await body(try await elements(selector).first)
            } catch let error as WebDriverError where error.error == "stale element reference" && attempt < 10 {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    /// `name` for a URL path.
    private static func escaped(_ name: String) -> String {
        name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? name
    }

    // MARK: What a test does

    /// Opens `url` and waits until it has loaded (the `load` event).
    func open(_ url: String) async throws {
        try await session("POST", "/url", ["url": url])
    }

    /// The URL of the page shown.
    func currentURL() async throws -> String {
        try Self.value(of: try await session("GET", "/url")) as? String ?? ""
    }

    /// The visible text of the first element matching the CSS `selector`
    /// (as a person sees it: a hidden element's is ""), nil if none matches.
    func text(_ selector: String) async throws -> String? {
        try await withFirst(selector) { element in
            guard let element else { return nil }
            return try Self.value(of: try await session("GET", "/element/\(element)/text")) as? String ?? ""
        }
    }

    /// The number of elements matching the CSS `selector`.
    func count(_ selector: String) async throws -> Int {
        try await elements(selector).count
    }

    /// The attribute `name` of the first element matching `selector`, as the
    /// page's HTML (or a script's `setAttribute`) set it; nil if no element
    /// matches or it has no such attribute. For what a person typed into an
    /// input, ask for its ``property(_:_:)`` `value`.
    func attribute(_ selector: String, _ name: String) async throws -> String? {
        try await withFirst(selector) { element in
            guard let element else { return nil }
            let data = try await session("GET", "/element/\(element)/attribute/\(Self.escaped(name))")
            return try Self.value(of: data) as? String
        }
    }

    /// The DOM property `name` (such as `value`, `checked`, `disabled`) of the
    /// first element matching `selector`, decoded as `Value`; nil if no
    /// element matches. (`property("#name", "value", as: String.self)`)
    func property<Value: Decodable>(
        _ selector: String, _ name: String, as type: Value.Type = Value.self
    ) async throws -> Value? {
        try await withFirst(selector) { element in
            guard let element else { return nil }
            let data = try await session("GET", "/element/\(element)/property/\(Self.escaped(name))")
            return try JSONDecoder().decode(WebDriverAnswer<Value>.self, from: data).value
        }
    }

    /// Clicks the first element matching `selector` (scrolled into view), as
    /// a person does; throws ``NoSuchElement`` if none matches, and WebDriver's
    /// `element click intercepted` if something else covers it.
    func click(_ selector: String) async throws {
        try await withFirst(selector) { element in
            guard let element else { throw NoSuchElement(selector: selector) }
            try await session("POST", "/element/\(element)/click", [:])
        }
    }

    /// Types `text` into the first element matching `selector` (after what
    /// it holds already; see ``clear(_:)``).
    func type(_ selector: String, _ text: String) async throws {
        try await withFirst(selector) { element in
            guard let element else { throw NoSuchElement(selector: selector) }
            try await session("POST", "/element/\(element)/value", ["text": text])
        }
    }

    /// Empties the input or text area matching `selector`.
    func clear(_ selector: String) async throws {
        try await withFirst(selector) { element in
            guard let element else { throw NoSuchElement(selector: selector) }
            try await session("POST", "/element/\(element)/clear", [:])
        }
    }

    /// Runs `script`, the body of a function (`return document.title;`), in
    /// the page; returns its result as JSON text with sorted keys (`null` for none).
    func evaluateJSON(_ script: String) async throws -> String {
        let data = try await session("POST", "/execute/sync", ["script": script, "args": [Any]()])
        return try Self.json(Self.value(of: data))
    }

    /// `value` as JSON text with sorted keys, `null` for nil.
    private static func json(_ value: Any?) throws -> String {
        let json = try JSONSerialization.data(
            withJSONObject: value ?? NSNull(), options: [.fragmentsAllowed, .sortedKeys])
        return String(decoding: json, as: UTF8.self)
    }

    /// Runs `script`, the body of a function (`return window.innerWidth;`), in
    /// the page; returns its result decoded as `Value` (an optional for a
    /// script that may return nothing).
    func evaluate<Value: Decodable>(_ script: String, as type: Value.Type = Value.self) async throws -> Value {
        let data = try await session("POST", "/execute/sync", ["script": script, "args": [Any]()])
        return try JSONDecoder().decode(WebDriverAnswer<Value>.self, from: data).value
    }

    /// Saves what the viewport shows as a PNG file at `path`.
    func screenshot(to path: String) async throws {
        let data = try await session("GET", "/screenshot")
        guard let base64 = try Self.value(of: data) as? String, let png = Data(base64Encoded: base64) else {
            throw WebDriverError(
                request: "GET /session/\(sessionID)/screenshot", status: 200, error: "no image",
                message: String(decoding: data.prefix(200), as: UTF8.self))
        }
        try png.write(to: URL(fileURLWithPath: path))
    }

    /// Makes the page's viewport (`window.innerWidth` × `innerHeight`)
    /// `width` × `height`, as on a phone for 375 × 800. Chromium keeps its
    /// window at least 500 pixels wide and takes room in it for its (unseen)
    /// toolbars, so this resizes the window and then sets the viewport itself
    /// through DevTools, as DevTools' device mode does.
    func setWindowSize(width: Int, height: Int) async throws {
        try await session("POST", "/window/rect", ["width": width, "height": height])
        try await setViewport(width: width, height: height)
    }

    /// Makes the page's viewport `width` × `height` (whatever the window's size).
    private func setViewport(width: Int, height: Int) async throws {
        try await session(
            "POST", "/goog/cdp/execute",
            [
                "cmd": "Emulation.setDeviceMetricsOverride",
                "params": ["width": width, "height": height, "deviceScaleFactor": 1, "mobile": false],
            ])
    }

    /// Waits until `condition` holds, checking every 50 ms, for at most
    /// `timeout`; whether it held. (It runs in the caller's isolation, so the
    /// condition may use what the caller's actor holds.)
    nonisolated(nonsending) func waitUntil(
        timeout: Duration = .seconds(30), _ condition: () async throws -> Bool
    ) async throws -> Bool {
        try await pollUntil(timeout: timeout, condition)
    }

    /// Ends the session (Chromium quits), stops chromedriver and removes the
    /// temporary folder.
    func quit() async {
        _ = try? await Self.send(port: port, "DELETE", "/session/\(sessionID)", timeout: 30)
        await Self.stop(keeper: keeper, commands: commands)
    }
}

/// Waits until `condition` holds, checking every 50 ms, for at most `timeout`.
private nonisolated(nonsending) func pollUntil(
    timeout: Duration, _ condition: () async throws -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(50))
    }
    return try await condition()
}

/// A WebDriver answer whose `value` is a `Value`.
private struct WebDriverAnswer<Value: Decodable>: Decodable {
    var value: Value
}

/// `text` quoted for `/bin/sh`.
private func quoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// HTTP/1.1 to a server on loopback, one connection per request.
///
/// Not `URLSession`: FoundationNetworking (up to Swift 6.3 at least) fails
/// every answer of chromedriver's with "Failed writing header", because its
/// header lines have no space after the colon (`Content-Length:250`), which
/// HTTP allows (fixed by swift-corelibs-foundation#5527).
private enum LoopbackHTTP {
    struct Failure: Error, CustomStringConvertible {
        var what: String
        var code: Int32
        var description: String { "\(what): \(String(cString: strerror(code)))" }
    }

    /// Sends the request and returns the answer's status and body, on a
    /// thread of its own (its socket calls block, for up to `timeout` seconds each).
    static func exchange(
        port: Int, method: String, path: String, body: Data?, timeout: Int
    ) async throws -> (status: Int, body: Data) {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(
                    with: Result {
                        try blockingExchange(port: port, method: method, path: path, body: body, timeout: timeout)
                    })
            }
        }
    }

    private static func blockingExchange(
        port: Int, method: String, path: String, body: Data?, timeout: Int
    ) throws -> (status: Int, body: Data) {
        guard let descriptor = connectedLoopbackSocket(port: port) else {
            throw Failure(what: "connect to 127.0.0.1:\(port)", code: errno)
        }
        defer { close(descriptor) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))

        var request = Data(
            """
            \(method) \(path) HTTP/1.1\r
            Host: 127.0.0.1:\(port)\r
            Connection: close\r
            Accept: application/json\r
            Content-Type: application/json; charset=utf-8\r
            Content-Length: \(body?.count ?? 0)\r
            \r

            """.utf8)
        request.append(body ?? Data())
        try request.withUnsafeBytes { bytes in
            var sent = 0
            while sent < bytes.count {
                let count = Glibc.send(descriptor, bytes.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
                guard count > 0 else { throw Failure(what: "send to 127.0.0.1:\(port)", code: errno) }
                sent += count
            }
        }

        // Read the head, then as much body as Content-Length says (or all until the server closes).
        var answer = Data()
        var buffer = [UInt8](repeating: 0, count: 65536)
        var head: (status: Int, length: Int?, bodyStart: Int)?
        while true {
            if let head, let length = head.length, answer.count - head.bodyStart >= length { break }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { throw Failure(what: "read from 127.0.0.1:\(port)", code: errno) }
            if count == 0 { break }
            answer.append(contentsOf: buffer[0..<count])
            if head == nil, let end = answer.range(of: Data("\r\n\r\n".utf8)) {
                head = parseHead(answer[answer.startIndex..<end.lowerBound], bodyStart: end.upperBound)
            }
        }
        guard let head else {
            throw Failure(what: "no HTTP answer from 127.0.0.1:\(port) to \(method) \(path)", code: ECONNRESET)
        }
        let end = head.length.map { min(answer.count, head.bodyStart + $0) } ?? answer.count
        return (head.status, Data(answer[head.bodyStart..<end]))
    }

    /// The status and Content-Length of an answer's head (header names in any
    /// case, with or without space after the colon).
    private static func parseHead(_ head: Data, bodyStart: Int) -> (status: Int, length: Int?, bodyStart: Int) {
        let lines = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { line in Int(line.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var length: Int?
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == "content-length" {
                length = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return (status, length, bodyStart)
    }
}
