import DemoUpstream
import Foundation
import NIOCore

/// Google Drive's changes: `GET /drive/v3/changes?pageToken=&pageSize=` and `GET
/// /drive/v3/changes/startPageToken`, over the collection `drive-files`.
///
/// - Changes (https://developers.google.com/drive/api/reference/rest/v3/changes/list,
///   https://developers.google.com/drive/api/guides/manage-changes): `pageToken` is
///   required: a token `startPageToken` gave (where the changes from now on begin), or a
///   page's `nextPageToken`; `"1"`, the oldest, lists every change. Each file is listed
///   once, at its latest change, oldest first. The answer is `{"kind":
///   "drive#changeList", "changes": [...], "nextPageToken": "…"}`, the last page with
///   `newStartPageToken` (where the next walk starts) instead of `nextPageToken`. A
///   change is `{"kind": "drive#change", "changeType": "file", "time", "removed":
///   false, "fileId", "file": {"kind": "drive#file", "id", "name", "mimeType",
///   "version", "modifiedTime", "trashed"}}`; a file deleted is `"removed": true`
///   without `file`. `pageSize` is 1 to 1,000, 100 by default.
/// - Tokens look like Drive's: decimal digits, opaque (here a change's stamp and id).
///   A token this feed did not give is 400 `invalid` at `location` `pageToken`;
///   without one, 400 `required`.
/// - Errors, token and rate limit: Google's (``GoogleImitation``).
enum DriveImitation: Imitation {
    static let filesCollection = "drive-files"
    static let defaultPageSize = 100
    static let maximumPageSize = 1000
    /// A token's stamp is its value divided by this; its id, the rest.
    private static let idSpan = 10_000_000

    static func collection(in path: String) -> String? { filesCollection }

    static func reply(
        to request: SeenRequest, collection name: String, dataset: inout Dataset, origin: String
    ) -> Routes.Reply {
        guard request.method == "GET" else {
            return .answer(error(405, "METHOD_NOT_ALLOWED", reason: "httpMethodNotAllowed", "Method Not Allowed"))
        }
        if request.path == "/drive/v3/changes/startPageToken" {
            let token = position(stamp: dataset.clock + 1, id: 0)
            return .page(
                headers: [],
                body: ByteBuffer(string: #"{"kind":"drive#startPageToken","startPageToken":"\#(token)"}"#))
        }
        guard request.path == "/drive/v3/changes" else {
            return .answer(error(404, "NOT_FOUND", reason: "notFound", "Not Found"))
        }
        let query = Routes.parameters(request.query)
        guard let token = query["pageToken"] else {
            return .answer(invalid("Required parameter: pageToken", reason: "required", location: "pageToken"))
        }
        guard let start = Int(token), start >= 1 else {
            return .answer(invalid("Invalid Value", reason: "invalid", location: "pageToken"))
        }
        var size = defaultPageSize
        if let text = query["pageSize"] {
            guard let value = Int(text), (1...maximumPageSize).contains(value) else {
                return .answer(invalid("Invalid Value", reason: "invalid", location: "pageSize"))
            }
            size = value
        }
        let from = (stamp: start / idSpan, id: start % idSpan)
        let rows = dataset.changes(since: from.stamp, limit: .max).filter { ($0.stamp, $0.id) >= from }
        let page = rows.prefix(size)
        var suffix: String
        if let last = page.last, rows.count > page.count {
            suffix = #"],"nextPageToken":"\#(position(stamp: last.stamp, id: last.id + 1))"}"#
        } else {
            suffix = #"],"newStartPageToken":"\#(position(stamp: dataset.clock + 1, id: 0))"}"#
        }
        let changes = page.map { change($0.id, stamp: $0.stamp, removed: $0.deleted, dataset: dataset) }
        return .page(
            headers: [],
            body: ByteBuffer(
                string: #"{"kind":"drive#changeList","changes":["# + changes.joined(separator: ",") + suffix))
    }

    /// The token of the change at `stamp` and `id`, or after it: what `pageToken` reads back.
    private static func position(stamp: Int, id: Int) -> Int {
        stamp * idSpan + id
    }

    /// A file's id, as Drive's look (`1A…`).
    static func fileID(_ id: Int) -> String {
        "1Drv" + base64("file \(id)", urlSafe: true, padded: false)
    }

    /// A change, with its file unless it was removed.
    static func change(_ id: Int, stamp: Int, removed: Bool, dataset: Dataset) -> String {
        let time = Dataset.time(stamp)
        var text =
            #"{"kind":"drive#change","changeType":"file","time":"\#(time)","removed":\#(removed),"#
            + #""fileId":"\#(fileID(id))""#
        if !removed {
            text +=
                #","file":{"kind":"drive#file","id":"\#(fileID(id))","name":"Item \#(id).json","#
                + #""mimeType":"application/json","version":"\#(dataset.revision(of: id))","#
                + #""modifiedTime":"\#(time)","trashed":false}"#
        }
        return text + "}"
    }

    /// The changes of the live files, by file id: what a copy of the changes keyed by `fileId` holds.
    static func records(collection: String, dataset: inout Dataset, origin: String) -> [String: String] {
        let ids = dataset.ids(offset: 0, limit: dataset.liveCount)
        return Dictionary(
            uniqueKeysWithValues: ids.map {
                (fileID($0), change($0, stamp: dataset.stamp(of: $0)!, removed: false, dataset: dataset))
            })
    }

    // MARK: Limits and errors: Google's

    static let refusalStatus = GoogleImitation.refusalStatus

    static func refusal(_ quota: RateLimitDecision, to request: SeenRequest) -> ResponsePlan.Outcome {
        GoogleImitation.refusal(quota, to: request)
    }

    static func allowedAt(after quota: RateLimitDecision, answeredAt: Date) -> Date? { nil }

    static func unauthorized(presented token: String?) -> ResponsePlan.Outcome {
        GoogleImitation.unauthorized(presented: token)
    }

    private static func invalid(_ message: String, reason: String, location: String) -> ResponsePlan.Outcome {
        let text = Routes.quote(message)
        return Routes.json(
            status: 400,
            #"{"error":{"code":400,"message":\#(text),"errors":[{"domain":"global","reason":"\#(reason)","#
                + #""message":\#(text),"locationType":"parameter","location":"\#(location)"}],"#
                + #""status":"INVALID_ARGUMENT"}}"#)
    }

    private static func error(
        _ code: Int, _ status: String, reason: String, _ message: String
    ) -> ResponsePlan.Outcome {
        let text = Routes.quote(message)
        return Routes.json(
            status: code,
            #"{"error":{"code":\#(code),"message":\#(text),"#
                + #""errors":[{"domain":"global","reason":"\#(reason)","message":\#(text)}],"status":"\#(status)"}}"#)
    }
}
