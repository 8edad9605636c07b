import Store

/// How an incremental walk cut off (a page that failed after its retries, a
/// restart, a kill) goes on (docs/configuration.md#how-a-walk-cut-off-goes-on).
///
/// On an API that lists the oldest change first by page number, an item changed
/// while the walk is cut off moves to the end, and the items after it slide
/// back onto pages already walked: the next page number, asked with the value
/// the walk started with, would skip them. Such a walk starts again at its
/// first page instead, from the value it committed. A walk whose next page is
/// the API's own continuation of a token or link, or whose API lists the newest
/// change first (changed items move to the front, where the next walk finds
/// them), goes on at its next page.
enum WalkResume: Sendable, Hashable {
    /// At its next page, as stored, sending the value the walk sent.
    case byPage
    /// At its first page, sending this value, less `lookback` (`nil`: `initial`).
    case byValue(SinceState?)

    /// How `walk`, which a sync of `incremental` left, goes on: from the value it
    /// kept to go on from, or, when it kept none (a walk of 0.1.0), from the
    /// value it sent.
    init(_ walk: SyncCursor.Walk, _ incremental: IncrementalSettings) {
        self = Self.goesOnByValue(incremental) ? .byValue(walk.resume ?? walk.sent) : .byPage
    }

    /// Whether a walk of `incremental` cut off starts again from a value: a
    /// time (`since.field` or `since.fromBody`) of an API listing oldest first.
    static func goesOnByValue(_ incremental: IncrementalSettings) -> Bool {
        guard incremental.order == .oldestFirst else { return false }
        switch incremental.source {
        case .field, .body: return true
        case .token, .link: return false
        }
    }

    /// The value a walk keeps to go on from after a page (``SyncCursor/Walk/resume``):
    /// with `since.field`, the `largest` time committed once the window's items
    /// (`order`) came oldest first, since everything before it was seen; else the
    /// value the window `sent`, whose walk again from its first page is exact
    /// whatever the order (a `fromBody` time may be the time the query ran rather
    /// than where it stopped). `nil` for a walk that goes on by page.
    static func resume(
        _ incremental: IncrementalSettings, sent: SinceState?, largest: SinceState?, order: TimeOrder
    ) -> SinceState? {
        guard goesOnByValue(incremental) else { return nil }
        if case .field = incremental.source, order.oldestFirst, let largest { return largest }
        return sent
    }
}
