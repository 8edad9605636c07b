import Foundation
import Store
import Testing

@testable import SyncCore

/// How a walk's count tells a complete copy from a short one
/// (docs/configuration.md#complete-copies).
@Suite struct WalkCountTests {
    static func page(_ number: Int, items: Int, total: Int? = nil, notModified: Bool = false) -> FetchedPage {
        var page = FetchedPage(
            number: number, request: "GET /projects", records: [], bytes: 100, notModified: notModified, next: nil,
            stored: StoredPage(number: number, request: "", validators: Validators(), next: nil, itemCount: items))
        page.itemCount = notModified ? 0 : items
        page.total = total
        return page
    }

    @Test func aStatedTotalMustBeReceivedExactly() {
        var walk = WalkCount(start: nil)
        walk.add(Self.page(1, items: 50, total: 180))
        #expect(
            walk.shortfall(cap: nil)
                == "the API stated 180 items but the sync received 50: the copy would not be complete; "
                + "the previous snapshot stays")
        for number in 2...4 { walk.add(Self.page(number, items: number == 4 ? 30 : 50, total: 180)) }
        #expect(walk.shortfall(cap: nil) == nil)
        // A page not modified counts the items it held.
        var revalidated = WalkCount(start: nil)
        revalidated.add(Self.page(1, items: 100, total: 150))
        revalidated.add(Self.page(2, items: 50, notModified: true))
        #expect(revalidated.shortfall(cap: nil) == nil)
    }

    @Test func aCappedQueryIsExpectedToGiveAtMostItsCap() {
        var walk = WalkCount(start: nil)
        for number in 1...10 { walk.add(Self.page(number, items: 100, total: 1307)) }
        #expect(walk.shortfall(cap: 1000) == nil)
        #expect(walk.shortfall(cap: nil)?.hasPrefix("the API stated 1307 items but the sync received 1000") == true)
        // The next window numbers its pages after this one's.
        let next = walk.next(start: .at(1))
        #expect(next.numbered(Self.page(1, items: 7)).number == 11)
    }

    @Test func anImpliedTotalFailsOnlyAWalkThatFellShort() {
        var short = WalkCount(start: nil)
        var page = Self.page(1, items: 50)
        page.impliedTotal = (180, "/total")
        short.add(page)
        let message = short.shortfall(cap: nil) ?? ""
        #expect(message.hasPrefix("the API stated 180 items (/total) but the sync received 50"))
        #expect(message.hasSuffix(#"("total": "/total" in pagination makes the walk follow it)"#))
        // A count the API calls total but that is more than the walk is left alone.
        var more = WalkCount(start: nil)
        page.impliedTotal = (20, "X-Total-Count")
        more.add(page)
        #expect(more.shortfall(cap: nil) == nil)
    }
}
