import Foundation
import SyncCore

extension FuzzTarget {
    /// The quota headers of docs/configuration.md#what-answers-say-about-the-quota.
    static let rateLimit = FuzzTarget(
        name: "ratelimit",
        property: "any header values give counts of 0 or more and a reset of 0 to a day; each family of "
            + "quota headers, written with known values, reads back those values, in the documented order"
    ) { input throws(PropertyViolation) in
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let names = [
            "x-ratelimit-remaining", "x-ratelimit-limit", "x-ratelimit-reset", "ratelimit-remaining",
            "ratelimit-limit", "ratelimit-reset", "x-rate-limit-remaining", "x-rate-limit-limit",
            "x-rate-limit-reset", "ratelimit", "x-shopify-shop-api-call-limit", "x-custom-left",
        ]

        // Any values under the names the reader knows.
        var draw = FuzzInput(input)
        var headers: [String: String] = [:]
        while !draw.isEmpty, headers.count < 6 {
            headers[draw.pick(names)] = draw.anyText(upTo: 40)
        }
        let custom = QuotaHeaderNames(remaining: "X-Custom-Left")
        let quota = QuotaHeaders({ headers[$0] }, names: custom, now: now)
        try require((quota.remaining ?? 0) >= 0, "\(headers) reads \(quota.remaining!) requests left")
        try require((quota.limit ?? 0) >= 0, "\(headers) reads a window of \(quota.limit!) requests")
        try require(
            (.zero...RetryAfter.longest).contains(quota.resetIn ?? .zero),
            "\(headers) reads a reset in \(quota.resetIn!), not between 0 and the longest wait")

        // Each family written with known values; the first family that gives a field wins.
        draw = FuzzInput(input)
        let remaining = draw.int(in: 0...100_000)
        let limit = remaining + draw.int(in: 0...100_000)
        let resetSeconds = draw.int(in: 0...86_400 * 30)
        let resetAt = Int(now.timeIntervalSince1970) + resetSeconds
        enum Family: CaseIterable { case custom, github, ietf, okta, combined, shopify }
        var present: [Family] = []
        for family in Family.allCases where draw.bool() { present.append(family) }
        var written: [String: String] = [:]
        let pad = { (text: String) in draw.pick(["", " "]) + text + draw.pick(["", " "]) }
        for family in present {
            switch family {
            case .custom:
                written["x-custom-left"] = pad(String(remaining))
            case .github:  // reset in epoch seconds
                written["x-ratelimit-remaining"] = pad(String(remaining))
                written["x-ratelimit-limit"] = pad(String(limit))
                written["x-ratelimit-reset"] = pad(String(resetAt))
            case .ietf:  // reset in seconds from now
                written["ratelimit-remaining"] = pad(String(remaining))
                written["ratelimit-limit"] = pad(String(limit))
                written["ratelimit-reset"] = pad(String(resetSeconds))
            case .okta:  // reset in epoch milliseconds
                written["x-rate-limit-remaining"] = pad(String(remaining))
                written["x-rate-limit-limit"] = pad(String(limit))
                written["x-rate-limit-reset"] = pad(String(resetAt * 1000))
            case .combined:
                let parts = ["limit=\(limit)", "remaining=\(remaining)", "reset=\(resetSeconds)"]
                written["ratelimit"] = parts.joined(separator: draw.pick([",", ", "]))
            case .shopify:
                written["x-shopify-shop-api-call-limit"] = "\(limit - remaining)/\(limit)"
            }
        }
        let read = QuotaHeaders({ written[$0] }, names: custom, now: now)
        let givesRemaining = !present.isEmpty
        let givesLimit = present.contains { $0 != .custom }
        let givesReset = present.contains { $0 != .custom && $0 != .shopify }
        let expected = QuotaHeaders(
            remaining: givesRemaining ? remaining : nil, limit: givesLimit ? limit : nil,
            // A reset further than the longest wait (a day) reads as that wait.
            resetIn: givesReset ? min(.seconds(resetSeconds), RetryAfter.longest) : nil)
        try require(read == expected, "\(written) reads \(read), not \(expected)")
    }
}
