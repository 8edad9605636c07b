import Foundation
import Testing

@testable import SyncCore

/// The fingerprints that decide which stored validators, pages and cursors
/// belong to which request (docs/schema.md#fingerprints). They are pinned
/// here as the agent of 0.1.0 wrote them: a change of one of these strings
/// drops, on upgrade, every validator and cursor of the resources it covers.
@Suite struct FingerprintTests {
    /// One configured resource, the text its pagination is fingerprinted
    /// as, and the fingerprint of its first request.
    struct Golden: Sendable, CustomTestStringConvertible {
        var resource: String
        var pagination: String
        var fingerprint: String
        var testDescription: String { resource }
    }

    static let goldens: [Golden] = [
        Golden(
            resource: #""url": "https://api.example.com/v1/items", "pagination": {"style": "none"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.none, placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "b0de9df57c5ac728"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "query": {"status": "active", "q": "a b&c", "n": 5, "on": true}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.none, placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "4777a020a78ecdc6"),
        Golden(
            resource: #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 100}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 100, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "a4ec536fe8c49793"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "param": "p", "sizeParam": "limit", "size": 25, "start": 0, "hasMore": "/meta/has_more"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "p", sizeParam: "limit", size: 25, start: 0), placement: SyncCore.Pagination.Placement.query, hasMore: Optional(/meta/has_more), stopWhen: nil)"#,
            fingerprint: "42255b553f4dfa50"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/search", "method": "POST", "body": {"filter": {"kind": "open"}, "page_size": 50}, "pagination": {"style": "page", "param": "/page", "sizeParam": "/page_size", "size": 50, "in": "body"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "/page", sizeParam: "/page_size", size: 50, start: 1), placement: SyncCore.Pagination.Placement.body, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "cd7d776cd8791f88"),
        Golden(
            resource: #""url": "https://api.example.com/v1/items", "pagination": {"style": "offset", "limit": 200}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.offset(param: "offset", limitParam: "limit", limit: 200), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "e514248b8181c4a9"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "offset", "param": "start", "limitParam": "count", "limit": 10, "total": "/total", "cap": 1000}, "mode": "incremental", "since": {"field": "/updated_at", "param": "since"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.offset(param: "start", limitParam: "count", limit: 10), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "296e19f3e4b90abf"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "offset", "limit": 10, "total": {"header": "X-Total-Count"}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.offset(param: "offset", limitParam: "limit", limit: 10), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "286afd19959d1e5d"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "cursor", "next": "/meta/next_cursor"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.cursor(from: SyncCore.Pagination.CursorSource.body(/meta/next_cursor), param: "cursor"), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "24beb91df6d0abb1"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "cursor", "cursorFromLastItem": "/id", "param": "starting_after", "hasMore": "/has_more"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.cursor(from: SyncCore.Pagination.CursorSource.lastItem(/id), param: "starting_after"), placement: SyncCore.Pagination.Placement.query, hasMore: Optional(/has_more), stopWhen: nil)"#,
            fingerprint: "a943d1ad06947c21"),
        Golden(
            resource:
                #""url": "https://api.notion.com/v1/databases/x/query", "method": "POST", "body": {"page_size": 100}, "pagination": {"style": "cursor", "next": "/next_cursor", "param": "/start_cursor", "in": "body", "hasMore": "/has_more"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.cursor(from: SyncCore.Pagination.CursorSource.body(/next_cursor), param: "/start_cursor"), placement: SyncCore.Pagination.Placement.body, hasMore: Optional(/has_more), stopWhen: nil)"#,
            fingerprint: "1bf959ec3dfd0435"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "headers": {"Authorization": "Bearer ${API_TOKEN}", "Accept": "application/json"}, "pagination": {"style": "link"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.link, placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "75124536fa88032f"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "nextUrl", "next": "/next_page", "stopWhen": {"pointer": "/end_of_stream", "equals": true}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.nextURL(next: /next_page), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/end_of_stream), equals: Optional(SyncCore.JSONValue.bool(true)))))"#,
            fingerprint: "127606fc7326750d"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "cursor", "next": "/n", "stopWhen": {"pointer": "/done"}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.cursor(from: SyncCore.Pagination.CursorSource.body(/n), param: "cursor"), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/done), equals: nil)))"#,
            fingerprint: "e3a99f091f7b0374"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "stopWhen": {"pointer": "/left", "equals": 0}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/left), equals: Optional(SyncCore.JSONValue.number("0")))))"#,
            fingerprint: "ad68a22b009146ca"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "stopWhen": {"pointer": "/state", "equals": "d\"o\\ne \u2713\n\t'"}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/state), equals: Optional(SyncCore.JSONValue.string("d\"o\\ne ✓\n\t\'")))))"#,
            fingerprint: "f3f17018709f568e"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "stopWhen": {"pointer": "/x", "equals": null}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/x), equals: nil)))"#,
            fingerprint: "dea6dee6f858d7a8"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "stopWhen": {"pointer": "/x", "equals": [1, "a", [true, false], {}, []]}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/x), equals: Optional(SyncCore.JSONValue.array([SyncCore.JSONValue.number("1"), SyncCore.JSONValue.string("a"), SyncCore.JSONValue.array([SyncCore.JSONValue.bool(true), SyncCore.JSONValue.bool(false)]), SyncCore.JSONValue.object([]), SyncCore.JSONValue.array([])])))))"#,
            fingerprint: "d00e278adc4f4b75"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "stopWhen": {"pointer": "/x", "equals": {"a": 1.50e3, "b": {"c": null, "d": -0.5}}}}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/x), equals: Optional(SyncCore.JSONValue.object([SyncCore.JSONValue.Member(name: "a", value: SyncCore.JSONValue.number("1.50e3")), SyncCore.JSONValue.Member(name: "b", value: SyncCore.JSONValue.object([SyncCore.JSONValue.Member(name: "c", value: SyncCore.JSONValue.null), SyncCore.JSONValue.Member(name: "d", value: SyncCore.JSONValue.number("-0.5"))]))])))))"#,
            fingerprint: "9c27d97389361388"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "param": "pa'ge\"\\\u0001\u007f\u0000\r", "sizeParam": "gr\u00f6\u00dfe \ud83d\ude00"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "pa\'ge\"\\\u{01}\u{7F}\0\r", sizeParam: "größe 😀", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "f3e5ae25ea8ec654"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "pagination": {"style": "page", "size": 10, "param": "\u0301x\u0301", "sizeParam": "\u200d"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "\u{0301}x́", sizeParam: "\u{200D}", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "3ed9e5a19e62b4aa"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "items": "/data/items", "key": "/attributes/id", "pagination": {"style": "page", "size": 10, "hasMore": "/a~1b~0c"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 10, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: Optional(/a~1b~0c), stopWhen: nil)"#,
            fingerprint: "d24e6e947bffeb81"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"}, "pagination": {"style": "page", "size": 100}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 100, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "a4ec536fe8c49793"),
        Golden(
            resource:
                #""url": "https://example.zendesk.com/api/v2/incremental/tickets.json", "items": "/tickets", "pagination": {"style": "nextUrl", "next": "/next_page", "stopWhen": {"pointer": "/end_of_stream", "equals": true}}, "mode": "incremental", "since": {"fromBody": "/end_time", "param": "start_time", "format": "unixSeconds", "initial": "2024-01-01T00:00:00Z"}, "deleted": {"pointer": "/status", "equals": "deleted"}, "fullResyncEvery": "24h""#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.nextURL(next: /next_page), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: Optional(SyncCore.ResponseMatch(status: nil, bodyContains: nil, pointer: Optional(/end_of_stream), equals: Optional(SyncCore.JSONValue.bool(true)))))"#,
            fingerprint: "ef1e06328a0991fb"),
        Golden(
            resource:
                #""url": "https://couch.example.com/db/_changes", "items": "/results", "mode": "incremental", "since": {"token": "/last_seq", "param": "since"}, "pagination": {"style": "cursor", "next": "/last_seq", "param": "since"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.cursor(from: SyncCore.Pagination.CursorSource.body(/last_seq), param: "since"), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "ddfaea9ea8e9c83f"),
        Golden(
            resource:
                #""url": "https://graph.example.com/v1.0/users/delta", "items": "/value", "mode": "incremental", "since": {"link": "/@odata.deltaLink"}, "pagination": {"style": "nextUrl", "next": "/@odata.nextLink"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.nextURL(next: /@odata.nextLink), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "17ccad1d371d6220"),
        Golden(
            resource:
                #""url": "https://api.hubapi.example/crm/v3/objects/deals/search", "method": "POST", "body": {"filterGroups": [{"filters": [{"propertyName": "hs_lastmodifieddate", "value": "0"}]}]}, "mode": "incremental", "since": {"field": "/updated_at", "bodyField": "/filterGroups/0/filters/0/value", "format": "unixMilliseconds"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.none, placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "2904372b986be041"),
        Golden(
            resource:
                #""url": "https://jira.example.com/rest/api/2/search", "query": {"jql": "project = OPS AND updated >= \"{since:yyyy-MM-dd HH:mm}\" ORDER BY updated ASC"}, "items": "/issues", "mode": "incremental", "since": {"field": "/fields/updated"}, "pagination": {"style": "offset", "param": "startAt", "limitParam": "maxResults", "limit": 50, "total": "/total"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.offset(param: "startAt", limitParam: "maxResults", limit: 50), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "86e102d1048fb6a0"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/users/{me:/id}/groups/{me:/group}/members", "pagination": {"style": "page", "size": 20}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.page(param: "page", sizeParam: "per_page", size: 20, start: 1), placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "66f2317a4eb5d870"),
        Golden(
            resource:
                #""url": "https://api.example.com/${TENANT}/items?token=${API_TOKEN}", "headers": {"X-Api-Key": "${API_TOKEN}"}, "body": {"tenant": "${TENANT}"}, "method": "POST""#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.none, placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "c2518a5f4e8c87a7"),
        Golden(
            resource:
                #""url": "https://api.example.com/v1/items", "mode": "incremental", "since": {"token": "/sync_token", "param": "sync_token", "initial": "start-${TENANT}"}, "headers": {"Authorization": "Bearer ${API_TOKEN}"}"#,
            pagination:
                #"Pagination(style: SyncCore.Pagination.Style.none, placement: SyncCore.Pagination.Placement.query, hasMore: nil, stopWhen: nil)"#,
            fingerprint: "d5746a02dbffb7bb"),
    ]

    /// The resource `golden` configures, with the environment's secret filled in.
    static func config(_ golden: Golden) throws -> AgentConfig {
        try decodeConfig(
            #"{"resources": [{"name": "r", "# + (golden.resource.contains(#""key":"#) ? "" : #""key": "/id", "#)
                + golden.resource
                + #"}, {"name": "me", "url": "https://api.example.com/v1/me", "key": "/id"}]}"#,
            environment: ["API_TOKEN": "s3cr3t-t0ken-value", "TENANT": "acme-tenant-42"])
    }

    @Test(arguments: goldens) func fingerprintsAreTheTextsOfRelease010(_ golden: Golden) throws {
        let config = try Self.config(golden)
        let resource = try #require(config.resources.first)
        #expect(resource.paginationText == golden.pagination)
        let values = Dictionary(
            uniqueKeysWithValues: resource.url.dependencies.map { ($0, "v-\($0.resource)") })
        #expect(
            ResourceFetch.fingerprint(of: resource, dependencyValues: values, redactor: config.redactor)
                == golden.fingerprint)
    }

    /// What a kept token or link adds (a kept time adds nothing).
    @Test func keptValuesAreNamedByWhereTheyComeFrom() throws {
        #expect(FingerprintText.kept(.token(try JSONPointer("/last_seq"))) == "token(/last_seq)")
        #expect(FingerprintText.kept(.link(try JSONPointer("/@odata.deltaLink"))) == "link(/@odata.deltaLink)")
        #expect(FingerprintText.kept(.field(try JSONPointer("/updated_at"))) == nil)
        #expect(FingerprintText.kept(.body(try JSONPointer("/end_time"))) == nil)
    }

    /// Texts as Swift's string literals wrote them, also where a scalar would
    /// join the quote before or after it.
    @Test(arguments: [
        ("", #""""#), ("a b", #""a b""#), ("\u{301}", #""\u{0301}""#), ("a\u{301}", "\"a\u{301}\""),
        ("\n\u{301}", #""\n\u{0301}""#), ("\u{1F3FB}", #""\u{0001F3FB}""#), ("a\u{600}", #""a\u{0600}""#),
        ("x\u{600}\u{600}", #""x\u{0600}\u{0600}""#), ("\u{600}x", "\"\u{600}x\""),
        ("\u{85}\u{a0}", "\"\u{85}\u{a0}\""),
        ("\u{1F}\u{7F}\u{0}", #""\u{1F}\u{7F}\0""#), ("it's \"so\" \\", #""it\'s \"so\" \\""#),
    ])
    func quotedLikeASwiftLiteral(_ text: String, _ quoted: String) {
        #expect(FingerprintText.quoted(text) == quoted)
    }
}
