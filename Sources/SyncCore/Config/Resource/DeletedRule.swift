/// `deleted` (docs/configuration.md#deletions): which items say that their
/// record is deleted, and where such an item says the record's key.
///
/// An incremental resource deletes the record; a snapshot resource leaves the
/// item out of the snapshot (a tombstone is no record).
package struct DeletedRule: Sendable, Hashable {
    /// How the value at ``pointer`` marks a deletion.
    package enum Match: Sendable, Hashable {
        /// It equals one of these values (`{"pointer": "/deleted"}` means `true`;
        /// `"equals": ["deleted", "removed"]` either string).
        case equals([JSONValue])
        /// It is there at all, whatever it holds, even `null` (Microsoft
        /// Graph's `"@removed": {"reason": "deleted"}`).
        case present
    }

    /// The item's field that marks a deletion.
    package var pointer: JSONPointer
    /// How it marks one.
    package var match: Match
    /// Where a deletion says its record's key, when not at the resource's
    /// `key` (`{"deleted_id": 42}`); `nil`: at the resource's `key`.
    package var key: JSONPointer?

    /// A rule as told; by default, the item's field equals `true`.
    package init(pointer: JSONPointer, match: Match = .equals([.bool(true)]), key: JSONPointer? = nil) {
        self.pointer = pointer
        self.match = match
        self.key = key
    }

    /// Whether `item`, an item of `document`, marks its record deleted.
    func matches(_ item: JSONDocument.Span, in document: JSONDocument) -> Bool {
        guard let span = document.span(at: pointer, in: item) else { return false }
        switch match {
        case .present: return true
        case .equals(let values): return values.contains(JSONValue(document, span))
        }
    }
}
