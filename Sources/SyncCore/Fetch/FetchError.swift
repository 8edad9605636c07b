import Streams

/// A failed page request, classified as docs/configuration.md#failures-and-retries
/// says, and told in one sentence that names the resource, the URL (secrets
/// scrubbed) and the cause.
package struct FetchError: Error, Sendable, CustomStringConvertible {
    /// Whether trying again can help.
    package enum Kind: String, Sendable {
        /// May succeed later: network faults, timeouts, 408, 425, 429, 5xx.
        case transient
        /// Cannot succeed as is: other 4xx, bad data, too many pages.
        case unrecoverable
        /// The machine cannot reach the network: DNS failure, unreachable, connect timeout.
        case offline
        /// The server asked us to slow down: waited out, using up no attempt
        /// (docs/configuration.md#rate-limits).
        case rateLimited
    }

    /// The classification.
    package var kind: Kind
    /// The resource being synced.
    package var resource: String
    /// The request, as `GET https://…`, with secrets scrubbed.
    package var request: String
    /// What went wrong, as a phrase such as `the server answered 503 Service Unavailable`.
    package var cause: String
    /// The HTTP status, when the server answered.
    package var status: Int?
    /// How long the server asked us to wait (`Retry-After`, or for a rate
    /// limit its reset), if it did.
    package var retryAfter: Duration?
    /// Whether the machine itself failed the request: out of file descriptors
    /// or memory. A passing condition of the machine, like a busy database
    /// (docs/configuration.md#failures-and-retries).
    package var ofMachine = false
    /// Whether the API said the value an incremental sync kept is too old
    /// (`since.expiredWhen`): the sync starts afresh with a full sync.
    package var stateExpired = false

    /// Creates a fetch error.
    package init(
        _ kind: Kind, resource: String, request: String, cause: String, status: Int? = nil, retryAfter: Duration? = nil
    ) {
        self.kind = kind
        self.resource = resource
        self.request = request
        self.cause = cause
        self.status = status
        self.retryAfter = retryAfter
    }

    /// The sentence: `users: GET https://… failed: the server answered 503 Service Unavailable`.
    package var description: String { "\(resource): \(request) failed: \(cause)" }

    /// The error with every secret scrubbed from the request and the cause.
    func redacted(by redactor: Redactor) -> FetchError {
        var copy = self
        copy.request = redactor.redact(request)
        copy.cause = redactor.redact(cause)
        return copy
    }

    /// The classification of an HTTP status that is not a success.
    package static func kind(ofStatus status: Int) -> Kind {
        switch status {
        case 408, 425, 429, 500, 502, 503, 504: .transient
        default: .unrecoverable
        }
    }
}
