import Store

/// The order in which a walk's items gave their `since.field` times, as far
/// as it has seen them: whether a time rose above the one before it, and
/// whether one fell below. A walk cut off goes on from the largest time it
/// committed only when its times rose and never fell
/// (docs/configuration.md#how-a-walk-cut-off-goes-on).
///
/// A value: pages add their own, in the walk's order.
struct TimeOrder: Sendable, Hashable {
    /// The first time seen.
    private(set) var first: ExactTime?
    /// The last time seen.
    private(set) var last: ExactTime?
    /// A time was later than the one before it.
    private(set) var rose = false
    /// A time was earlier than the one before it.
    private(set) var fell = false

    /// The times came oldest first, and not all the same: the largest seen is
    /// a place in the API's list, before which everything was seen.
    var oldestFirst: Bool { rose && !fell }

    /// Counts `time`, the next item's.
    mutating func add(_ time: ExactTime) {
        if let last {
            if time > last { rose = true } else if time < last { fell = true }
        } else {
            first = time
        }
        last = time
    }

    /// Counts the times of `later`, which come after these.
    mutating func append(_ later: TimeOrder) {
        guard let head = later.first, let tail = later.last else { return }
        add(head)
        rose = rose || later.rose
        fell = fell || later.fell
        last = tail
    }
}
