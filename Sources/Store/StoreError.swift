/// An error of the store, with a stable ``Kind`` and one sentence for people.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in a form programs can switch on.
    public enum Kind: String, Sendable {
        /// The database file does not exist (and was not to be created).
        case missing
        /// The database could not be opened or migrated.
        case open
        /// The database file is an SQLite file of the agent's, but damaged.
        case corrupt
        /// Two items of one sync share a key: the data is unusable as is.
        case duplicateKey
        /// A read or write failed (disk full, I/O error, busy for too long).
        case io
        /// The task was cancelled: the write did not happen, or was rolled back.
        case cancelled
        /// Another agent of the fleet holds the resource's lease: nothing was committed.
        case notOwner
        /// A stored value this agent does not know, written by a newer one
        /// (docs/schema.md#stored-values): nothing was read as another value.
        case unknownValue
    }

    /// The kind of failure.
    public let kind: Kind
    /// One clear sentence.
    public let message: String
    /// The key two items shared, for ``Kind/duplicateKey``.
    public let key: String?
    /// Whether it is a condition of the machine that passes (the database busy
    /// or locked by another process, a full disk, an I/O error, no file
    /// descriptor or memory left), not of the data: worth trying again later.
    public let isTransient: Bool

    /// Creates a store error.
    public init(_ kind: Kind, _ message: String, key: String? = nil, isTransient: Bool = false) {
        self.kind = kind
        self.message = message
        self.key = key
        self.isTransient = isTransient
    }

    /// The message.
    public var description: String { message }
}
