import Foundation
import Store
import SyncCore

/// What the `sync` target checks after each sync of an input, from what the
/// upstream served (``ScriptedUpstream/log``) and what the store then holds,
/// reading every served value by the documented rules itself
/// (``ServedValue/time(millisecondUnits:)``), never through the agent's parsers.
struct SyncJudge {
    /// A broken part of the property, named by its class (``SyncViolation/Class``).
    let config: SyncConfigChoice
    let upstream: ScriptedUpstream
    /// The pages of the incremental walk in progress, across syncs: the
    /// accepted answers (2xx) since it started, in order.
    private(set) var ledger: [ScriptedUpstream.Exchange] = []

    /// The longest a sync may wait at once: Retry-After counts for at most an
    /// hour, and rate limits and budgets for at most `rateLimit.maxWait`
    /// (docs/configuration.md#failures-and-retries, #rate-limits).
    var longestWait: Duration { .seconds(max(3600, config.maxWait)) }

    /// The furthest a `rateLimited` sync may put the next poll (docs/configuration.md#rate-limits).
    static let furthestNextPoll: Duration = .seconds(86_400)

    init(config: SyncConfigChoice, upstream: ScriptedUpstream) {
        self.config = config
        self.upstream = upstream
    }

    /// What one sync did, as the target saw it.
    struct Sync {
        var number: Int
        var report: SyncReport
        var before: SyncCursor?
        var after: SyncCursor?
        /// The keys the resource holds after it.
        var keys: [String]
        /// The waits it took on the clock.
        var waits: [Duration]
    }

    /// Checks sync `sync`; returns what does not hold.
    mutating func judge(_ sync: Sync) -> [SyncViolation] {
        var found: [SyncViolation] = []
        let exchanges = upstream.log.filter { $0.sync == sync.number }
        let result = sync.report.result
        let succeeded = result.outcome == .success || result.outcome == .notModified
        if succeeded != (result.error == nil) {
            found.append(
                .init(.outcome, "outcome \(result.outcome.rawValue) with error \(String(describing: result.error))"))
        }
        for wait in sync.waits where wait > longestWait {
            found.append(.init(.wait, "sync \(sync.number) waited \(wait), past the longest wait of \(longestWait)"))
        }
        if result.outcome == .rateLimited, let next = sync.report.retryAfter, next > Self.furthestNextPoll {
            found.append(
                .init(.nextPoll, "a rateLimited sync puts the next poll \(next) away, past \(Self.furthestNextPoll)"))
        }
        if let message = result.error?.message, result.outcome == .failed {
            found += namedValues(message, exchanges)
        }
        if config.wire { found += judgeLengths(result, exchanges) }
        if config.incremental {
            found += judgeSent(sync, exchanges)
            found += judgeKept(sync, exchanges, succeeded: result.outcome == .success)
        } else if result.outcome == .success {
            found += judgeSnapshot(sync, exchanges)
        }
        return found.map { violation in
            var violation = violation
            violation.detail =
                "sync \(sync.number) of \(config) ended \(result.outcome.rawValue)"
                + (result.error.map { " (\($0.message))" } ?? "") + ": " + violation.detail
            return violation
        }
    }

    // MARK: Kept values

    /// The value of a page that the resource keeps: its items' fields, or the body's value.
    private func values(of exchange: ScriptedUpstream.Exchange) -> [ServedValue]? {
        guard case .page(let page) = exchange.answer.body else { return nil }
        if config.source == .field { return page.items.compactMap { $0.since ?? nil } }
        return (page.kept ?? nil).map { [$0] } ?? []
    }

    /// What a walk over `pages` keeps after starting from `base`: `.failure` naming a value that must be refused.
    private func kept(
        over pages: [ScriptedUpstream.Exchange], base: SinceState?
    ) -> Result<KeptValue?, SyncViolation>? {
        var largest: Int128?
        var last: KeptValue?
        for page in pages {
            guard let values = values(of: page) else { return nil }
            for value in values {
                switch config.source {
                case .field, .fromBody:
                    guard case .instant(let time) = value.time(millisecondUnits: config.format == .unixMilliseconds)
                    else {
                        return .failure(
                            .init(
                                .accepted,
                                "\(value) at \(config.source.pointer) is no time of years 1 to 9999, and was not refused"
                            ))
                    }
                    largest = max(largest ?? time, time)
                    last = .time(time)
                case .token:
                    if value.text.isEmpty { continue }
                    last = .token(value.text)
                case .link:
                    guard case .string(let text) = value else {
                        return .failure(
                            .init(.accepted, "\(value) at \(config.source.pointer) is no URL, and was not refused"))
                    }
                    if text.isEmpty { continue }
                    let link = upstream.filled(text)
                    last = .token(URL(string: link, relativeTo: URL(string: page.url))?.absoluteString ?? link)
                }
            }
        }
        if config.source == .field, let largest { return .success(.time(largest)) }
        return .success(last ?? base.map(KeptValue.init))
    }

    private mutating func judgeKept(
        _ sync: Sync, _ exchanges: [ScriptedUpstream.Exchange], succeeded: Bool
    )
        -> [SyncViolation]
    {
        // A walk cut off goes on; any other sync starts a walk. An answer that
        // says the value kept expired starts another walk, from nothing, but the
        // one cut off stays where it was until a page of the new one commits.
        if let walk = sync.before?.walk {
            ledger = Array(ledger.prefix(walk.pages))
        } else {
            ledger = []
        }
        var walks = [ledger]
        var expired = false
        for exchange in Self.taken(exchanges, expiredWhen: config.expiredWhen, wire: config.wire) {
            if config.expiredWhen, exchange.answer.status == 410 {
                expired = true
                walks.append([])
            } else if (200..<300).contains(exchange.answer.status) {
                walks[walks.count - 1].append(exchange)
            }
        }
        ledger = walks[walks.count - 1]
        let before = sync.before?.since
        let after = sync.after?.since
        guard succeeded else {
            var found: [SyncViolation] = []
            if before.map(KeptValue.init) != after.map(KeptValue.init) {
                found.append(
                    .init(
                        .unchanged,
                        "the kept value moved from \(show(before)) to \(show(after)) though the sync did not succeed"))
            }
            guard let walk = sync.after?.walk else { return found }
            // The walk kept is one of those the sync walked, its committed pages holding its value.
            var expectations: [String] = []
            var refused: SyncViolation?
            for candidate in walks.reversed() where walk.pages <= candidate.count {
                switch kept(over: Array(candidate.prefix(walk.pages)), base: nil) {
                case .success(let expected)?:
                    if KeptValue.same(walk.largest.map(KeptValue.init), expected) {
                        ledger = candidate
                        return found
                    }
                    expectations.append(expected.map(\.description) ?? "none")
                case nil:
                    ledger = candidate
                    return found
                case .failure(let violation)?:
                    // Pages holding a value that must be refused were not committed: the walk
                    // kept is another (the one an expiry cut off), unless there is none.
                    refused = refused ?? violation
                }
            }
            if expectations.isEmpty, let refused { return found + [refused] }
            if !expectations.isEmpty {
                found.append(
                    .init(
                        .walk,
                        "the walk cut off after \(walk.pages) pages keeps \(show(walk.largest)), but those pages hold \(expectations.joined(separator: " or "))"
                    ))
            }
            return found
        }
        defer { ledger = [] }
        switch kept(over: ledger, base: expired ? nil : before) {
        case nil: return []
        case .failure(let violation)?: return [violation]
        case .success(let expected)?:
            guard !KeptValue.same(after.map(KeptValue.init), expected) else { return [] }
            return [
                .init(
                    .kept,
                    "the resource keeps \(show(after)), but the walk served \(expected.map(\.description) ?? "nothing to keep") (pages: \(ledger.map(\.bodyText).joined(separator: " | ").prefix(2000)))"
                )
            ]
        }
    }

    // MARK: Sent values

    /// What the first request of a sync that starts a walk sends: the value kept (less `lookback`).
    private func judgeSent(_ sync: Sync, _ exchanges: [ScriptedUpstream.Exchange]) -> [SyncViolation] {
        guard sync.before?.walk == nil, let first = exchanges.first else { return [] }
        let kept = sync.before?.since
        switch config.source {
        case .link:
            let expected = kept?.token ?? upstream.base + "/items"
            guard first.url == expected else {
                return [.init(.sent, "the sync starts at \(first.url), not at the link kept, \(expected)")]
            }
            return []
        case .token:
            guard config.placement == .param else { return [] }
            let sent = Self.query(of: first.url).first { $0.name == "since" }?.value
            guard sent == kept?.token else {
                return [.init(.sent, "the sync sends since=\(sent ?? "nothing"), not the token kept, \(show(kept))")]
            }
            return []
        case .field, .fromBody:
            var expected: Int128 = 0
            if let kept {
                guard let time = KeptValue(kept).time else { return [] }
                expected = max(time - Int128(config.lookbackMilliseconds) * 1_000_000, KeptRange.earliest)
            }
            guard let text = sentText(first) else {
                return [.init(.sent, "the sync sends no since value where it is configured: \(first.url)")]
            }
            let resolution: Int128 =
                switch (config.placement, config.format) {
                case (.pattern, _), (_, .unixSeconds): 1_000_000_000
                default: 1_000_000
                }
            let read =
                config.placement == .pattern
                ? ISO8601Text.read(text)
                : ServedValue.from(text).time(millisecondUnits: config.format == .unixMilliseconds)
            guard let sent = read?.instant, sent <= expected, sent > expected - resolution else {
                return [
                    .init(
                        .sent,
                        "the sync sends \(text), which is not \(ISO8601Text.text(expected)) (the value kept less lookback) in \(config.placement == .pattern ? "the pattern" : config.format.rawValue)"
                    )
                ]
            }
            return []
        }
    }

    /// The `since` text a request sends, where the configuration puts it.
    private func sentText(_ exchange: ScriptedUpstream.Exchange) -> String? {
        let query = Self.query(of: exchange.url)
        switch config.placement {
        case .param: return query.first { $0.name == "since" }?.value
        case .pattern:
            guard let value = query.first(where: { $0.name == "q" })?.value, value.hasPrefix("since ") else {
                return nil
            }
            return String(value.dropFirst(6))
        case .header: return exchange.headers.first { $0.name.lowercased() == "x-since" }?.value
        case .bodyField:
            guard let body = exchange.body, let start = body.range(of: #""since":"#) else { return nil }
            let rest = body[start.upperBound...]
            let value = rest.prefix { $0 != "," && $0 != "}" }
            return value.hasPrefix("\"") ? String(value.dropFirst().dropLast()) : String(value)
        }
    }

    /// The query of `url`, each name and value percent-decoded byte for byte. Not
    /// `URLComponents.queryItems`, which decodes through `String(data:encoding:)`, which drops
    /// a leading U+FEFF, so a token sent whole (`%EF%BB%BF…`) would read as another.
    static func query(of url: String) -> [(name: String, value: String?)] {
        // Not `URLComponents` either: a `%` that starts no escape makes it encode every `%`.
        guard let mark = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return query.split(separator: "&", omittingEmptySubsequences: false).map { item in
            let parts = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (percentDecoded(parts[0]), parts.count > 1 ? percentDecoded(parts[1]) : nil)
        }
    }

    /// `text` with each `%XX` replaced by its byte, read as UTF-8 (a `%` that starts no
    /// escape stays).
    static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
                let escaped = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16)
            {
                bytes.append(escaped)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The answers a sync took: those that reached it, less each one whose request it sent
    /// again at once, headers and all (it refused the answer, as a transient failure).
    /// A 410 that `expiredWhen` matches is taken even when the full sync it starts sends the
    /// same first request (the value kept was `initial`).
    static func taken(
        _ exchanges: [ScriptedUpstream.Exchange], expiredWhen: Bool = false, wire: Bool = true
    ) -> [ScriptedUpstream.Exchange] {
        exchanges.indices.compactMap { index in
            let exchange = exchanges[index]
            guard exchange.answer.failure == nil else { return nil }
            if expiredWhen, exchange.answer.status == 410 { return exchange }
            // In-process, a 2xx page is never refused as transient (the scripted transport
            // hands its body over as it is, whatever its Content-Encoding): a request sent
            // again after it is one the API named again (a cursor or window that does not
            // move), not a retry.
            if !wire, (200..<300).contains(exchange.answer.status), case .page = exchange.answer.body {
                return exchange
            }
            if index + 1 < exchanges.count {
                let next = exchanges[index + 1]
                // The same request, headers and all: a capped walk's next window may differ
                // only in its `{since}` header.
                if next.method == exchange.method, next.url == exchange.url, next.body == exchange.body,
                    Self.sameHeaders(next, exchange)
                {
                    return nil
                }
            }
            return exchange
        }
    }

    /// Whether two requests send the same headers (names in any case, in any order).
    static func sameHeaders(_ one: ScriptedUpstream.Exchange, _ other: ScriptedUpstream.Exchange) -> Bool {
        func normal(_ exchange: ScriptedUpstream.Exchange) -> [String] {
            exchange.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
        }
        return normal(one) == normal(other)
    }

    // MARK: Sizes

    /// The largest body a resource takes by default (`maxResponseSize`, docs/configuration.md).
    static let maxResponseSize = 32 * 1024 * 1024

    /// On the wire: an answer whose `Content-Length` is a number past `maxResponseSize`
    /// ends the sync `failed`, at once, with a message that names the header and the value.
    private func judgeLengths(_ result: SyncResult, _ exchanges: [ScriptedUpstream.Exchange]) -> [SyncViolation] {
        for exchange in exchanges where exchange.answer.failure == nil {
            guard let length = exchange.answer.contentLength, !length.isEmpty,
                length.utf8.allSatisfy({ (48...57).contains($0) })
            else { continue }
            let digits = String(length.drop { $0 == "0" })
            let small = digits.count < 10 && (Int(digits) ?? 0) <= Self.maxResponseSize
            guard !small else { continue }
            let message = result.error?.message ?? ""
            guard result.outcome == .failed, message.lowercased().contains("content-length"),
                Self.unread(length: length) || message.contains(String(length.prefix(16)))
            else {
                return [
                    .init(
                        .length,
                        "an answer with Content-Length \(length), past maxResponseSize, did not end the sync failed "
                            + "with a message naming the header and the value")
                ]
            }
            return []
        }
        return []
    }

    /// Whether a `Content-Length` is one the HTTP parser refuses before the agent
    /// sees the value (no digits, or 2^64 or more): a message cannot name it.
    static func unread(length: String) -> Bool {
        let trimmed = length.trimmingCharacters(in: CharacterSet(charactersIn: " \t"))
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) }) else { return true }
        let digits = String(trimmed.drop { $0 == "0" })
        return digits.count > 20 || (digits.count == 20 && digits >= "18446744073709551616")
    }

    // MARK: Snapshots

    /// A snapshot sync that succeeded holds every item served, and got the count the API stated.
    private func judgeSnapshot(_ sync: Sync, _ exchanges: [ScriptedUpstream.Exchange]) -> [SyncViolation] {
        var pages: [PageTemplate] = []
        let exchanges = Self.taken(exchanges, wire: config.wire)
        for exchange in exchanges {
            if exchange.answer.status == 304 { return [] }
            guard (200..<300).contains(exchange.answer.status) else { continue }
            guard case .page(let page) = exchange.answer.body else { return [] }
            pages.append(page)
        }
        var found: [SyncViolation] = []
        var served: Set<String> = []
        for page in pages {
            for item in page.items where !item.tombstone {
                if let key = item.key { served.insert(key.text) }
            }
        }
        if Set(sync.keys) != served || sync.keys.count != served.count {
            found.append(
                .init(
                    .keys, "the resource holds the keys \(sync.keys.sorted()), but the walk served \(served.sorted())"))
        }
        let received = pages.reduce(0) { $0 + $1.items.count }
        let answers = exchanges.filter { $0.answer.failure == nil && (200..<300).contains($0.answer.status) }
        if let stated = statedTotal(answers) {
            guard let count = stated.count else {
                return found + [
                    .init(.total, "the walk stated the total \(stated), which is no count of items, and succeeded")
                ]
            }
            if count != String(received) {
                found.append(.init(.total, "the walk stated \(count) items, received \(received), and succeeded"))
            }
        } else if let implied = impliedTotal(answers), let count = implied.count,
            count.count > String(received).count || (count.count == String(received).count && count > String(received))
        {
            found.append(
                .init(
                    .total,
                    "the walk stopped at a short page after \(received) items though the API stated \(count), and succeeded"
                ))
        }
        return found
    }

    /// The total `pagination.total` names on the last page that states it.
    private func statedTotal(_ answers: [ScriptedUpstream.Exchange]) -> ServedValue? {
        var stated: ServedValue?
        for exchange in answers {
            guard case .page(let page) = exchange.answer.body else { continue }
            switch config.total {
            case .body?: if let total = page.total { stated = total }
            case .header?:
                if let text = exchange.answer.headers.first(where: { $0.name.lowercased() == "x-total-count" })?.value {
                    stated = ServedValue.from(text.trimmingCharacters(in: .whitespaces))
                }
            case nil: return nil
            }
        }
        return stated
    }

    /// The total a `page` or `offset` walk that trusts short pages finds under a usual name, when it can be told.
    private func impliedTotal(_ answers: [ScriptedUpstream.Exchange]) -> ServedValue? {
        guard [.page, .offset].contains(config.style), !config.hasMore, !config.stopWhen, config.total == nil else {
            return nil
        }
        let usual = ["total", "total_count", "totalCount", "totalSize", "total_results", "totalResults", "totalItems"]
        var implied: ServedValue?
        for exchange in answers {
            guard case .page(let page) = exchange.answer.body else { continue }
            if let total = page.total, usual.contains(page.totalName) {
                // Only a count written as digits tells; another value may or may not count.
                guard case .number(let text) = total, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber)
                else { return nil }
                implied = total
            } else if let text = exchange.answer.headers.first(where: { $0.name.lowercased() == "x-total-count" })?
                .value
            {
                let trimmed = text.trimmingCharacters(in: .whitespaces)
                guard !trimmed.isEmpty, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
                implied = .number(trimmed)
            }
        }
        return implied
    }

    // MARK: Messages

    /// A failure that names a place where a value was served names the value too (shortened).
    private func namedValues(_ message: String, _ exchanges: [ScriptedUpstream.Exchange]) -> [SyncViolation] {
        // The API's own message may quote anything.
        guard !message.contains("the server answered") else { return [] }
        var places: [(place: String, values: [ServedValue])] = []
        var pages: [PageTemplate] = []
        for exchange in exchanges where exchange.answer.failure == nil {
            if case .page(let page) = exchange.answer.body { pages.append(page) }
        }
        if config.incremental, config.source == .field {
            places.append(("\"\(config.source.pointer)\"", pages.flatMap { $0.items.compactMap { $0.since ?? nil } }))
        } else if config.incremental, config.source == .fromBody {
            places.append(("\"\(config.source.pointer)\"", pages.compactMap { $0.kept ?? nil }))
        }
        if config.total == .body { places.append(("\"/total\"", pages.compactMap(\.total))) }
        let headerTotals = exchanges.flatMap { exchange in
            // As sent, or without the spaces around it that HTTP drops (RFC 9110 §5.5).
            exchange.answer.headers.filter { $0.name.lowercased() == "x-total-count" }.flatMap {
                let filled = upstream.filled($0.value)
                let value = config.wire ? LoopbackUpstream.onTheWire(filled) : filled
                return [ServedValue.string(value), ServedValue.from(value.trimmingCharacters(in: .whitespaces))]
            }
        }
        places.append(("X-Total-Count", headerTotals))
        if config.wire {
            // A refusal of a length the parser does not read names none (Self.unread(length:)).
            let lengths = exchanges.compactMap(\.answer.contentLength)
            if !lengths.contains(where: Self.unread(length:)) {
                places.append(("Content-Length", lengths.map(ServedValue.from)))
            }
        }
        var found: [SyncViolation] = []
        for (place, values) in places where message.contains(place) && !values.isEmpty {
            // A value holds the upstream's base URL as served, not its placeholder.
            let served = values.map { value in
                if case .string(let text) = value { ServedValue.string(upstream.filled(text)) } else { value }
            }
            if !served.contains(where: { $0.isNamed(in: message) }) {
                found.append(
                    .init(
                        .named,
                        "the failure names \(place) but none of the values served there: \(values.prefix(8).map(\.description))"
                    ))
            }
        }
        return found
    }

    private func show(_ state: SinceState?) -> String {
        state.map { KeptValue($0).description } ?? "nothing"
    }
}
