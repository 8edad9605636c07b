import DemoUpstream
import Foundation
import NIOCore

/// Salesforce's REST query: `GET /salesforce/NAME/query` (any `q` is accepted), then
/// `GET /salesforce/NAME/query/LOCATOR-OFFSET` as `nextRecordsUrl` says (where Salesforce
/// has `/services/data/vXX.X/query?q=…` and `/services/data/vXX.X/query/LOCATOR-2000`).
///
/// - Query (https://developer.salesforce.com/docs/platform/api-rest/guide/resources-query.html,
///   https://developer.salesforce.com/docs/platform/api-rest/guide/resources-query-more-results.html):
///   `{"totalSize", "done", "nextRecordsUrl", "records": [...]}`, where `nextRecordsUrl` is
///   a relative path (to this upstream's origin) and is left out when `done` is true.
///   Records are the items as they are, without Salesforce's `attributes`.
/// - Batch size (https://developer.salesforce.com/docs/platform/api-rest/guide/headers-queryoptions.html):
///   `Sforce-Query-Options: batchSize=N` on the first request, 2,000 by default and at
///   most. Salesforce's minimum is 200; here any size from 1 is kept, so that tests stay
///   small. The locator remembers the batch size, as Salesforce's query cursor does.
/// - Errors (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/errorcodes.htm):
///   `[{"message", "errorCode"}]`: 400 `INVALID_QUERY_LOCATOR`, 404 `NOT_FOUND`, 401
///   `INVALID_SESSION_ID` when a token is required (`Authorization: Bearer`) and missing
///   or wrong.
/// - Rate limit (https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/headers_api_usage.htm):
///   when a limit is set, `Sforce-Limit-Info: api-usage=USED/LIMIT` on every answer; over
///   it, 403 `REQUEST_LIMIT_EXCEEDED`, which tells no wait.
enum SalesforceImitation: Imitation {
    static let maximumBatchSize = 2000
    /// Locators start so, like Salesforce's (`01gRO0000016PIAYA2`), then hold the batch size.
    private static let locatorPrefix = "01gB"

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        let parts = request.path.split(separator: "/")
        guard parts.count == 3 || parts.count == 4, parts[2] == "query" else {
            return .answer(error(404, "NOT_FOUND", "The requested resource does not exist"))
        }
        var batchSize = maximumBatchSize
        var offset = 0
        if parts.count == 4 {
            guard let (size, start) = decode(parts[3]) else {
                return .answer(error(400, "INVALID_QUERY_LOCATOR", "invalid query locator"))
            }
            (batchSize, offset) = (size, start)
        } else if let options = request.headers["sforce-query-options"] {
            for option in options.split(separator: ",") {
                let pair = option.split(separator: "=").map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2, pair[0] == "batchSize", let size = Int(pair[1]), size >= 1 {
                    batchSize = min(size, maximumBatchSize)
                }
            }
        }
        let total = dataset.liveCount
        let ids = dataset.ids(offset: offset, limit: batchSize)
        let done = offset + ids.count >= total
        var prefix = #"{"totalSize":\#(total),"done":\#(done),"#
        if !done {
            let locator = locatorPrefix + String(format: "%05d", batchSize) + "0000AYA2"
            prefix += #""nextRecordsUrl":"/salesforce/\#(name)/query/\#(locator)-\#(offset + ids.count)","#
        }
        return .page(headers: [], body: body(prefix + #""records":"#, ids, of: dataset, "}"))
    }

    static func quotaHeaders(_ quota: RateLimitDecision) -> [(String, String)] {
        [("Sforce-Limit-Info", "api-usage=\(quota.used)/\(quota.limit)")]
    }

    static let refusalStatus = 403

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        error(refusalStatus, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.", headers: quotaHeaders(quota))
    }

    /// Salesforce tells no wait.
    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        error(401, "INVALID_SESSION_ID", "Session expired or invalid")
    }

    /// The batch size and offset of `LOCATOR-OFFSET`.
    private static func decode(_ text: Substring) -> (Int, Int)? {
        let pieces = text.split(separator: "-")
        guard pieces.count == 2, pieces[0].hasPrefix(locatorPrefix), let offset = Int(pieces[1]), offset >= 0,
            let size = Int(pieces[0].dropFirst(locatorPrefix.count).prefix(5)), size >= 1
        else { return nil }
        return (min(size, maximumBatchSize), offset)
    }

    private static func error(
        _ status: Int, _ code: String, _ message: String, headers: [(String, String)] = []
    ) -> ResponsePlan.Outcome {
        Routes.json(
            status: status, #"[{"message":\#(Routes.quote(message)),"errorCode":"\#(code)"}]"#, headers: headers)
    }
}
