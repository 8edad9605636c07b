import Foundation
import NIOCore
import Synchronization

/// What the upstream does for one request: wait, then answer (or fail).
package struct ResponsePlan: Sendable {
    /// What is sent once the delay is over.
    package enum Outcome: Sendable {
        /// A whole answer.
        case answer(status: Int, headers: [(String, String)], body: ByteBuffer)
        /// No answer: the connection is reset (TCP RST).
        case reset
        /// The head and half the body, then the connection is closed.
        case truncate(status: Int, headers: [(String, String)], body: ByteBuffer)
    }

    var delay: Duration = .zero
    var outcome: Outcome
}

extension ResponsePlan.Outcome {
    /// The same answer with `headers` added.
    package func adding(_ extra: [(String, String)]) -> Self {
        switch self {
        case .answer(let status, let headers, let body): .answer(status: status, headers: headers + extra, body: body)
        case .truncate(let status, let headers, let body):
            .truncate(status: status, headers: headers + extra, body: body)
        case .reset: .reset
        }
    }
}

/// The upstream's data, faults and log of requests, shared by its connections, and the
/// routes added to it.
///
/// Thread-safety: `Sendable`; all state is behind one `Mutex`, and response
/// bodies are built outside it.
package final class UpstreamState: Sendable {
    private struct Contents {
        var datasets: [String: Dataset] = [:]
        var faults: [Fault] = []
        var requests: [SeenRequest] = []
        var exchanges: [Exchange] = []
    }

    private let contents = Mutex(Contents())
    private let routes: (any UpstreamRoutes)?

    /// The most requests kept in the log.
    package static let requestLogLimit = 10_000

    init(datasets: [String: Int], routes: (any UpstreamRoutes)?) {
        self.routes = routes
        contents.withLock { contents in
            for (name, count) in datasets { contents.datasets[name] = Dataset(count: count) }
        }
    }

    // MARK: Data

    /// The collection `name` as it is now.
    package func dataset(named name: String) -> Dataset? {
        contents.withLock { $0.datasets[name] }
    }

    func setDataset(_ name: String, count: Int) {
        contents.withLock { contents in
            guard var dataset = contents.datasets[name] else {
                contents.datasets[name] = Dataset(count: count)
                return
            }
            // Items added to a collection are changes; items cut off leave no tombstone.
            if count > dataset.count { dataset.stamp(Array((dataset.count + 1)...count)) }
            dataset.count = count
            dataset.removed = dataset.removed.filter { $0 <= count }
            dataset.touch()
            contents.datasets[name] = dataset
        }
    }

    func changeItems(_ name: String, ids: [Int]) {
        contents.withLock { contents in
            guard var dataset = contents.datasets[name] else { return }
            for id in ids { dataset.revisions[id, default: 1] += 1 }
            dataset.stamp(ids)
            dataset.touch()
            contents.datasets[name] = dataset
        }
    }

    func removeItems(_ name: String, ids: [Int]) {
        contents.withLock { contents in
            guard var dataset = contents.datasets[name] else { return }
            let live = ids.filter { (1...dataset.count).contains($0) && !dataset.removed.contains($0) }
            dataset.removed.formUnion(live)
            dataset.tick += 1
            for id in live { dataset.removedStamps[id] = dataset.tick }
            dataset.touch()
            contents.datasets[name] = dataset
        }
    }

    func setModified(_ name: String, to date: Date) {
        contents.withLock { $0.datasets[name]?.modified = date }
    }

    func item(_ name: String, id: Int) -> String? {
        contents.withLock { $0.datasets[name]?.item(id) }
    }

    // MARK: Faults and log

    func addFault(_ fault: Fault) {
        contents.withLock { $0.faults.append(fault) }
    }

    func clearFaults() {
        contents.withLock { $0.faults.removeAll() }
    }

    /// The requests received so far (control requests excluded), oldest first.
    package var requests: [SeenRequest] {
        contents.withLock { $0.requests }
    }

    func clearRequests() {
        contents.withLock { contents in
            contents.requests.removeAll()
            contents.exchanges.removeAll()
        }
    }

    /// The requests answered (or whose connection closed) so far, oldest end first.
    package var exchanges: [Exchange] {
        contents.withLock { $0.exchanges }
    }

    /// Logs the end of `request`: its answer written, or its connection closed.
    func ended(_ request: SeenRequest) {
        let exchange = Exchange(request: request, ended: .now)
        contents.withLock { contents in
            if contents.exchanges.count >= Self.requestLogLimit { contents.exchanges.removeFirst(1000) }
            contents.exchanges.append(exchange)
        }
    }

    // MARK: Answering

    /// Logs the request, applies the first matching fault, and plans the answer: the added
    /// routes', else the collection routes'.
    func plan(for request: SeenRequest, origin: String) -> ResponsePlan {
        if request.path.hasPrefix("/_control/") {
            return ResponsePlan(outcome: routes?.control(request, state: self) ?? control(request))
        }
        let fault = contents.withLock { contents -> Fault? in
            if contents.requests.count >= Self.requestLogLimit { contents.requests.removeFirst(1000) }
            contents.requests.append(request)
            guard
                let index = contents.faults.firstIndex(where: { $0.matches(path: request.path, query: request.query) })
            else { return nil }
            let fault = contents.faults[index]
            if let times = fault.times {
                if times <= 1 {
                    contents.faults.remove(at: index)
                } else {
                    contents.faults[index].times = times - 1
                }
            }
            return fault
        }
        var plan = ResponsePlan(outcome: .reset)
        plan.delay = fault?.delay ?? .zero
        let answeredAt = request.receivedAt.addingTimeInterval(seconds(plan.delay))
        let action = fault?.action ?? .respond
        switch action {
        case .respond, .truncate, .contentLength:
            var outcome =
                routes?.answer(request, origin: origin, answeredAt: answeredAt, state: self)
                ?? Routes.answer(
                    request, dataset: dataset(named: Routes.collectionName(in: request.path)), origin: origin)
            if action == .truncate, case .answer(let status, let headers, let body) = outcome {
                outcome = .truncate(status: status, headers: headers, body: body)
            }
            if case .contentLength(let length) = action { outcome = outcome.adding([("Content-Length", length)]) }
            plan.outcome = outcome
            return plan
        case .status(let status, let retryAfter, let body):
            let headers = retryAfter.map { [("Retry-After", $0)] } ?? []
            plan.outcome = Routes.json(status: status, body ?? #"{"error":"injected fault"}"#, headers: headers)
        case .reset:
            plan.outcome = .reset
        case .invalidJSON:
            plan.outcome = Routes.json(status: 200, #"{"data": [{"id": 1, "name": "cut"#)
        }
        if let fault, let routes {
            plan.outcome = routes.faulted(plan.outcome, by: fault, request: request, answeredAt: answeredAt)
        }
        return plan
    }

    private func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }

    /// `/_control/…`: changes the upstream, for the standalone server (`test-upstream`) and
    /// for trying faults on the demo's API with curl.
    ///
    /// | request | does |
    /// | --- | --- |
    /// | `GET /_control/requests` | the requests so far: `[{"method", "path", "query"}]` |
    /// | `DELETE /_control/requests` | forgets them |
    /// | `POST /_control/collections/NAME?count=N` | creates or resizes a collection |
    /// | `POST` or `DELETE /_control/collections/NAME/items/ID` | changes or removes an item |
    /// | `POST /_control/faults` | adds a fault (``Fault/init(controlBody:)``) |
    /// | `DELETE /_control/faults` | removes every fault |
    private func control(_ request: SeenRequest) -> ResponsePlan.Outcome {
        let parts = request.path.split(separator: "/").map(String.init)
        let query = Routes.parameters(request.query)
        switch (request.method, parts.dropFirst().first ?? "", parts.count) {
        case ("GET", "requests", 2):
            let list = requests.map { #"{"method":"\#($0.method)","path":"\#($0.path)","query":"\#($0.query)"}"# }
            return Routes.json(status: 200, "[" + list.joined(separator: ",") + "]")
        case ("DELETE", "requests", 2):
            clearRequests()
            return Routes.json(status: 200, "{}")
        case ("POST", "collections", 3):
            guard let count = query["count"].flatMap(Int.init), count >= 0 else {
                return Routes.json(status: 400, #"{"error":"count is required"}"#)
            }
            setDataset(parts[2], count: count)
            return Routes.json(status: 200, "{}")
        case ("POST", "collections", 5), ("DELETE", "collections", 5):
            guard let id = Int(parts[4]) else { return Routes.json(status: 400, #"{"error":"bad id"}"#) }
            if request.method == "POST" { changeItems(parts[2], ids: [id]) } else { removeItems(parts[2], ids: [id]) }
            return Routes.json(status: 200, "{}")
        case ("POST", "faults", 2):
            guard let fault = Fault(controlBody: request.body) else {
                return Routes.json(status: 400, #"{"error":"a fault needs a path and a known action"}"#)
            }
            addFault(fault)
            return Routes.json(status: 200, "{}")
        case ("DELETE", "faults", 2):
            clearFaults()
            return Routes.json(status: 200, "{}")
        default:
            return Routes.json(status: 404, #"{"error":"unknown control endpoint"}"#)
        }
    }
}

extension Fault {
    /// A fault from `/_control/faults` JSON: `{"path", "query", "times", "delayMs",
    /// "action": "respond" | "status" | "reset" | "truncate" | "invalidJSON", "status", "retryAfter"}`.
    init?(controlBody body: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any],
            let path = object["path"] as? String
        else { return nil }
        let action: Action
        switch object["action"] as? String ?? "respond" {
        case "respond": action = .respond
        case "status":
            action = .status(
                object["status"] as? Int ?? 503, retryAfter: object["retryAfter"] as? String,
                body: object["body"] as? String)
        case "reset": action = .reset
        case "truncate": action = .truncate
        case "invalidJSON": action = .invalidJSON
        default: return nil
        }
        self.init(
            path: path, query: object["query"] as? String, times: object["times"] as? Int,
            delay: .milliseconds(object["delayMs"] as? Int ?? 0), action: action)
    }
}
