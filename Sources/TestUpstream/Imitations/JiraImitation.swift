import DemoUpstream
import Foundation
import NIOCore

/// Jira Cloud's REST API v3: the JQL search `GET /rest/api/3/search/jql` over the
/// collection `jira-issues`, and the project search `GET /rest/api/3/project/search` over
/// `jira-projects`.
///
/// - Search (https://developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issue-search/#api-rest-api-3-search-jql-get):
///   `jql` is required (an empty one is "unbounded", 400); `maxResults` defaults to 50 and
///   is at most 100 (5,000 when `fields` asks for `id` or `key` only); `fields` is a comma
///   list, by default `id` only (`*all` and `*navigable` are every field); the answer is
///   `{"issues": [...], "nextPageToken": "…", "isLast": false}`, and the last page has
///   `"isLast": true` and no token. A token holds the query it came from and where the
///   next page starts; with another `jql` it is invalid (400).
/// - JQL (https://support.atlassian.com/jira-software-cloud/docs/jql-fields/#Updated):
///   the condition `updated >= "yyyy-MM-dd HH:mm"` (or `>`; `updatedDate` too; the formats
///   `yyyy/MM/dd HH:mm`, `yyyy-MM-dd`, `yyyy/MM/dd`, quoted or not) is read and filters
///   the issues, to the minute as Jira's are; `ORDER BY updated` (or `updatedDate`, `created`,
///   `key`, `id`) with `ASC` or `DESC` orders them. Jira reads the time in the user's time
///   zone: here UTC. The rest of the JQL (`project = OPS`) is not read: every issue of
///   the collection matches. A time that is not one of the formats is 400 with Jira's message.
/// - Issues: `{"expand", "id": "10001", "self", "key": "OPS-1", "fields": {...}}`, with the
///   fields `summary`, `status`, `created`, `updated` (`2026-01-01T00:00:01.000+0000`) and
///   `customfield_10010` (the item's revision: each change adds one).
/// - Projects (https://developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-projects/#api-rest-api-3-project-search-get,
///   and the warning of https://developer.atlassian.com/cloud/jira/platform/rest/v3/intro/#pagination
///   that a page may hold fewer items than `maxResults` asked for): `startAt` (0) and
///   `maxResults` (50), **capped at 50 whatever is asked**; the answer is `{"self",
///   "nextPage", "maxResults": 50, "startAt", "total", "isLast", "values": [...]}`, in
///   key order.
/// - Rate limit (https://developer.atlassian.com/cloud/jira/platform/rate-limiting/): over
///   it, 429 with `Retry-After` (seconds), `X-RateLimit-Limit`, `X-RateLimit-Remaining: 0`,
///   `X-RateLimit-Reset` (an ISO 8601 time) and `RateLimit-Reason`.
/// - Token (https://developer.atlassian.com/cloud/jira/platform/basic-auth-for-rest-apis/):
///   Basic `EMAIL:API_TOKEN`, or `Authorization: Bearer` for OAuth 2.0; 401 otherwise.
enum JiraImitation: Imitation {
    static let issuesCollection = "jira-issues"
    static let projectsCollection = "jira-projects"
    static let defaultPageSize = 50
    static let maximumPageSize = 100
    static let maximumIDPageSize = 5000
    static let maximumProjectPageSize = 50
    static let allFields = ["summary", "status", "created", "updated", "customfield_10010"]

    static func collection(in path: String) -> String? {
        path == "/rest/api/3/project/search" ? projectsCollection : issuesCollection
    }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        switch (request.method, request.path) {
        case ("GET", "/rest/api/3/search/jql"): search(request, dataset: dataset, origin: origin)
        case ("GET", "/rest/api/3/project/search"): projects(request, dataset: &dataset, origin: origin)
        default: .answer(error(404, "No API found at \(request.method) \(request.path)"))
        }
    }

    // MARK: Issues

    private static func search(_ request: SeenRequest, dataset: Dataset, origin: String) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        let jql = (query["jql"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !jql.isEmpty else {
            return .answer(
                error(400, "Unbounded JQL queries are not allowed here. Please add a search restriction to your query.")
            )
        }
        var since = 0
        if let match = jql.firstMatch(
            of: #/(?i)\b(updated|updatedDate)\s*(>=|>)\s*(?:"([^"]*)"|'([^']*)'|([^\s"')]+))/#)
        {
            let text = String(match.3 ?? match.4 ?? match.5 ?? "")
            guard let date = QueryTime.date(text), text.count <= 16 else {
                return .answer(
                    error(
                        400,
                        "Date value '\(text)' for field '\(match.1)' is invalid. Valid formats include: "
                            + "'yyyy/MM/dd HH:mm', 'yyyy-MM-dd HH:mm', 'yyyy/MM/dd', 'yyyy-MM-dd', or a period format "
                            + "e.g. '-5d', '4w 2d'."))
            }
            since = QueryTime.firstStamp(after: date, inclusive: match.2 == ">=")
        }
        var issues = QueryTime.changed(in: dataset, since: since)
        if let order = jql.firstMatch(of: #/(?i)\bORDER\s+BY\s+(\w+)(?:\s+(ASC|DESC))?/#) {
            let field = order.1.lowercased()
            if field != "updated" && field != "updateddate" { issues.sort { $0.id < $1.id } }
            if order.2?.uppercased() == "DESC" { issues.reverse() }
        } else {
            issues.sort { $0.id < $1.id }
        }
        let fields = selectedFields(query["fields"])
        let idsOnly = fields.isEmpty
        let size = min(
            max(query["maxResults"].flatMap(Int.init) ?? defaultPageSize, 1),
            idsOnly ? maximumIDPageSize : maximumPageSize)
        var start = 0
        if let token = query["nextPageToken"] {
            guard let position = position(in: token, jql: jql) else {
                return .answer(error(400, "The provided next page token is invalid or expired."))
            }
            start = position
        }
        let page = issues.dropFirst(start).prefix(size)
        let isLast = start + page.count >= issues.count
        var body = ByteBuffer()
        body.writeString(#"{"issues":["#)
        body.writeString(
            page.map { issue($0.id, stamp: $0.stamp, fields: fields, dataset: dataset, origin: origin) }.joined(
                separator: ","))
        body.writeString("]")
        if !isLast { body.writeString(#","nextPageToken":"\#(token(jql: jql, position: start + page.count))""#) }
        body.writeString(#","isLast":\#(isLast)}"#)
        return .page(headers: [], body: body)
    }

    /// The fields a `fields` parameter asks for, of those an issue has.
    private static func selectedFields(_ parameter: String?) -> [String] {
        let names = (parameter ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if names.contains("*all") || names.contains("*navigable") { return allFields }
        return allFields.filter { names.contains($0) }
    }

    /// Issue `id` as the search answers it, with `fields`.
    static func issue(_ id: Int, stamp: Int, fields: [String], dataset: Dataset, origin: String) -> String {
        let values: [String: String] = [
            "summary": Routes.quote("Item \(id)"),
            "status": #"{"name":"\#(id % 3 == 0 ? "Done" : "To Do")"}"#,
            "created": Routes.quote(QueryTime.jira(0)),
            "updated": Routes.quote(QueryTime.jira(stamp)),
            "customfield_10010": "\(dataset.revision(of: id))",
        ]
        let members = fields.map { "\(Routes.quote($0)):\(values[$0]!)" }.joined(separator: ",")
        return #"{"expand":"operations,versionedRepresentations,editmeta,changelog,renderedFields","#
            + #""id":"\#(10000 + id)","self":"\#(origin)/rest/api/3/issue/\#(10000 + id)","key":"OPS-\#(id)","#
            + #""fields":{\#(members)}}"#
    }

    private static func token(jql: String, position: Int) -> String {
        base64("\(fingerprint(jql)):\(position)", urlSafe: true, padded: false)
    }

    private static func position(in token: String, jql: String) -> Int? {
        guard let text = unbase64(token), let colon = text.firstIndex(of: ":"),
            text[..<colon] == fingerprint(jql)
        else { return nil }
        return Int(text[text.index(after: colon)...])
    }

    /// A 64-bit FNV-1a hash of the JQL, in hexadecimal: which query a token belongs to.
    private static func fingerprint(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }

    // MARK: Projects

    private static func projects(_ request: SeenRequest, dataset: inout Dataset, origin: String) -> Routes.Reply {
        let query = Routes.parameters(request.query)
        let startAt = max(query["startAt"].flatMap(Int.init) ?? 0, 0)
        let size = min(max(query["maxResults"].flatMap(Int.init) ?? defaultPageSize, 1), maximumProjectPageSize)
        let ids = dataset.ids(offset: startAt, limit: size)
        let total = dataset.liveCount
        let isLast = startAt + ids.count >= total
        let link = "\(origin)/rest/api/3/project/search?maxResults=\(size)&startAt="
        var body = ByteBuffer()
        body.writeString(#"{"self":"\#(link)\#(startAt)","#)
        if !isLast { body.writeString(#""nextPage":"\#(link)\#(startAt + ids.count)","#) }
        body.writeString(
            #""maxResults":\#(size),"startAt":\#(startAt),"total":\#(total),"isLast":\#(isLast),"values":["#)
        body.writeString(ids.map { project($0, origin: origin) }.joined(separator: ","))
        body.writeString("]}")
        return .page(headers: [], body: body)
    }

    /// Project `id` as the project search answers it.
    static func project(_ id: Int, origin: String) -> String {
        let key = "P" + String(repeating: "0", count: max(0, 4 - String(id).count)) + String(id)
        return #"{"expand":"description,lead,issueTypes,url,projectKeys,permissions,insight","#
            + #""self":"\#(origin)/rest/api/3/project/\#(10000 + id)","id":"\#(10000 + id)","key":"\#(key)","#
            + #""name":"Project \#(id)","avatarUrls":{"48x48":"\#(origin)/rest/api/3/universal_avatar/view/type/project/avatar/10400"},"#
            + #""projectTypeKey":"software","simplified":false,"style":"classic","isPrivate":false,"properties":{}}"#
    }

    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        if collection == projectsCollection {
            return Dictionary(uniqueKeysWithValues: ids.map { ("\(10000 + $0)", project($0, origin: origin)) })
        }
        return Dictionary(
            uniqueKeysWithValues: ids.map {
                (
                    "\(10000 + $0)",
                    issue($0, stamp: dataset.stamp(of: $0)!, fields: allFields, dataset: dataset, origin: origin)
                )
            })
    }

    // MARK: Limits and tokens

    static let refusalStatus = 429

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        let reset = Date(timeIntervalSince1970: quota.resetAt.timeIntervalSince1970.rounded(.up))
        return error(
            refusalStatus, "Rate limit exceeded.",
            headers: [
                ("Retry-After", "\(quota.waitSeconds)"), ("X-RateLimit-Limit", "\(quota.limit)"),
                ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", ISO8601DateFormatter().string(from: reset)),
                ("RateLimit-Reason", "jira-quota-tenant-based"),
            ])
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? {
        afterRetryAfterSeconds(quota, answeredAt: answeredAt)
    }

    static func presentedToken(_ request: SeenRequest) -> String? {
        bearerOrBasicPassword(request)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(401, "You are not authenticated. Authentication required to perform this operation.")
    }

    /// Jira's error body: `{"errorMessages": [message], "errors": {}}`.
    private static func error(
        _ status: Int, _ message: String, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(status: status, #"{"errorMessages":[\#(Routes.quote(message))],"errors":{}}"#, headers: headers)
    }
}
