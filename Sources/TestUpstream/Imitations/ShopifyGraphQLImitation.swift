import DemoUpstream
import Foundation
import NIOCore

/// Shopify's GraphQL Admin API: `POST /admin/api/VERSION/graphql.json` with `{"query",
/// "variables"}`, answering the `orders` connection over the collection `shopify-orders`.
///
/// - Query (https://shopify.dev/docs/api/admin-graphql/latest/queries/orders): the
///   arguments of `orders(…)` in the query text are read, each a literal or a `$variable`
///   taken from `variables`: `first` (required, at most 250), `after` (a cursor),
///   `query` (the search string), `sortKey` (`UPDATED_AT`, else by id) and `reverse`. The
///   selection is not read: each node is `{"id": "gid://shopify/Order/…", "name",
///   "createdAt", "updatedAt", "displayFinancialStatus", "note"}` (`note` tells the
///   item's revision after a change), and the connection answers `edges` (`{"cursor",
///   "node"}`) when the query names them, `nodes` when it names those.
/// - Search syntax (https://shopify.dev/docs/api/usage/search-syntax): the terms
///   `updated_at:>'TIME'` and `updated_at:>=TIME` (quoted or not; an ISO 8601 time or a
///   date) filter by update time; other terms are not read. Shopify ignores a term it
///   cannot read; here it is an error, so that a test sees a filter written wrong.
/// - Pagination (https://shopify.dev/docs/api/usage/pagination-graphql): `pageInfo` is
///   `{"hasNextPage", "hasPreviousPage", "startCursor", "endCursor"}`; a cursor is base64
///   of `{"last_id", "last_value"}`, like Shopify's, and the next page starts after the
///   item it names in the sort order (so a change between pages skips nothing that was
///   there).
/// - Cost and rate limit (https://shopify.dev/docs/api/usage/limits#graphql-admin-api-rate-limits):
///   each answer has `extensions.cost` (`requestedQueryCost`: `first` + 2,
///   `actualQueryCost`, `throttleStatus` of a bucket of 2,000 restoring 100 a second).
///   Over the limit set with ``TestUpstream/setRateLimit(_:for:)`` (a bucket of requests,
///   told in points: one request costs its requested cost), the answer is a **200** with
///   `{"errors": [{"message": "Throttled", "extensions": {"code": "THROTTLED", …}}],
///   "extensions": {"cost": …}}` and no `Retry-After`.
/// - Errors: a body that is not JSON with a `query` string is 400 `{"errors": {"query":
///   "Required parameter missing or invalid"}}`; a query this imitation cannot answer is
///   a 200 with `errors`, as GraphQL answers.
/// - Token: `X-Shopify-Access-Token`, as the REST Admin API (``ShopifyImitation``).
enum ShopifyGraphQLImitation: Imitation {
    static let ordersCollection = "shopify-orders"
    static let maximumPageSize = 250

    static func collection(in path: String) -> String? { ordersCollection }

    /// The arguments of the `orders` connection, resolved.
    struct Arguments {
        var first: Int
        var after: String?
        var search: String
        var byUpdate: Bool
        var reverse: Bool
        var edges: Bool
        var nodes: Bool
    }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let parts = request.path.split(separator: "/")
        guard request.method == "POST", parts.count == 4, parts[2].wholeMatch(of: #/\d{4}-\d{2}|unstable/#) != nil
        else {
            return .answer(Routes.json(status: 404, #"{"errors":"Not Found"}"#))
        }
        let arguments: Arguments
        switch parse(request.body) {
        case .failure(let failure):
            return .answer(failure.outcome)
        case .success(let parsed):
            arguments = parsed
        }
        // The search string: `updated_at:` terms, with `>` or `>=`.
        var since = 0
        for match in arguments.search.matches(of: #/updated_at:(>=|>)?(?:'([^']*)'|"([^"]*)"|(\S+))/#) {
            let text = String(match.2 ?? match.3 ?? match.4 ?? "")
            guard let date = QueryTime.date(text) else {
                return .answer(graphQLError("Invalid search field value for updated_at: \(text)"))
            }
            since = max(since, QueryTime.firstStamp(after: date, inclusive: match.1 != ">"))
        }
        var orders = QueryTime.changed(in: dataset, since: since).map { (id: $0.id, stamp: $0.stamp) }
        func key(_ order: (id: Int, stamp: Int)) -> (Int, Int) {
            arguments.byUpdate ? (order.stamp, order.id) : (order.id, order.id)
        }
        orders.sort { key($0) < key($1) }
        if arguments.reverse { orders.reverse() }
        var start = 0
        if let after = arguments.after {
            guard let position = position(after) else {
                return .answer(graphQLError("Invalid cursor for current pagination sort."))
            }
            let mark = (position.value, position.id)
            start = orders.firstIndex { arguments.reverse ? key($0) < mark : key($0) > mark } ?? orders.count
        }
        let page = Array(orders.dropFirst(start).prefix(arguments.first))
        let hasNext = start + page.count < orders.count
        let cursors = page.map { cursor(id: $0.id, value: arguments.byUpdate ? $0.stamp : $0.id) }
        var connection: [String] = []
        if arguments.edges {
            let edges = zip(page, cursors).map {
                #"{"cursor":"\#($1)","node":\#(order($0.id, stamp: $0.stamp, dataset: dataset))}"#
            }
            connection.append(#""edges":[\#(edges.joined(separator: ","))]"#)
        }
        if arguments.nodes {
            connection.append(
                #""nodes":[\#(page.map { order($0.id, stamp: $0.stamp, dataset: dataset) }.joined(separator: ","))]"#)
        }
        let pageInfo =
            #"{"hasNextPage":\#(hasNext),"hasPreviousPage":\#(start > 0),"#
            + #""startCursor":\#(cursors.first.map { "\"\($0)\"" } ?? "null"),"#
            + #""endCursor":\#(cursors.last.map { "\"\($0)\"" } ?? "null")}"#
        connection.append(#""pageInfo":\#(pageInfo)"#)
        let requested = arguments.first + 2
        let actual = page.count + 2
        let body =
            #"{"data":{"orders":{\#(connection.joined(separator: ","))}},"extensions":{"cost":{"#
            + #""requestedQueryCost":\#(requested),"actualQueryCost":\#(actual),"#
            + #""throttleStatus":{"maximumAvailable":2000.0,"currentlyAvailable":\#(2000 - actual),"restoreRate":100.0}}}}"#
        return .page(headers: [], body: ByteBuffer(string: body))
    }

    /// Why a request cannot be answered: a status and Shopify's body.
    struct Failure: Error {
        var outcome: ResponsePlan.Outcome
    }

    /// The `orders` arguments of a request body.
    static func parse(_ body: String) -> Result<Arguments, Failure> {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any],
            let query = object["query"] as? String
        else {
            return .failure(
                Failure(
                    outcome: Routes.json(status: 400, #"{"errors":{"query":"Required parameter missing or invalid"}}"#))
            )
        }
        let variables = object["variables"] as? [String: Any] ?? [:]
        guard let call = query.firstMatch(of: #/\borders\s*\(([^)]*)\)/#) else {
            return .failure(
                Failure(outcome: graphQLError("This imitation of Shopify answers the orders connection only.")))
        }
        let text = String(call.1)
        /// The value of argument `name`: a literal, or the variable it names (`nil`: absent or null).
        func argument(_ name: String) -> Any? {
            guard let match = text.firstMatch(of: try! Regex(#"\b\#(name)\s*:\s*(\$\w+|"(?:[^"\\]|\\.)*"|[\w.]+)"#))
            else { return nil }
            let raw = String(match.output[1].substring!)
            if raw.hasPrefix("$") { return variables[String(raw.dropFirst())].flatMap { $0 is NSNull ? nil : $0 } }
            if raw.hasPrefix("\"") {
                return (try? JSONSerialization.jsonObject(with: Data(raw.utf8), options: .fragmentsAllowed)) as? String
            }
            return raw == "null" ? nil : raw
        }
        guard let firstValue = argument("first") else {
            return .failure(Failure(outcome: graphQLError("you must provide one of first or last")))
        }
        guard let first = (firstValue as? Int) ?? Int("\(firstValue)"), (1...maximumPageSize).contains(first) else {
            return .failure(
                Failure(outcome: graphQLError("The first argument must be between 1 and \(maximumPageSize).")))
        }
        let reverse = argument("reverse").map { "\($0)" == "true" || "\($0)" == "1" } ?? false
        return .success(
            Arguments(
                first: first, after: argument("after").map { "\($0)" }, search: argument("query").map { "\($0)" } ?? "",
                byUpdate: argument("sortKey").map { "\($0)" } == "UPDATED_AT", reverse: reverse,
                edges: query.contains("edges") || !query.contains("nodes"), nodes: query.contains("nodes")))
    }

    /// Order `id` as a node.
    static func order(_ id: Int, stamp: Int, dataset: Dataset) -> String {
        let revision = dataset.revision(of: id)
        return ##"{"id":"gid://shopify/Order/\##(5_100_000_000 + id)","name":"#\##(1000 + id)","##
            + #""createdAt":"\#(Dataset.time(0))","updatedAt":"\#(Dataset.time(stamp))","#
            + #""displayFinancialStatus":"\#(id % 4 == 0 ? "REFUNDED" : "PAID")","#
            + #""note":\#(revision == 1 ? "null" : "\"revision \(revision)\"")}"#
    }

    /// A cursor: base64 of `{"last_id", "last_value"}`.
    static func cursor(id: Int, value: Int) -> String {
        base64(#"{"last_id":\#(5_100_000_000 + id),"last_value":"\#(value)"}"#)
    }

    private static func position(_ cursor: String) -> (id: Int, value: Int)? {
        guard let text = unbase64(cursor),
            let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
            let id = object["last_id"] as? Int, let value = (object["last_value"] as? String).flatMap({ Int($0) })
        else { return nil }
        return (id - 5_100_000_000, value)
    }

    /// The edges of a complete copy sorted by `UPDATED_AT`, by node id.
    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        return Dictionary(
            uniqueKeysWithValues: ids.map { id in
                let stamp = dataset.stamp(of: id)!
                return (
                    "gid://shopify/Order/\(5_100_000_000 + id)",
                    #"{"cursor":"\#(cursor(id: id, value: stamp))","node":\#(order(id, stamp: stamp, dataset: dataset))}"#
                )
            })
    }

    /// A GraphQL error in a 200: `{"errors": [{"message"}]}`.
    static func graphQLError(_ message: String) -> ResponsePlan.Outcome {
        Routes.json(
            status: 200, #"{"errors":[{"message":\#(Routes.quote(message)),"locations":[{"line":1,"column":1}]}]}"#)
    }

    // MARK: Limits and tokens

    static let refusalStatus = 200

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        let cost = (try? parse(request.body).get()).map { $0.first + 2 } ?? 52
        let restoreRate = Double(cost) / max(quota.wait, 0.001)
        return Routes.json(
            status: refusalStatus,
            #"{"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED","#
                + #""documentation":"https://shopify.dev/api/usage/rate-limits"}}],"#
                + #""extensions":{"cost":{"requestedQueryCost":\#(cost),"actualQueryCost":null,"#
                + #""throttleStatus":{"maximumAvailable":\#(Double(quota.limit * cost)),"#
                + #""currentlyAvailable":\#(quota.remaining * cost),"#
                + #""restoreRate":\#((restoreRate * 10).rounded() / 10)}}}}"#)
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func presentedToken(_ request: SeenRequest) -> String? {
        ShopifyImitation.presentedToken(request)
    }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        ShopifyImitation.unauthorized(presented: token)
    }
}
