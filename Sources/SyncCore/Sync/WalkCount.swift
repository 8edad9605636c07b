import Foundation
import Store

/// One query's walk through the pages of a sync, counted to tell a complete
/// copy from a short one (docs/configuration.md#complete-copies): the items
/// it received, the total the API stated, and where the query started.
struct WalkCount {
    /// The `since` time the query started from (a window's start).
    var start: ExactTime?
    /// The pages of the sync before this query's.
    private var before: Int
    /// The number of the sync's last page so far.
    private(set) var pages: Int
    /// The items received, a page not modified counting those it held.
    private(set) var items = 0
    /// The total the last page that stated one stated.
    private(set) var stated: Int?
    /// The total a page stated under a usual name, though not configured.
    private(set) var implied: (count: Int, place: String)?
    /// Whether the count may leave out items: a page not modified counts its
    /// records, not the tombstones among its items (`deleted`).
    private(set) var uncertain = false

    init(start: ExactTime?, pages: Int = 0) {
        self.start = start
        before = pages
        self.pages = pages
    }

    /// `page` numbered in the sync, after the pages of the queries before.
    func numbered(_ page: FetchedPage) -> FetchedPage {
        var page = page
        page.number += before
        page.stored.number += before
        return page
    }

    /// Counts `page`, numbered; `tombstones`: whether its items may hold some.
    mutating func add(_ page: FetchedPage, tombstones: Bool = false) {
        if page.notModified, tombstones { uncertain = true }
        pages = page.number
        items += page.notModified ? page.stored.itemCount : page.itemCount
        if let total = page.total { stated = total }
        if let total = page.impliedTotal { implied = total }
    }

    /// The count of the query that follows, from `start`.
    func next(start: ExactTime?) -> WalkCount {
        WalkCount(start: start, pages: pages)
    }

    /// Why the walk is short, when the API stated a total it did not give (at
    /// most `cap`, the most one query pages through).
    func shortfall(cap: Int?) -> String? {
        guard !uncertain else { return nil }
        if stated == nil, let implied, items < min(implied.count, cap ?? .max) {
            // A walk that trusted a short page, which the API says is not the end.
            let key = implied.place.hasPrefix("/") ? "\"\(implied.place)\"" : "{\"header\": \"\(implied.place)\"}"
            return "the API stated \(implied.count) items (\(implied.place)) but the sync received \(items), "
                + "stopping at a short page: the copy would not be complete; the previous snapshot stays "
                + "(\"total\": \(key) in pagination makes the walk follow it)"
        }
        guard let stated else { return nil }
        let expected = cap.map { min(stated, $0) } ?? stated
        guard items != expected else { return nil }
        let capped = expected < stated ? " (of \(stated), as one query gives at most \(expected))" : ""
        return "the API stated \(expected) items\(capped) but the sync received \(items): "
            + "the copy would not be complete; the previous snapshot stays"
    }
}
