import Foundation

/// A named collection of generated items: item `id` is a deterministic JSON
/// object of about 200 bytes, so a million items cost no memory until served.
/// Items can be changed (their revision grows) or removed, which is how tests
/// make data change between syncs.
struct Dataset: Sendable {
    /// How many ids exist before removals: ids run from 1 to `count`.
    var count: Int
    /// When it last changed (for `Last-Modified`).
    var modified = Date()
    /// Per-item revisions, for items changed since creation.
    var revisions: [Int: Int] = [:]
    /// Removed ids.
    var removed: Set<Int> = []
    /// Live ids when some were removed, computed on demand.
    private var liveCache: [Int]?

    init(count: Int) {
        self.count = count
    }

    /// How many items are live.
    var liveCount: Int { count - removed.count }

    /// The live ids from position `offset` (0-based), at most `limit` of them.
    mutating func ids(offset: Int, limit: Int) -> [Int] {
        guard offset < liveCount, limit > 0 else { return [] }
        let end = min(liveCount, offset + limit)
        if removed.isEmpty { return Array((offset + 1)...end) }
        if liveCache == nil { liveCache = (1...max(1, count)).filter { !removed.contains($0) } }
        return Array(liveCache![offset..<end])
    }

    /// How many live ids are below `id`: the offset of `id` if it is live, or of the first
    /// live id after it. Cursors hold ids rather than offsets, so that a removal between
    /// two pages skips nothing.
    func offset(of id: Int) -> Int {
        let below = min(max(id - 1, 0), count)
        return below - removed.count(where: { $0 <= below })
    }

    mutating func touch() {
        modified = Date()
        liveCache = nil
    }

    /// The JSON of item `id`.
    func item(_ id: Int) -> String {
        let revision = revisions[id] ?? 1
        return """
            {"id":\(id),"name":"Item \(id)","email":"item\(id)@example.com","revision":\(revision),\
            "score":\((id &* 7) % 100),"active":\(id % 3 != 0),"tags":["alpha","beta","gamma"],\
            "created":"2026-01-01T00:00:00Z","note":"The quick brown fox jumps over the lazy dog."}
            """
    }
}
