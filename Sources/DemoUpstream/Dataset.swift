import Foundation

/// A named collection of generated items: item `id` is a deterministic JSON
/// object of about 200 bytes, so a million items cost no memory until served.
/// Items can be changed (their revision grows) or removed, which is how tests
/// make data change between syncs.
package struct Dataset: Sendable {
    /// How many ids exist before removals: ids run from 1 to `count`.
    var count: Int
    /// When it last changed (for `Last-Modified`).
    package var modified = Date()
    /// Per-item revisions, for items changed since creation.
    var revisions: [Int: Int] = [:]
    /// Removed ids.
    var removed: Set<Int> = []
    /// Live ids when some were removed, computed on demand.
    private var liveCache: [Int]?
    /// The logical clock of changes, for the incremental routes: item `id` was last
    /// changed at stamp `id` (it was made then), unless `stamps` says otherwise; each
    /// change after the collection was made takes the next stamp, from 1,000,000.
    var tick = 1_000_000
    /// The stamps of items changed (or added) since the collection was made.
    var stamps: [Int: Int] = [:]
    /// The stamps at which items were removed: the incremental routes tell them as
    /// tombstones. Items cut off by shrinking the collection leave none (a hard delete).
    var removedStamps: [Int: Int] = [:]

    init(count: Int) {
        self.count = count
    }

    /// How many items are live.
    package var liveCount: Int { count - removed.count }

    /// The live ids from position `offset` (0-based), at most `limit` of them.
    package mutating func ids(offset: Int, limit: Int) -> [Int] {
        guard offset < liveCount, limit > 0 else { return [] }
        let end = min(liveCount, offset + limit)
        if removed.isEmpty { return Array((offset + 1)...end) }
        if liveCache == nil { liveCache = (1...max(1, count)).filter { !removed.contains($0) } }
        return Array(liveCache![offset..<end])
    }

    /// How many live ids are below `id`: the offset of `id` if it is live, or of the first
    /// live id after it. Cursors hold ids rather than offsets, so that a removal between
    /// two pages skips nothing.
    package func offset(of id: Int) -> Int {
        let below = min(max(id - 1, 0), count)
        return below - removed.count(where: { $0 <= below })
    }

    mutating func touch() {
        modified = Date()
        liveCache = nil
    }

    /// The first day of the collection's clock: stamp `s` is `s` seconds later.
    package static let epoch = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

    /// The time of a stamp, as the incremental routes write it.
    package static func time(_ stamp: Int) -> String {
        // By hand: a formatter made for each item would cost more than the rest of the page.
        var seconds = time_t(Int(epoch.timeIntervalSince1970) + stamp)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1,
            Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// The stamp of a time the incremental routes were given (its whole seconds).
    package static func stamp(_ date: Date) -> Int {
        Int(date.timeIntervalSince(epoch).rounded(.down))
    }

    /// Marks `ids` changed now: the next stamp.
    mutating func stamp(_ ids: [Int]) {
        tick += 1
        for id in ids { stamps[id] = tick }
    }

    /// What changed at stamp `since` or later, in the order of the stamps (then
    /// ids), from position `offset`: at most `limit` items, live ones and tombstones.
    package func changes(since: Int, offset: Int = 0, limit: Int) -> [(id: Int, stamp: Int, deleted: Bool)] {
        var result: [(id: Int, stamp: Int, deleted: Bool)] = []
        var skipped = 0
        // Items never changed, whose stamp is their id, come first.
        var id = max(since, 1)
        while id <= min(count, tick), result.count < limit {
            if stamps[id] == nil, !removed.contains(id) {
                if skipped < offset { skipped += 1 } else { result.append((id, id, false)) }
            }
            id += 1
        }
        guard result.count < limit else { return result }
        var later = stamps.filter { $0.value >= since && !removed.contains($0.key) && $0.key <= count }
            .map { (id: $0.key, stamp: $0.value, deleted: false) }
        later += removedStamps.filter { $0.value >= since }.map { (id: $0.key, stamp: $0.value, deleted: true) }
        later.sort { ($0.stamp, $0.id) < ($1.stamp, $1.id) }
        for change in later where result.count < limit {
            if skipped < offset { skipped += 1 } else { result.append(change) }
        }
        return result
    }

    /// How many ids exist before removals: ids run from 1 to `idCount`.
    package var idCount: Int { count }

    /// The logical clock: the stamp of the latest change (at least 1,000,000), so that
    /// every change from now on has a larger stamp.
    package var clock: Int { tick }

    /// The stamp at which live item `id` last changed, or `nil` when it is removed or
    /// out of range.
    package func stamp(of id: Int) -> Int? {
        guard id >= 1, id <= count, !removed.contains(id) else { return nil }
        return stamps[id] ?? id
    }

    /// Item `id`'s revision: 1, and one more for each change.
    package func revision(of id: Int) -> Int {
        revisions[id] ?? 1
    }

    /// Item `id` as the incremental routes serve it: with its `updated_at`, or as a tombstone.
    package func item(_ id: Int, stamp: Int, deleted: Bool) -> String {
        if deleted { return #"{"id":\#(id),"status":"deleted","deleted":true,"updated_at":"\#(Self.time(stamp))"}"# }
        return String(item(id).dropLast()) + #","status":"open","updated_at":"\#(Self.time(stamp))"}"#
    }

    /// The JSON of item `id`.
    package func item(_ id: Int) -> String {
        let revision = revisions[id] ?? 1
        return """
            {"id":\(id),"name":"Item \(id)","email":"item\(id)@example.com","revision":\(revision),\
            "score":\((id &* 7) % 100),"active":\(id % 3 != 0),"tags":["alpha","beta","gamma"],\
            "created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}
            """
    }
}
