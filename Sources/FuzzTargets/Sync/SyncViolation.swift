/// A part of the `sync` target's property that an input breaks.
struct SyncViolation: Error, Sendable, CustomStringConvertible {
    /// Which part: `scripts/fuzz` may be told to let an input of a class already
    /// kept in `fuzz/pending/sync` pass (``SyncTarget/skipped``), to look for others.
    enum Class: String, Sendable, CaseIterable {
        /// The syncs did not end.
        case hang
        /// A wait past its documented bound.
        case wait
        /// A rateLimited sync's next poll past its bound.
        case nextPoll = "next-poll"
        /// An outcome and its error that do not agree.
        case outcome
        /// The value kept is not the one served.
        case kept
        /// A value that must be refused was kept (or its page committed).
        case accepted
        /// A sync that did not succeed moved the value kept.
        case unchanged
        /// A walk cut off keeps another largest value than its committed pages hold.
        case walk
        /// The value sent is not the one kept.
        case sent
        /// A failure names a place but not the value there.
        case named
        /// A snapshot succeeded against the total the API stated.
        case total
        /// A snapshot holds other keys than the walk served.
        case keys
        /// A `Content-Length` past the size limit did not fail the sync with its value.
        case length
    }

    var kind: Class
    var detail: String

    init(_ kind: Class, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    var description: String { "[\(kind.rawValue)] \(detail)" }
}
