import Foundation
import NIOHTTP1
import Store

/// Whether an answered request failed, and how
/// (docs/configuration.md#failures-and-retries): a status that is not a
/// success, or a success whose body matches `errorWhen`; classified by the
/// resource's `retry.on` rules, then `retry.never`, then the rate-limit
/// signals, then the status alone. The cause quotes the API's own message.
struct ResponseVerdict: Sendable {
    var kind: FetchError.Kind
    /// What went wrong, as `the server answered 403 Forbidden: API rate limit exceeded …`.
    var cause: String
    /// How long the server asked us to wait, if it did.
    var wait: Duration?

    /// The most characters of an API's own message that are quoted.
    static let messageLength = 200

    /// The failure a response reports, or `nil` when it is a success.
    static func failure(
        status: Int, headers: HTTPHeaders, body: [UInt8], document: JSONDocument?, settings: SyncSettings,
        now: Date = SystemSources.now()
    ) -> ResponseVerdict? {
        let success = (200..<300).contains(status)
        if success && settings.errorWhen == nil { return nil }
        if success {
            guard let errorWhen = settings.errorWhen,
                errorWhen.match.matches(status: status, body: body, document: document)
            else { return nil }
        }
        let quota = QuotaHeaders({ headers.first(name: $0) }, names: settings.rateLimit.headers, now: now)
        let retryAfter = RetryAfter.parse(headers.first(name: "Retry-After"), now: now)
        let kind: FetchError.Kind
        if let rule = settings.retryOn.first(where: { $0.match.matches(status: status, body: body, document: document) }
        ) {
            kind = rule.treatment == .rateLimit ? .rateLimited : .transient
        } else if settings.retryNever.contains(status) || success {
            kind = .unrecoverable
        } else if status == 429 || (status == 403 && (quota.isExhausted || retryAfter != nil)) {
            kind = .rateLimited
        } else {
            kind = FetchError.kind(ofStatus: status)
        }
        var cause = "the server answered \(status) \(HTTPReason.phrase(status))"
        if success { cause += " with an error" }
        if let message = apiMessage(body: body, document: document, at: settings.errorWhen?.message) {
            cause += ": \(message)"
        }
        let wait = kind == .rateLimited ? retryAfter ?? quota.resetIn : retryAfter
        return ResponseVerdict(kind: kind, cause: cause, wait: wait)
    }

    /// Where APIs put their own error message, tried in order.
    static let messagePointers = [
        "/error", "/message", "/error/message", "/errors/0/message", "/error_description",
        "/errors", "/errors/0", "/0/message",
    ].map { try! JSONPointer($0) }

    /// The start of the API's own message: the string at `pointer`, else at the
    /// usual places; for a body that is not JSON, short plain text as is.
    static func apiMessage(body: [UInt8], document: JSONDocument?, at pointer: JSONPointer?) -> String? {
        guard let document else {
            guard !body.isEmpty, body.count <= messageLength,
                let text = String(validating: body, as: UTF8.self)?.trimmingSpaces(),
                !text.isEmpty, !text.contains("\n"), !text.hasPrefix("<")
            else { return nil }
            return text
        }
        for candidate in [pointer].compactMap({ $0 }) + messagePointers {
            guard let span = document.span(at: candidate) else { continue }
            let text: String
            switch document.kind(of: span) {
            case .string: text = document.string(at: span) ?? ""
            case .number, .boolean: text = document.text(of: span)
            default: continue
            }
            let line = text.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingSpaces()
            guard !line.isEmpty else { continue }
            return line.count > messageLength ? String(line.prefix(messageLength)) + "…" : line
        }
        return nil
    }
}
