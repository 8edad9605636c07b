/// A test on one HTTP response (docs/configuration.md#saying-what-is-transient):
/// its status, a text in its body, a value at a JSON pointer of its body.
/// Every part given must hold.
package struct ResponseMatch: Sendable, Hashable {
    /// The status it must have.
    package var status: Int?
    /// A text its body must contain.
    package var bodyContains: String?
    /// Where in its JSON body to look.
    package var pointer: JSONPointer?
    /// The value that must be at `pointer`; `nil`: any value but null and false.
    package var equals: JSONValue?

    /// Whether a response with `status` and `body` (parsed as `document`, when it is JSON) matches.
    func matches(status: Int, body: [UInt8], document: JSONDocument?) -> Bool {
        if let wanted = self.status, wanted != status { return false }
        if let text = bodyContains, !body.contains(subsequence: Array(text.utf8)) { return false }
        if let pointer {
            guard let document, let span = document.span(at: pointer) else { return false }
            let found = JSONValue(document, span)
            if let equals { return found.sameValue(as: equals) }
            return found != .null && found != .bool(false)
        }
        return true
    }
}

/// A `retry.on` rule: responses it matches are retried, as a transient
/// failure or as a rate limit.
package struct RetryRule: Sendable, Hashable {
    /// What a matching response is taken for.
    package enum Treatment: String, Sendable, Hashable {
        /// Retried with backoff (or its `Retry-After`), using up an attempt.
        case transient
        /// Waited out like a 429: no attempt used (docs/configuration.md#rate-limits).
        case rateLimit
    }

    package var match: ResponseMatch
    package var treatment: Treatment
}

/// `errorWhen`: a successful status whose body says the request failed
/// (Slack's `{"ok": false, "error": "invalid_auth"}`).
package struct ErrorWhen: Sendable, Hashable {
    /// Where the failure shows, and the value it has.
    package var match: ResponseMatch
    /// Where the API's own message is.
    package var message: JSONPointer?
}

extension JSONValue {
    /// Whether two values are the same JSON value: numbers compare by value
    /// (`1` and `1.0` are the same), everything else as written.
    func sameValue(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)):
            return a == b || (Double(a) != nil && Double(a) == Double(b))
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.sameValue(as: $1) }
        default:
            return self == other
        }
    }
}

extension Array where Element == UInt8 {
    /// Whether `needle` occurs in these bytes.
    func contains(subsequence needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard needle.count <= count, let first = needle.first else { return false }
        var index = startIndex
        let last = endIndex - needle.count
        while index <= last {
            if self[index] == first, self[index..<(index + needle.count)].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
