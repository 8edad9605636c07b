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

extension ResponsePlan.Outcome {
    /// The same answer with `headers` added.
    func adding(_ extra: [(String, String)]) -> Self {
        switch self {
        case .answer(let status, let headers, let body): .answer(status: status, headers: headers + extra, body: body)
        case .truncate(let status, let headers, let body):
            .truncate(status: status, headers: headers + extra, body: body)
        case .reset: .reset
        }
    }
}

/// The upstream's data, faults, rate limits and logs, shared by its connections.
///
/// Thread-safety: `Sendable`; all state is behind one `Mutex`, and response
/// bodies are built outside it.
final class UpstreamState: Sendable {
    private struct Contents {
        var datasets: [String: Dataset] = [:]
        var faults: [Fault] = []
        var requests: [SeenRequest] = []
        var limiters: [ImitatedAPI: RateLimiter] = [:]
        var tokens: [ImitatedAPI: String] = [:]
        var oauth2: OAuth2Authority?
        var rateLimited: [RateLimitLog.Entry] = []
    }

    private let contents = Mutex(Contents())

    /// The most requests (and rate-limited answers) kept in the logs.
    static let requestLogLimit = 10_000

    init(datasets: [String: Int]) {
        contents.withLock { contents in
            for (name, count) in datasets { contents.datasets[name] = Dataset(count: count) }
            for api in ImitatedAPI.allCases {
                contents.limiters[api] = api.defaultRateLimit.map(RateLimiter.init)
            }
        }
    }

    // MARK: Data

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

    func item(_ name: String, id: Int) -> String? {
        contents.withLock { $0.datasets[name]?.item(id) }
    }

    // MARK: Rate limits and tokens

    func setRateLimit(_ limit: UpstreamRateLimit?, for api: ImitatedAPI) {
        contents.withLock { $0.limiters[api] = limit.map(RateLimiter.init) }
    }

    func rateLimit(for api: ImitatedAPI) -> UpstreamRateLimit? {
        contents.withLock { $0.limiters[api]?.limit }
    }

    func setToken(_ token: String?, for api: ImitatedAPI) {
        contents.withLock { $0.tokens[api] = token }
    }

    func setOAuth2(_ server: OAuth2Server?) {
        contents.withLock { $0.oauth2 = server.map(OAuth2Authority.init) }
    }

    func revokeOAuth2AccessTokens() {
        contents.withLock { $0.oauth2?.revokeAccessTokens() }
    }

    var oauth2RefreshToken: String? {
        contents.withLock { $0.oauth2?.server.refreshToken }
    }

    var rateLimitLog: RateLimitLog {
        let (entries, requests) = contents.withLock { ($0.rateLimited, $0.requests) }
        return RateLimitLog(entries: entries, requests: requests)
    }

    func clearRateLimitLog() {
        contents.withLock { $0.rateLimited.removeAll() }
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

    /// Logs the request, applies the first matching fault (or else the API's token and
    /// rate limit), and plans the answer.
    func plan(for request: SeenRequest, origin: String) -> ResponsePlan {
        if request.path.hasPrefix("/_control/") {
            return ResponsePlan(outcome: control(request))
        }
        let api = ImitatedAPI(path: request.path)
        let (fault, dataset, token) = contents.withLock { contents -> (Fault?, Dataset?, String?) in
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
            let name = Routes.collectionName(in: request.path)
            return (fault, contents.datasets[name], api.flatMap { contents.tokens[$0] })
        }
        var plan = ResponsePlan(outcome: .reset)
        plan.delay = fault?.delay ?? .zero
        let answeredAt = request.receivedAt.addingTimeInterval(seconds(plan.delay))
        let action = fault?.action ?? .respond
        switch action {
        case .respond, .truncate:
            var outcome: ResponsePlan.Outcome
            let presented = api.flatMap { $0.imitation.presentedToken(request) }
            if let api, let token, presented != token {
                outcome = api.imitation.unauthorized(presented: presented)
                    .adding(quotaHeaders(of: api, at: request.receivedAt))
            } else if request.path == OAuth2Authority.tokenPath {
                outcome =
                    contents.withLock { $0.oauth2?.token(request) }
                    ?? Routes.json(status: 404, #"{"error":"no token endpoint"}"#)
            } else if api == nil, let refusal = contents.withLock({ $0.oauth2?.refusal(request) }) {
                outcome = refusal
            } else {
                outcome = Routes.answer(request, dataset: dataset, origin: origin)
                if let api { outcome = limit(outcome, of: api, request: request, answeredAt: answeredAt) }
            }
            if action == .truncate, case .answer(let status, let headers, let body) = outcome {
                outcome = .truncate(status: status, headers: headers, body: body)
            }
            plan.outcome = outcome
        case .status(let status, let retryAfter, let body):
            var headers: [(String, String)] = []
            if let retryAfter { headers.append(("Retry-After", retryAfter)) }
            if let api { headers += quotaHeaders(of: api, at: request.receivedAt) }
            if let fault, let retryAfter, [403, 429, 503].contains(status) {
                let entry = RateLimitLog.Entry(
                    api: nil, scope: fault.path, request: request, status: status, answeredAt: answeredAt,
                    allowedAt: Self.allowedAt(retryAfter: retryAfter, answeredAt: answeredAt))
                contents.withLock { Self.record(entry, in: &$0) }
            }
            plan.outcome = Routes.json(status: status, body ?? #"{"error":"injected fault"}"#, headers: headers)
        case .reset:
            plan.outcome = .reset
        case .invalidJSON:
            let headers = api.map { quotaHeaders(of: $0, at: request.receivedAt) } ?? []
            plan.outcome = Routes.json(status: 200, #"{"data": [{"id": 1, "name": "cut"#, headers: headers)
        }
        return plan
    }

    /// Passes `outcome` through the API's rate limit: adds its quota headers, or replaces
    /// it with the API's refusal and logs that. A GitHub 304 does not count.
    private func limit(
        _ outcome: ResponsePlan.Outcome, of api: ImitatedAPI, request: SeenRequest, answeredAt: Date
    ) -> ResponsePlan.Outcome {
        guard case .answer(let status, _, _) = outcome else { return outcome }
        let counts = !(api == .github && status == 304)
        let decision = contents.withLock { contents -> RateLimitDecision? in
            guard var limiter = contents.limiters[api] else { return nil }
            let decision = limiter.admit(at: request.receivedAt, counts: counts)
            contents.limiters[api] = limiter
            if !decision.admitted {
                let entry = RateLimitLog.Entry(
                    api: api, scope: api.pathPrefix, request: request, status: api.imitation.refusalStatus,
                    answeredAt: answeredAt,
                    allowedAt: api.imitation.allowedAt(after: decision, answeredAt: answeredAt))
                Self.record(entry, in: &contents)
            }
            return decision
        }
        guard let decision else { return outcome }
        guard decision.admitted else { return api.imitation.refusal(decision, to: request) }
        return outcome.adding(api.imitation.quotaHeaders(decision))
    }

    /// The API's quota headers for an answer that does not count (an injected fault).
    private func quotaHeaders(of api: ImitatedAPI, at now: Date) -> [(String, String)] {
        let decision = contents.withLock { contents -> RateLimitDecision? in
            guard var limiter = contents.limiters[api] else { return nil }
            defer { contents.limiters[api] = limiter }
            return limiter.admit(at: now, counts: false)
        }
        return decision.map(api.imitation.quotaHeaders) ?? []
    }

    private static func record(_ entry: RateLimitLog.Entry, in contents: inout Contents) {
        if contents.rateLimited.count >= requestLogLimit { contents.rateLimited.removeFirst(1000) }
        contents.rateLimited.append(entry)
    }

    /// When a `Retry-After` of `value` (seconds, possibly decimal, or an HTTP date) sent at
    /// `answeredAt` allows the next request.
    private static func allowedAt(retryAfter value: String, answeredAt: Date) -> Date? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(text), seconds >= 0 { return answeredAt.addingTimeInterval(seconds) }
        return Routes.parseHTTPDate(text)
    }

    private func seconds(_ duration: Duration) -> TimeInterval {
        let (seconds, attoseconds) = duration.components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
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
        case ("POST", "ratelimits", 3), ("DELETE", "ratelimits", 3):
            guard let api = ImitatedAPI(rawValue: parts[2]) else {
                return Routes.json(status: 404, #"{"error":"no such API"}"#)
            }
            guard request.method == "POST" else {
                setRateLimit(nil, for: api)
                return Routes.json(status: 200, "{}")
            }
            guard let limit = UpstreamRateLimit(controlBody: request.body), limit.isValid else {
                return Routes.json(
                    status: 400,
                    #"{"error":"a rate limit is {\"requests\", \"windowSeconds\"} or {\"bucketSize\", \"leaksPerSecond\"}"}"#
                )
            }
            setRateLimit(limit, for: api)
            return Routes.json(status: 200, "{}")
        case ("POST", "tokens", 3), ("DELETE", "tokens", 3):
            guard let api = ImitatedAPI(rawValue: parts[2]) else {
                return Routes.json(status: 404, #"{"error":"no such API"}"#)
            }
            setToken(request.method == "POST" ? query["token"] : nil, for: api)
            return Routes.json(status: 200, "{}")
        case ("GET", "ratelimit-log", 2):
            return Routes.json(status: 200, rateLimitLog.controlJSON)
        case ("DELETE", "ratelimit-log", 2):
            clearRateLimitLog()
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

extension UpstreamRateLimit {
    /// A rate limit from `/_control/ratelimits/API` JSON: `{"requests", "windowSeconds"}`
    /// or `{"bucketSize", "leaksPerSecond"}`.
    init?(controlBody body: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any] else {
            return nil
        }
        if let requests = object["requests"] as? Int, let seconds = object["windowSeconds"] as? Int {
            self = .fixedWindow(requests: requests, window: .seconds(seconds))
        } else if let size = object["bucketSize"] as? Int, let leak = object["leaksPerSecond"] as? Double {
            self = .leakyBucket(size: size, leaksPerSecond: leak)
        } else {
            return nil
        }
    }
}

extension RateLimitLog {
    /// The log as `/_control/ratelimit-log` answers it: `{"limitedAnswers", "entries":
    /// [{"api", "scope", "status", "path", "query", "answeredAt", "allowedAt"}], "premature":
    /// [{"method", "path", "query", "receivedAt"}]}`, times in epoch seconds.
    var controlJSON: String {
        let entries = entries.map { entry in
            let api = entry.api.map { "\"\($0.rawValue)\"" } ?? "null"
            let allowed = entry.allowedAt.map { "\($0.timeIntervalSince1970)" } ?? "null"
            return #"{"api":\#(api),"scope":\#(Routes.quote(entry.scope)),"status":\#(entry.status),"#
                + #""path":\#(Routes.quote(entry.request.path)),"query":\#(Routes.quote(entry.request.query)),"#
                + #""answeredAt":\#(entry.answeredAt.timeIntervalSince1970),"allowedAt":\#(allowed)}"#
        }
        let premature = premature.map { request in
            #"{"method":"\#(request.method)","path":\#(Routes.quote(request.path)),"#
                + #""query":\#(Routes.quote(request.query)),"receivedAt":\#(request.receivedAt.timeIntervalSince1970)}"#
        }
        return #"{"limitedAnswers":\#(limitedAnswers),"entries":[\#(entries.joined(separator: ","))],"#
            + #""premature":[\#(premature.joined(separator: ","))]}"#
    }
}
