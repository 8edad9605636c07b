import DemoUpstream
import Foundation
import NIOCore

/// A "changed since" feed whose deletions are told the ways APIs tell them, for
/// `deleted` rules that match more than one value at one pointer:
/// `GET /feed/NAME?tombstones=STYLE&updated_since=ISO&page=&per_page=` answers
/// `{"value": [...], "page"}`, the items changed at `updated_since` or later in the
/// order of the collection's incremental route (`/incremental/NAME`), each removed
/// item as STYLE says:
///
/// | STYLE | a removed item | like |
/// | --- | --- | --- |
/// | `removed` | `{"id": 7, "@removed": {"reason": "deleted"}}` | Microsoft Graph's delta queries |
/// | `events` | `{"deleted_id": 7, "type": "deleted"}`: no `id` | event feeds that name the record a deletion removes |
enum TombstoneFeed {
    /// How a removed item is told.
    enum Style: String {
        case removed, events
    }

    /// The page `request` asks for, of `dataset`.
    static func page(_ request: SeenRequest, dataset: Dataset) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        let page = query["page"].flatMap(Int.init) ?? 1
        let size = query["per_page"].flatMap(Int.init) ?? Routes.defaultPageSize
        let since = query["updated_since"].map { ISO8601DateFormatter().date(from: $0) }
        guard let style = Style(rawValue: query["tombstones"] ?? ""), page >= 1, (1...10_000).contains(size),
            since != .some(nil)
        else {
            return .answer(
                Routes.json(
                    status: 400,
                    #"{"error":"tombstones must be removed or events; updated_since an ISO 8601 time; page at least 1; per_page 1 to 10000"}"#
                ))
        }
        let changes = dataset.changes(
            since: since.flatMap { $0 }.map(Dataset.stamp) ?? 0, offset: (page - 1) * size, limit: size)
        var body = ByteBuffer()
        body.writeString(#"{"value":["#)
        for (index, change) in changes.enumerated() {
            if index > 0 { body.writeString(",") }
            switch (change.deleted, style) {
            case (false, _): body.writeString(dataset.item(change.id, stamp: change.stamp, deleted: false))
            case (true, .removed): body.writeString(#"{"id":\#(change.id),"@removed":{"reason":"deleted"}}"#)
            case (true, .events): body.writeString(#"{"deleted_id":\#(change.id),"type":"deleted"}"#)
            }
        }
        body.writeString(#"],"page":\#(page)}"#)
        return .page(headers: [], body: body)
    }
}
