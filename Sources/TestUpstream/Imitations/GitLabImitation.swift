import DemoUpstream
import Foundation
import NIOCore

/// GitLab's project issues: `GET /api/v4/projects/ID/issues?updated_after=&order_by=&sort=&page=&per_page=`
/// over the collection `gitlab-issues`: a list filtered by "changed since", walked by page
/// number, whose order a change moves an issue in.
///
/// - List project issues (https://docs.gitlab.com/api/issues/#list-project-issues):
///   `updated_after` (ISO 8601) keeps the issues updated on or after that time,
///   `updated_before` those updated on or before it; `order_by` is `created_at` (the
///   default) or `updated_at`, `sort` `desc` (the default) or `asc`. A time that is no
///   ISO 8601 time is 400 `{"error": "updated_after is invalid"}`. Issues are
///   `{"id", "iid", "project_id", "title", "description", "state", "created_at",
///   "updated_at", "closed_at", "labels", "user_notes_count", "web_url"}`; an edit
///   (a change of the collection) moves `updated_at` to the clock's next second, so with
///   `order_by=updated_at&sort=asc` the issue moves to the end of the list.
/// - Offset pagination (https://docs.gitlab.com/api/rest/#offset-based-pagination):
///   `page` from 1, `per_page` 20 by default and at most 100; the headers `x-page`,
///   `x-per-page`, `x-next-page` (empty on the last page), `x-prev-page`, `x-total`,
///   `x-total-pages`, and `Link` with `prev`, `next`, `first`, `last` (absolute). A page
///   past the last is an empty array.
/// - Departures: other filters (`state`, `labels`, `search`) are not read; there is no
///   rate limit (GitLab.com's is per user, on its own header family) and no token.
enum GitLabImitation: Imitation {
    static let issuesCollection = "gitlab-issues"
    static let defaultPageSize = 20
    static let maximumPageSize = 100
    /// The global `id` of issue `iid`: GitLab's ids count across every project.
    static let firstID = 76_000_000

    static func collection(in path: String) -> String? { issuesCollection }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        var low = 0
        var high = Int.max
        for bound in ["updated_after", "updated_before"] {
            guard let value = query[bound] else { continue }
            guard let date = QueryTime.date(value) else {
                return .answer(Routes.json(status: 400, #"{"error":"\#(bound) is invalid"}"#))
            }
            if bound == "updated_after" {
                low = QueryTime.firstStamp(after: date, inclusive: true)
            } else {
                high = QueryTime.firstStamp(after: date, inclusive: false) - 1
            }
        }
        // Oldest change first (then by id), as the dataset tells them.
        var issues = QueryTime.changed(in: dataset, since: low).filter { $0.stamp <= high }
        if query["order_by"] != "updated_at" { issues.sort { $0.id < $1.id } }
        if query["sort"] != "asc" { issues.reverse() }
        let perPage = min(max(query["per_page"].flatMap { Int($0) } ?? defaultPageSize, 1), maximumPageSize)
        let page = max(query["page"].flatMap { Int($0) } ?? 1, 1)
        let (offset, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
        let items = overflow ? [] : Array(issues.dropFirst(offset).prefix(perPage))
        let lastPage = max(1, (issues.count + perPage - 1) / perPage)
        let unreserved = CharacterSet(charactersIn: "-._~").union(.alphanumerics)
        func encoded(_ text: String) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text }
        let kept = query.filter { $0.key != "page" }.sorted { $0.key < $1.key }
        let base =
            "\(origin)\(request.path)?" + kept.map { "\(encoded($0.key))=\(encoded($0.value))" }.joined(separator: "&")
        func link(_ page: Int, _ relation: String) -> String { "<\(base)&page=\(page)>; rel=\"\(relation)\"" }
        var links: [String] = []
        if page > 1 { links.append(link(min(page - 1, lastPage), "prev")) }
        if page < lastPage { links.append(link(page + 1, "next")) }
        links += [link(1, "first"), link(lastPage, "last")]
        let headers: [(String, String)] = [
            ("x-page", "\(page)"), ("x-per-page", "\(perPage)"),
            ("x-next-page", page < lastPage ? "\(page + 1)" : ""), ("x-prev-page", page > 1 ? "\(page - 1)" : ""),
            ("x-total", "\(issues.count)"), ("x-total-pages", "\(lastPage)"),
            ("Link", links.joined(separator: ", ")),
        ]
        let body = "[" + items.map { issue($0.id, stamp: $0.stamp, dataset: dataset) }.joined(separator: ",") + "]"
        return .page(headers: headers, body: ByteBuffer(string: body))
    }

    /// Issue `iid` as GitLab answers it.
    static func issue(_ iid: Int, stamp: Int, dataset: Dataset) -> String {
        let closed = iid % 5 == 0
        return #"{"id":\#(firstID + iid),"iid":\#(iid),"project_id":7,"title":"Item \#(iid)","#
            + #""description":"Revision \#(dataset.revision(of: iid))","state":"\#(closed ? "closed" : "opened")","#
            + #""created_at":"\#(Dataset.time(iid))","updated_at":"\#(Dataset.time(stamp))","#
            + #""closed_at":\#(closed ? "\"\(Dataset.time(stamp))\"" : "null"),"labels":[],"#
            + #""user_notes_count":\#(dataset.revision(of: iid) - 1),"#
            + #""web_url":"https://gitlab.example.com/octo/octo-repo/-/issues/\#(iid)"}"#
    }

    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        return Dictionary(
            uniqueKeysWithValues: ids.map {
                ("\(firstID + $0)", issue($0, stamp: dataset.stamp(of: $0)!, dataset: dataset))
            })
    }

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        Routes.json(status: 429, #"{"message":"429 Too Many Requests"}"#)
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        Routes.json(status: 401, #"{"message":"401 Unauthorized"}"#)
    }
}
