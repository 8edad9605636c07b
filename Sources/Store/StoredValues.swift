/// The state of a resource as stored in `resources.state`.
public enum ResourceState: String, Sendable, CaseIterable, Codable {
    /// Synced, waiting for its next poll.
    case idle
    /// A sync is running.
    case syncing
    /// A sync failed with a transient error and waits to retry.
    case retrying
    /// A sync waits out a rate limit or its request budget (shown while
    /// running; never stored).
    case waiting
    /// Paused: the machine is offline.
    case offline
    /// Failed for good: not polled again until a manual refresh.
    case failed
}

/// How a sync ended, as stored in `sync_runs.outcome`.
public enum SyncOutcome: String, Sendable, CaseIterable, Codable {
    /// All pages fetched and applied.
    case success
    /// The server answered 304: nothing changed, nothing written.
    case notModified
    /// An unrecoverable failure.
    case failed
    /// Transient failures until the retry policy gave up.
    case gaveUp
    /// Rate limited for longer than `rateLimit.maxWait`: the next poll comes at the reset.
    case rateLimited
    /// The machine was offline.
    case offline
    /// The sync was cancelled (shutdown, or superseded).
    case cancelled

    /// Whether the sync counts as a success (the poll interval restarts).
    public var isSuccess: Bool { self == .success || self == .notModified }
}

/// What started a sync, as stored in `sync_runs.trigger`.
public enum SyncTrigger: String, Sendable, CaseIterable, Codable {
    /// The poll interval elapsed.
    case poll
    /// A person or program asked for it.
    case refresh
    /// The agent started and the data was stale.
    case startup
    /// A resource this one depends on changed.
    case dependency
}

/// An error as stored with a resource or a sync run (docs/api.md#result).
public struct StoredError: Sendable, Hashable, Codable {
    /// What kind of failure it was; its raw value is what the database and the
    /// status API hold.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// May succeed later, and the retries were used up: network faults, timeouts, 5xx.
        case transient
        /// Cannot succeed as is: other 4xx, bad data, too many pages.
        case unrecoverable
        /// The machine could not reach the network.
        case offline
        /// The API's rate limit lasted longer than `rateLimit.maxWait`.
        case rateLimited
        /// A passing condition of the machine (database busy, disk full, I/O
        /// error, no descriptor or memory left): never makes a resource `failed`.
        case storage
        /// The database could not be read or written, and trying again will not help.
        case store
        /// The sync was cancelled: the agent stopped, a newer sync replaced it,
        /// or another agent of the fleet holds the resource.
        case cancelled

        /// A kind this version does not know (told by a newer one) reads as
        /// `unrecoverable`, as it does from the database.
        public init(from decoder: any Decoder) throws {
            self = Kind(rawValue: try decoder.singleValueContainer().decode(String.self)) ?? .unrecoverable
        }
    }

    /// The error's kind.
    public var kind: Kind
    /// One clear sentence, free of secrets.
    public var message: String
    /// The HTTP status, when the server answered.
    public var status: Int?

    /// Creates a stored error.
    public init(kind: Kind, message: String, status: Int? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
    }
}

/// The HTTP validators of a resource's first page, for conditional requests,
/// and the request they belong to.
public struct Validators: Sendable, Hashable {
    /// The `ETag` the server sent, sent back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` the server sent, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// A fingerprint of the request that was answered with them: they are sent
    /// back only with the same request (same URL, body, headers and keying).
    public var scope: String?

    /// Creates validators.
    public init(etag: String? = nil, lastModified: String? = nil, scope: String? = nil) {
        self.etag = etag
        self.lastModified = lastModified
        self.scope = scope
    }

    /// Whether there is nothing to send.
    public var isEmpty: Bool { etag == nil && lastModified == nil }
}

/// One page of a resource's last applied snapshot, as the next sync needs it
/// to revalidate that page (docs/schema.md#pages): the request it answered,
/// its validators, the request of the page after it, and how many records it held.
public struct StoredPage: Sendable, Hashable {
    /// 1 for the first page.
    public var number: Int
    /// A fingerprint of the page's request (method, URL, body): its validators
    /// are sent back only with the same request.
    public var request: String
    /// The validators the page was answered with.
    public var validators: Validators
    /// The next page's request, as the agent wrote it (`nil`: the last page).
    public var next: String?
    /// How many records the page held.
    public var itemCount: Int

    /// Creates a stored page.
    public init(number: Int, request: String, validators: Validators, next: String?, itemCount: Int) {
        self.number = number
        self.request = request
        self.validators = validators
        self.next = next
        self.itemCount = itemCount
    }
}

extension StoredError {
    /// An error read from its columns, or `nil` when the message column is empty.
    /// A row written before kinds were has none: `unrecoverable`.
    ///
    /// - Throws: ``StoreError/Kind/unknownValue`` for a kind this agent does
    ///   not know (docs/schema.md#stored-values).
    init?(
        message: String?, kind: String?, status: Int?, column: String, of row: @autoclosure () -> String
    ) throws(StoreError) {
        guard let message else { return nil }
        let known = try kind.map { (raw) throws(StoreError) in try Kind.stored(raw, column, of: row()) }
        self.init(kind: known ?? .unrecoverable, message: message, status: status)
    }
}

extension RawRepresentable where RawValue == String {
    /// The value stored as `raw` in `column` of `row` (`resources.state` of
    /// `"users"`): never another one (docs/schema.md#stored-values).
    ///
    /// - Throws: ``StoreError/Kind/unknownValue`` naming the column, the row
    ///   and the value when this agent knows no such value: a newer one wrote it.
    static func stored(
        _ raw: String?, _ column: String, of row: @autoclosure () -> String
    ) throws(StoreError) -> Self {
        if let raw, let value = Self(rawValue: raw) { return value }
        let value = raw.map { "\"\($0)\"" } ?? "NULL"
        throw StoreError(
            .unknownValue,
            "\(column) of \(row()) is \(value), which this agent does not know: a newer agent wrote it; upgrade this one"
        )
    }
}
