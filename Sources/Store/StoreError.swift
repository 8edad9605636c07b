/// An error of the store, with a stable ``Kind`` and one sentence for people.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    /// What went wrong, in a form programs can switch on.
    public enum Kind: String, Sendable {
        /// The database file does not exist (and was not to be created).
        case missing
        /// The database could not be opened or migrated.
        case open
        /// Two items of one sync share a key: the data is unusable as is.
        case duplicateKey
        /// A read or write failed (disk full, I/O error, busy for too long).
        case io
    }

    /// The kind of failure.
    public let kind: Kind
    /// One clear sentence.
    public let message: String

    /// Creates a store error.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
