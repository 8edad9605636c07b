import Foundation
import NIOCore
import NIOHTTP1
import SyncCore
import Synchronization

/// The upstream of one `sync` input: it answers each request with the
/// script's next answer (the end page once the script has run out), and keeps
/// what it sent to which sync, for the target to judge the syncs by.
///
/// It answers in-process, behind the transport's seam (`PageTransport`), or,
/// for an input that goes on the wire, through ``LoopbackUpstream``, which
/// sends the same answers over TCP to the agent's own `HTTPTransport`.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
final class ScriptedUpstream: PageTransport {
    /// One request and the answer it got.
    struct Exchange: Sendable {
        /// The sync (from 1) that sent it.
        var sync: Int
        var method: String
        var url: String
        var headers: [(name: String, value: String)]
        var body: String?
        var answer: ScriptedAnswer
        /// The answer's body as sent, its base URL filled in.
        var bodyText: String

        /// The exchange in a line or two, for `$SYNC_AGENT_FUZZ_TRACE`.
        var trace: String {
            let sent = headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")
            let got: String
            switch answer.failure {
            case .reset?: got = "connection reset"
            case .unreachable?: got = "network unreachable"
            case nil:
                let heads =
                    answer.headers.map { "\($0.name): \($0.value)" }
                    + (answer.contentLength.map { ["Content-Length: \($0)"] } ?? [])
                got = "\(answer.status) [\(heads.joined(separator: "; "))] \(bodyText.prefix(600))"
            }
            return "  sync \(sync): \(method) \(url) [\(sent)]\(body.map { " " + $0 } ?? "")\n    -> \(got)"
        }
    }

    let config: SyncConfigChoice
    /// The upstream's base URL, which fills ``SyncValues/base``.
    let base: String
    private let script: [ScriptedAnswer]
    private let state = Mutex<(next: Int, sync: Int, log: [Exchange])>((0, 0, []))

    init(_ script: SyncScript, base: String) {
        config = script.config
        self.script = script.answers
        self.base = base
    }

    /// Tells the upstream that sync `number` starts: the requests from now on are its.
    func begin(sync number: Int) {
        state.withLock { $0.sync = number }
    }

    /// Every exchange so far.
    var log: [Exchange] { state.withLock { $0.log } }

    /// `text` with the upstream's base URL in place of ``SyncValues/base``.
    func filled(_ text: String) -> String {
        text.contains(SyncValues.base) ? text.replacingOccurrences(of: SyncValues.base, with: base) : text
    }

    /// Takes the next answer for a request, and keeps the exchange.
    func answer(method: String, url: String, headers: [(name: String, value: String)], body: String?) -> Exchange {
        state.withLock { state in
            let answer = state.next < script.count ? script[state.next] : ScriptedAnswer.end
            state.next += 1
            var text = ""
            switch answer.body {
            case .page(let page): text = filled(page.json(config: config))
            case .raw(let raw): text = raw
            }
            let exchange = Exchange(
                sync: state.sync, method: method, url: url, headers: headers, body: body, answer: answer,
                bodyText: text)
            state.log.append(exchange)
            return exchange
        }
    }

    /// The headers of an answer as sent, its base URL filled in.
    func headers(of answer: ScriptedAnswer) -> [(name: String, value: String)] {
        [("Content-Type", "application/json")] + answer.headers.map { ($0.name, filled($0.value)) }
    }

    /// Answers in-process (the transport's seam).
    func send(_ spec: HTTPRequestSpec, maxBytes: Int) async throws -> HTTPResponseData {
        let exchange = answer(
            method: spec.method.rawValue, url: spec.url, headers: spec.headers, body: spec.body?.text)
        switch exchange.answer.failure {
        case .reset?: throw IOError(errnoCode: ECONNRESET, reason: "read")
        case .unreachable?: throw IOError(errnoCode: ENETUNREACH, reason: "connect")
        case nil: break
        }
        var headers = HTTPHeaders()
        for (name, value) in self.headers(of: exchange.answer) { headers.add(name: name, value: value) }
        return HTTPResponseData(
            status: exchange.answer.status, headers: headers, body: ByteBuffer(string: exchange.bodyText),
            url: spec.url)
    }
}
