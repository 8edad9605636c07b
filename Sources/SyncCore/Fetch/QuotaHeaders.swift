import Foundation
import Store

/// What a response says of the caller's quota (docs/configuration.md#what-answers-say-about-the-quota):
/// the headers a resource names (`rateLimit.headers`), then GitHub's
/// `x-ratelimit-*`, the IETF `ratelimit-*` fields (or one
/// `RateLimit: limit=…, remaining=…, reset=…`), Okta's `X-Rate-Limit-*`, and
/// Shopify's `X-Shopify-Shop-Api-Call-Limit: 39/40`.
package struct QuotaHeaders: Sendable, Hashable {
    /// Requests left in the current window.
    package var remaining: Int?
    /// The window's size in requests.
    package var limit: Int?
    /// How long until the window resets.
    package var resetIn: Duration?

    /// A quota as told.
    package init(remaining: Int?, limit: Int?, resetIn: Duration?) {
        self.remaining = remaining
        self.limit = limit
        self.resetIn = resetIn
    }

    /// Reads the fields of `headers` (a name, lowercased, to its first value), at
    /// `now`: those that `names` gives first, then the usual ones.
    package init(
        _ value: (String) -> String?, names: QuotaHeaderNames = QuotaHeaderNames(), now: Date = SystemSources.now()
    ) {
        remaining = names.remaining.flatMap { value($0.lowercased()) }.flatMap(Self.integer)
        limit = names.limit.flatMap { value($0.lowercased()) }.flatMap(Self.integer)
        resetIn = names.reset.flatMap { value($0.lowercased()) }.flatMap { Self.reset($0, now: now) }
        for prefix in Self.prefixes {
            remaining = remaining ?? value(prefix + "remaining").flatMap(Self.integer)
            limit = limit ?? value(prefix + "limit").flatMap(Self.integer)
            resetIn = resetIn ?? value(prefix + "reset").flatMap { Self.reset($0, now: now) }
        }
        if let combined = value("ratelimit") {
            for part in combined.split(separator: ",") {
                let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2 else { continue }
                switch pair[0].lowercased() {
                case "remaining", "r": remaining = remaining ?? Self.integer(pair[1])
                case "limit", "l": limit = limit ?? Self.integer(pair[1])
                case "reset", "t": resetIn = resetIn ?? Self.reset(pair[1], now: now)
                default: break
                }
            }
        }
        if let shopify = value("x-shopify-shop-api-call-limit") {
            let parts = shopify.split(separator: "/").compactMap { Self.integer(String($0)) }
            if parts.count == 2 {
                limit = limit ?? parts[1]
                remaining = remaining ?? max(0, parts[1] - parts[0])
            }
        }
    }

    /// The usual families of quota headers, in the order they are read.
    static let prefixes = ["x-ratelimit-", "ratelimit-", "x-rate-limit-"]

    /// Whether the response says no request is left.
    var isExhausted: Bool { remaining == 0 }

    /// A count: digits, nothing negative.
    private static func integer(_ text: String) -> Int? {
        Int(text.trimmingCharacters(in: .whitespaces)).flatMap { $0 >= 0 ? $0 : nil }
    }

    /// A reset as epoch seconds (or milliseconds), or as seconds from now, told
    /// apart by size: no window lasts a billion seconds.
    static func reset(_ text: String, now: Date) -> Duration? {
        guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite, number >= 0 else {
            return nil
        }
        let seconds: Double
        if number >= 1e12 {
            seconds = number / 1000 - now.timeIntervalSince1970
        } else if number >= 1e9 {
            seconds = number - now.timeIntervalSince1970
        } else {
            seconds = number
        }
        let longest = RetryAfter.longest
        return min(.milliseconds(Int64((min(max(0, seconds), longest.seconds) * 1000).rounded(.up))), longest)
    }
}
