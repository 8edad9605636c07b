import Foundation
import NIOCore
import Synchronization

/// What the upstream does for one request: wait, then answer (or fail).
struct ResponsePlan: Sendable {
    enum Outcome: Sendable {
        case answer(status: Int, headers: [(String, String)], body: ByteBuffer)
        case reset
        case truncate(status: Int, headers: [(String, String)], body: ByteBuffer)
    }

    var delay: Duration = .zero
    var outcome: Outcome
}

/// The upstream's data, faults and request log, shared by its connections.
///
/// Thread-safety: `Sendable`; all state is behind one `Mutex`, and response
/// bodies are built outside it.
final class UpstreamState: Sendable {
    private struct Contents {
        var datasets: [String: Dataset] = [:]
        var faults: [Fault] = []
        var requests: [SeenRequest] = []
    }

    private let contents = Mutex(Contents())

    /// The most requests kept in the log.
    static let requestLogLimit = 10_000

    init(datasets: [String: Int]) {
        contents.withLock { contents in
            for (name, count) in datasets { contents.datasets[name] = Dataset(count: count) }
        }
    }

    // MARK: Data

    func setDataset(_ name: String, count: Int) {
        contents.withLock { contents in
            var dataset = contents.datasets[name] ?? Dataset(count: count)
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
            dataset.touch()
            contents.datasets[name] = dataset
        }
    }

    func removeItems(_ name: String, ids: [Int]) {
        contents.withLock { contents in
            guard var dataset = contents.datasets[name] else { return }
            dataset.removed.formUnion(ids.filter { (1...dataset.count).contains($0) })
            dataset.touch()
            contents.datasets[name] = dataset
        }
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

    var requests: [SeenRequest] {
        contents.withLock { $0.requests }
    }

    func clearRequests() {
        contents.withLock { $0.requests.removeAll() }
    }

    // MARK: Answering

    /// Logs the request, applies the first matching fault, and plans the answer.
    func plan(for request: SeenRequest, origin: String) -> ResponsePlan {
        if request.path.hasPrefix("/_control/") {
            return ResponsePlan(outcome: control(request))
        }
        let (fault, dataset) = contents.withLock { contents -> (Fault?, Dataset?) in
            if contents.requests.count >= Self.requestLogLimit { contents.requests.removeFirst(1000) }
            contents.requests.append(request)
            var fault: Fault?
            if let index = contents.faults.firstIndex(where: { $0.matches(path: request.path, query: request.query) }) {
                fault = contents.faults[index]
                if let times = fault?.times {
                    if times <= 1 {
                        contents.faults.remove(at: index)
                    } else {
                        contents.faults[index].times = times - 1
                    }
                }
            }
            let name = request.path.split(separator: "/").dropFirst().first.map(String.init) ?? ""
            return (fault, contents.datasets[name])
        }
        var plan = ResponsePlan(outcome: .reset)
        plan.delay = fault?.delay ?? .zero
        switch fault?.action ?? .respond {
        case .respond:
            plan.outcome = Routes.answer(request, dataset: dataset, origin: origin)
        case .status(let status, let retryAfter, let body):
            var headers: [(String, String)] = []
            if let retryAfter { headers.append(("Retry-After", retryAfter)) }
            plan.outcome = Routes.json(status: status, body ?? #"{"error":"injected fault"}"#, headers: headers)
        case .reset:
            plan.outcome = .reset
        case .truncate:
            if case .answer(let status, let headers, let body) = Routes.answer(
                request, dataset: dataset, origin: origin)
            {
                plan.outcome = .truncate(status: status, headers: headers, body: body)
            }
        case .invalidJSON:
            plan.outcome = Routes.json(status: 200, #"{"data": [{"id": 1, "name": "cut"#)
        }
        return plan
    }

    /// `/_control/…`: changes the upstream, for the standalone server and the demo.
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
