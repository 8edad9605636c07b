import Foundation
import Store

/// How a resource in `"mode": "incremental"` asks only for what changed
/// (docs/configuration.md#incremental-resources): the value it sends, and where it
/// takes the next one from. Which items are deletions is the resource's
/// ``ResourceConfig/deleted``.
package struct IncrementalSettings: Sendable, Hashable {
    /// Where the value for the next sync comes from, after a sync
    /// (docs/configuration.md#what-a-sync-keeps).
    package enum Source: Sendable, Hashable {
        /// The largest value of this field of the items (`"field": "/updated_at"`).
        case field(JSONPointer)
        /// This field of the last page's body (`"fromBody": "/end_time"`, Zendesk).
        case body(JSONPointer)
        /// The opaque token at this field of the last page's body, sent back as
        /// it is (`"token": "/last_seq"`, CouchDB).
        case token(JSONPointer)
        /// The URL at this field of the last page's body, where the next sync
        /// starts (`"link": "/@odata.deltaLink"`, Microsoft Graph).
        case link(JSONPointer)

        /// Whether the value kept is a time.
        package var keepsTime: Bool {
            switch self {
            case .field, .body: true
            case .token, .link: false
            }
        }
    }

    /// Where the value is sent, besides the `{since}` placeholders.
    package enum Placement: Sendable, Hashable {
        /// A query parameter of every page (`"param": "updated_since"`).
        case query(String)
        /// A field of the JSON body (`"bodyField": "/filter/updated_since"`), for POST.
        case body(JSONPointer)
    }

    /// How the value is written, and how a number read from the API is read.
    package enum Format: String, Sendable, Hashable, CaseIterable {
        /// `2026-11-24T10:00:00Z` (milliseconds only when there are some).
        case iso8601
        /// Seconds since the Unix epoch.
        case unixSeconds
        /// Milliseconds since the Unix epoch.
        case unixMilliseconds
    }

    package var source: Source
    /// `param` or `bodyField`; `nil` when placeholders alone say where (or for a `link`).
    package var placement: Placement?
    package var format: Format = .iso8601
    /// Where `{since:PATTERN}` writes its time.
    package var timeZone = TimeZone(identifier: "UTC")!
    /// The value of the first sync, when there is none yet: the Unix epoch for a
    /// time unless given; none for a token unless given.
    package var initial: SinceState?
    /// Subtracted from a time before it is sent, for updates that arrive late.
    package var lookback: Duration = .zero
    /// How often a full snapshot sync runs instead, which deletes what the API no longer lists.
    package var fullResyncEvery: Duration?
    /// A response that says the kept value is too old: the sync starts afresh with a full sync.
    package var expiredWhen: ResponseMatch?
    /// The values of the request that hold placeholders, as the configuration wrote them.
    package var templated = Templated()

    /// The values of a request that hold placeholders (docs/configuration.md#placeholders):
    /// only those are filled, so that a secret with a brace is sent as it is.
    package struct Templated: Sendable, Hashable {
        /// The names of the query parameters.
        package var query: Set<String> = []
        /// The names of the headers.
        package var headers: Set<String> = []
        /// The paths of the body's strings (`body.variables.q`).
        package var body: Set<String> = []
    }

    package init(
        source: Source, placement: Placement?, format: Format = .iso8601, initial: SinceState? = nil,
        lookback: Duration = .zero, fullResyncEvery: Duration? = nil
    ) {
        self.source = source
        self.placement = placement
        self.format = format
        self.initial = initial ?? (source.keepsTime ? .time(Date(timeIntervalSince1970: 0)) : nil)
        self.lookback = lookback
        self.fullResyncEvery = fullResyncEvery
    }

    /// The value to send: the `kept` one, a time less ``lookback``, else
    /// ``initial``; `nil` when there is none to send (a `link` starts at the
    /// URL it keeps instead).
    package func value(toSend kept: SinceState?) -> SentValue? {
        if case .link = source { return nil }
        var state = kept
        if case .time(let date)? = kept { state = .time(date.addingTimeInterval(-lookback.seconds)) }
        guard let state = state ?? initial else { return nil }
        return SentValue(state: state, format: format, timeZone: timeZone)
    }
}

extension IncrementalSettings.Format {
    /// `date` as this format writes it.
    package func text(_ date: Date) -> String {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        switch self {
        case .unixSeconds: return String(Int64((milliseconds / 1000).rounded(.down)))
        case .unixMilliseconds: return String(Int64(milliseconds))
        case .iso8601:
            let text = Timestamp.string(from: Date(timeIntervalSince1970: milliseconds / 1000))
            // 2026-11-24T10:00:00.000Z → 2026-11-24T10:00:00Z: what every API takes.
            return text.hasSuffix(".000Z") ? String(text.dropLast(5)) + "Z" : text
        }
    }

    /// The time a value of the API's JSON holds: an ISO 8601 string (a date,
    /// or a date and time with or without fraction and offset), or a number of
    /// seconds (of milliseconds with `unixMilliseconds`), or a string of digits.
    package func date(from value: JSONValue) -> Date? {
        switch value {
        case .number(let text):
            return number(text)
        case .string(let text):
            if let date = Self.iso8601(text) { return date }
            return text.allSatisfy(\.isNumber) ? number(text) : nil
        default:
            return nil
        }
    }

    private func number(_ text: String) -> Date? {
        guard let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return Date(timeIntervalSince1970: self == .unixMilliseconds ? value / 1000 : value)
    }

    /// An ISO 8601 date or date-time.
    package static func iso8601(_ text: String) -> Date? {
        if let date = Timestamp.date(from: text) { return date }
        for options: ISO8601DateFormatter.Options in [
            [.withInternetDateTime, .withFractionalSeconds], [.withInternetDateTime], [.withFullDate],
        ] {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = options
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }
}
