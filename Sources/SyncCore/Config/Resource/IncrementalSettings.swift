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

    /// In what order the API lists what changed (`since.order`), which says how
    /// a walk cut off goes on (docs/configuration.md#how-a-walk-cut-off-goes-on).
    package enum Order: String, Sendable, Hashable, CaseIterable {
        /// Oldest change first (the default): a walk cut off starts again at its
        /// first page, from the largest value it committed when its items showed
        /// that order, else from the value it started with.
        case oldestFirst
        /// Newest change first: changed items move to the front, where the next
        /// walk finds them, so a walk cut off goes on at its next page.
        case newestFirst
    }

    package var source: Source
    /// `param` or `bodyField`; `nil` when placeholders alone say where (or for a `link`).
    package var placement: Placement?
    package var format: Format = .iso8601
    /// `since.order`.
    package var order: Order = .oldestFirst
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
        self.initial = initial ?? (source.keepsTime ? .time(.epoch) : nil)
        self.lookback = lookback
        self.fullResyncEvery = fullResyncEvery
    }

    /// The value to send: the `kept` one, a time less ``lookback`` (at the
    /// earliest, the start of year 1), else ``initial``; `nil` when there is
    /// none to send (a `link` starts at the URL it keeps instead).
    package func value(toSend kept: SinceState?) -> SentValue? {
        if case .link = source { return nil }
        var state = kept
        if case .time(let time)? = kept { state = .time(time.moved(by: .zero - lookback) ?? .earliest) }
        guard let state = state ?? initial else { return nil }
        return SentValue(state: state, format: format, timeZone: timeZone)
    }
}

extension IncrementalSettings.Format {
    /// `time` as this format writes it: ISO 8601 with a fraction only when
    /// there is one; whole seconds or milliseconds since the epoch, the finer
    /// part dropped (never a later time).
    package func text(_ time: ExactTime) -> String {
        switch self {
        case .unixSeconds: return String(time.seconds)
        case .unixMilliseconds: return String(time.seconds * 1000 + Int64(time.nanoseconds / 1_000_000))
        case .iso8601: return time.iso8601
        }
    }

    /// Why a value of an answer is not a time this format can keep.
    package enum TimeProblem: Error, Sendable, Hashable {
        /// It is no ISO 8601 time, and no number.
        case notATime
        /// An ISO 8601 date-time without a time zone.
        case noTimeZone
        /// A time, or a number, outside years 1 to 9999.
        case outOfRange
    }

    /// The time a value of the API's JSON holds, read exactly: an ISO 8601 string
    /// (a date, or a date and time with a time zone), or a number of seconds (of
    /// milliseconds with `unixMilliseconds`), or a string of such a number.
    package func time(from value: JSONValue) -> Result<ExactTime, TimeProblem> {
        switch value {
        case .number(let text):
            return number(text)
        case .string(let text):
            switch ExactTime.parse(iso8601: text) {
            case .success(let time): return .success(time)
            case .failure(.noTimeZone): return .failure(.noTimeZone)
            case .failure(.outOfRange): return .failure(.outOfRange)
            case .failure(.notATime): return DecimalNumber(text) == nil ? .failure(.notATime) : number(text)
            }
        default:
            return .failure(.notATime)
        }
    }

    /// The time, when `value` holds one this format can keep.
    package func time(of value: JSONValue) -> ExactTime? {
        try? time(from: value).get()
    }

    private func number(_ text: String) -> Result<ExactTime, TimeProblem> {
        guard let number = DecimalNumber(text) else { return .failure(.notATime) }
        guard let nanoseconds = number.scaled(byPowerOfTen: self == .unixMilliseconds ? 6 : 9),
            let time = ExactTime(nanosecondsSinceEpoch: nanoseconds)
        else { return .failure(.outOfRange) }
        return .success(time)
    }

    /// What a value read as a time is, for a message: `which is not a time …`.
    package func phrase(_ problem: TimeProblem, of value: JSONValue) -> String {
        switch problem {
        case .notATime:
            return "which is not a time (an ISO 8601 string or a Unix time)"
        case .noTimeZone:
            return "which names no time zone, so which instant it is cannot be told"
        case .outOfRange:
            let read =
                switch value {
                case .string(let text) where ExactTime.parse(iso8601: text) != .failure(.notATime): ""
                default: self == .unixMilliseconds ? " as milliseconds since 1970" : " as seconds since 1970"
                }
            return "which\(read) is no time between the years 1 and 9999"
        }
    }
}
