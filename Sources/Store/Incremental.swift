import Foundation

/// What an incremental sync keeps for the next one (docs/configuration.md#what-a-sync-keeps):
/// a time, or an opaque text: a token from the last page, or the URL the last page named.
///
/// Each kind is a case, and the cursor stores it as its kind and its exact text
/// (``stored``), so a kind added later (integers of any size, strings, JSON values)
/// needs no new column, and a kind this version does not know is an error that
/// names it, never read as another (docs/architecture.md#decisions-taken-on-purpose).
public enum SinceState: Sendable, Hashable {
    /// A time: the largest of the items' field, or the last page's, exactly as the API wrote it.
    case time(ExactTime)
    /// An opaque token or URL, sent back as is.
    case token(String)

    /// The kinds of value, as ``stored`` names them.
    public enum Kind: String, Sendable, CaseIterable {
        case time
        case token
    }

    /// The kind of the value.
    public var kind: Kind {
        switch self {
        case .time: .time
        case .token: .token
        }
    }

    /// The time, if it is one.
    public var time: ExactTime? {
        if case .time(let time) = self { time } else { nil }
    }

    /// The token or URL, if it is one.
    public var token: String? {
        if case .token(let text) = self { text } else { nil }
    }

    /// Made from the two columns 0.1.0 kept it in (`since`, `since_token`):
    /// a time, else a text.
    public init?(time: ExactTime?, token: String?) {
        if let time {
            self = .time(time)
        } else if let token {
            self = .token(token)
        } else {
            return nil
        }
    }

    /// The value as the cursor keeps it whole: its kind, a colon, and its
    /// exact text (`time:2026-11-24T10:00:00.123456Z`, `token:2150-g1AAAA…`).
    public var stored: String {
        switch self {
        case .time(let time): "time:" + time.iso8601
        case .token(let text): "token:" + text
        }
    }

    /// Reads what ``stored`` wrote.
    ///
    /// - Throws: A ``StoreError`` that names the value when its kind is not one
    ///   this version knows (a newer agent of the fleet wrote it) or its text
    ///   is not of its kind.
    public init(stored text: String) throws(StoreError) {
        let colon = text.firstIndex(of: ":") ?? text.endIndex
        let name = String(text[..<colon])
        let value = colon < text.endIndex ? String(text[text.index(after: colon)...]) : ""
        switch Kind(rawValue: name) {
        case .time:
            guard let time = ExactTime(iso8601: value) else {
                throw StoreError(.corrupt, "the kept time \"\(value.prefix(40))\" is not a time")
            }
            self = .time(time)
        case .token:
            self = .token(value)
        case nil:
            throw StoreError(
                .corrupt,
                "the value kept is of kind \"\(name.prefix(40))\", which this version does not know "
                    + "(written by a newer agent?)")
        }
    }
}

extension SinceState: Codable {
    /// One string: a time as ``Timestamp`` writes times (to the millisecond), a token as it is.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .time(let time): try container.encode(Timestamp.string(from: time))
        case .token(let text): try container.encode(text)
        }
    }

    /// A time when the string reads as one, else a token.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        self = Timestamp.time(from: text).map(SinceState.time) ?? .token(text)
    }
}

/// Where an incremental resource is (docs/schema.md#cursors-where-incremental-resources-are): the value its
/// next sync sends, and the walk a sync left unfinished.
public struct SyncCursor: Sendable, Hashable {
    /// A walk cut off after a checkpoint: the next sync goes on from its next page.
    public struct Walk: Sendable, Hashable {
        /// The page to ask for next, as the fetch stored it (secrets sealed).
        public var next: String
        /// The pages committed so far.
        public var pages: Int
        /// The value the walk sent.
        public var sent: SinceState?
        /// The largest value seen so far (of the items), or the last page's.
        public var largest: SinceState?
        /// Where a walk that can go on by value goes on from: the value it
        /// committed. Kept, not yet read: a walk cut off goes on from ``next``
        /// (docs/configuration.md#what-a-sync-keeps).
        public var resume: SinceState?
        /// The run row of the sync that walked it so far. A sync that goes on
        /// with the walk opens a row of its own, and this one is marked cut off
        /// (docs/schema.md#running-finished-and-cut-off-rows).
        public var run: Int64

        /// Creates a walk's state.
        public init(
            next: String, pages: Int, sent: SinceState?, largest: SinceState?, resume: SinceState? = nil, run: Int64
        ) {
            self.next = next
            self.pages = pages
            self.sent = sent
            self.largest = largest
            self.resume = resume
            self.run = run
        }
    }

    /// A fingerprint of the request the cursor belongs to: another request starts afresh.
    public var request: String
    /// The value for the next sync; `nil` before the first complete walk.
    public var since: SinceState?
    /// A walk that was cut off, resumed by the next sync.
    public var walk: Walk?
    /// When the last full sync (`fullResyncEvery`) ended.
    public var fullAt: Date?

    /// Creates a cursor.
    public init(request: String, since: SinceState? = nil, walk: Walk? = nil, fullAt: Date? = nil) {
        self.request = request
        self.since = since
        self.walk = walk
        self.fullAt = fullAt
    }
}

/// What one page of an incremental sync does to the records, in order.
public enum IncrementalChange: Sendable, Hashable {
    /// Insert or update the record.
    case upsert(StagedRecord)
    /// Delete the record with this key, if there is one.
    case delete(key: String)

    var key: String {
        switch self {
        case .upsert(let record): record.key
        case .delete(let key): key
        }
    }

    /// The last change of each key in `changes`, in the order of those last changes:
    /// what a page does once its repeats are folded (the later wins).
    public static func lastOfEachKey(_ changes: [IncrementalChange]) -> [IncrementalChange] {
        changes.lastOfEachKey(\.key)
    }
}

extension Array {
    /// The last element of each key, in the order of those last elements.
    func lastOfEachKey(_ key: (Element) -> String) -> [Element] {
        var last: [String: Int] = [:]
        for (index, element) in enumerated() { last[key(element)] = index }
        return enumerated().filter { last[key($0.element)] == $0.offset }.map(\.element)
    }
}

/// One page of an incremental sync, applied on its own: a checkpoint.
public struct IncrementalPage: Sendable {
    /// The resource synced.
    public var resource: String
    /// The cursor's scope: the values a dependent resource's URL read, else "".
    public var scope: String
    /// What the page does to the records, in the page's order.
    public var changes: [IncrementalChange]
    /// The cursor after the page (its walk `nil` once the walk is complete).
    public var cursor: SyncCursor
    /// The sync's run row, `nil` for its first page (which makes one, running
    /// until the sync is recorded).
    public var run: Int64?
    /// What started the sync, and when, for the run row the first page makes.
    public var trigger: SyncTrigger
    /// When the sync started.
    public var startedAt: Date

    /// Creates a page to apply.
    public init(
        resource: String, scope: String, changes: [IncrementalChange], cursor: SyncCursor, run: Int64?,
        trigger: SyncTrigger, startedAt: Date
    ) {
        self.resource = resource
        self.scope = scope
        self.changes = changes
        self.cursor = cursor
        self.run = run
        self.trigger = trigger
        self.startedAt = startedAt
    }
}

/// What applying an incremental page did.
public struct AppliedPage: Sendable, Hashable {
    /// The sync's run row.
    public var run: Int64
    /// The records it inserted, updated and deleted.
    public var changes: SnapshotChanges
    /// The seqs of its changes in the feed, if it made any.
    public var feed: ClosedRange<Int64>?
    /// What it did to the resource's typed table, when it declares one.
    public var columns: TypedTableWrite?
}
