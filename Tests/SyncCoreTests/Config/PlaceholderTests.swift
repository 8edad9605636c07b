import Foundation
import Store
import Testing

@testable import SyncCore

/// The placeholders of docs/configuration.md#placeholders: where they go, how
/// each place encodes the value, and what `validate` says of a bad one.
@Suite struct PlaceholderTests {
    let noon = SentValue(state: .time(.at(1_790_000_000)), format: .iso8601, timeZone: .gmt)

    @Test func aTemplateSubstitutesValuesAndKeepsOtherBraces() throws {
        let jql = try TextTemplate.parse(#"project = OPS AND updated >= "{since:yyyy-MM-dd HH:mm}" ORDER BY updated"#)
        #expect(jql.render(noon) == #"project = OPS AND updated >= "2026-09-21 14:13" ORDER BY updated"#)
        // GraphQL's braces are text; {{ is a literal brace.
        let graphQL = try TextTemplate.parse("query { orders(query: $q) { id } } {{since}")
        #expect(!graphQL.hasSince)
        #expect(graphQL.render(noon) == "query { orders(query: $q) { id } } {since}")
        #expect(try TextTemplate.parse("{since:unixSeconds}").render(noon) == "1790000000")
        #expect(try TextTemplate.parse("{since:unixMilliseconds}").render(noon) == "1790000000000")
        #expect(try TextTemplate.parse("updated_at:>'{since}'").render(noon) == "updated_at:>'2026-09-21T14:13:20Z'")
        #expect(try TextTemplate.parse("{since}").render(nil) == "")
    }

    /// A pattern writes the instant kept in the proleptic Gregorian calendar, as ISO 8601
    /// does, and cuts off what it leaves out: never a later time than kept, which would
    /// skip the changes in between (found by the `sync` fuzz target).
    @Test func aPatternWritesTheYearsOneTo9999AndCutsFractionsOff() throws {
        func written(_ time: ExactTime?, _ pattern: String, in zone: String = "UTC") throws -> String {
            TimeFormat.pattern(pattern).text(try #require(time), timeZone: try #require(TimeZone(identifier: zone)))
        }
        let seconds = "yyyy-MM-dd'T'HH:mm:ss'Z'"
        #expect(try written(.earliest, seconds) == "0001-01-01T00:00:00Z")
        #expect(try written(ExactTime(iso8601: "0001-12-31T12:00:00Z"), "yyyy-MM-dd G") == "0001-12-31 AD")
        #expect(try written(ExactTime(iso8601: "1582-10-04T00:00:00Z"), "yyyy-MM-dd") == "1582-10-04")
        #expect(try written(.latest, seconds) == "9999-12-31T23:59:59Z")
        #expect(try written(ExactTime(seconds: -1, nanoseconds: 999_999_999), seconds) == "1969-12-31T23:59:59Z")
        #expect(try written(ExactTime(seconds: -1, nanoseconds: 999_999_999), "HH:mm:ss.SSS") == "23:59:59.999")
        #expect(try written(.latest, "ss.SSSSSSSSSSS") == "59.99999999900")
        #expect(try written(ExactTime(seconds: 0, nanoseconds: 5_000_000), "ss.SSS'S'S") == "00.005S0")
        let berlin = try written(
            ExactTime(iso8601: "2026-11-24T10:00:59.999Z"), "yyyy-MM-dd HH:mm", in: "Europe/Berlin")
        #expect(berlin == "2026-11-24 11:00")
    }

    @Test(arguments: [
        (
            "{sinse}",
            "unknown placeholder {sinse}: the placeholders are {since} and {since:FORMAT} (write {{ for a literal {)"
        ),
        (
            "{since:soon}",
            "{since:soon}: the format must be iso8601, unixSeconds, unixMilliseconds or a date pattern such as yyyy-MM-dd HH:mm"
        ),
        ("a {since:yyyy", "the placeholder {since… is never closed with \"}\" (write {{ for a literal {)"),
    ]) func aBadPlaceholderIsNamed(_ text: String, _ message: String) {
        #expect(throws: TextTemplate.Problem(message: message)) { try TextTemplate.parse(text) }
    }

    @Test func eachPlaceEncodesTheValueForWhereItLands() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [
              {"name": "issues", "url": "https://jira.example.com/rest/{since:yyyy}/search",
               "query": {"jql": "updated >= \"{since:yyyy-MM-dd HH:mm}\" & more"},
               "headers": {"X-Since": "{since}"}, "key": "/id",
               "mode": "incremental", "since": {"field": "/fields/updated", "timeZone": "Europe/Berlin"}},
              {"name": "orders", "url": "https://shop.example.com/graphql.json", "method": "POST", "key": "/id",
               "body": {"query": "query($q: String) { orders(query: $q) { id } }",
                        "variables": {"q": "updated_at:>'{since}' \"x\"", "after": "{since:unixSeconds}"}},
               "mode": "incremental", "since": {"field": "/updated_at"}},
              {"name": "changes", "url": "https://couch.example.com/db/_changes", "key": "/id",
               "query": {"since": "{since}", "limit": 10},
               "mode": "incremental", "since": {"token": "/last_seq"}}
            ]}
            """#)
        let issues = config.resources[0]
        let sent = issues.incremental?.value(toSend: .time(.at(1_790_000_000)))
        let plan = ResourceFetch.plan(issues, dependencyValues: [:], since: sent)
        // In Berlin's time, percent-encoded in the URL.
        #expect(
            plan.planner.first().url
                == "https://jira.example.com/rest/2026/search?jql=updated%20%3E%3D%20%222026-09-21%2016%3A13%22%20%26%20more"
        )
        #expect(plan.headers.first { $0.name == "X-Since" }?.value == "2026-09-21T14:13:20Z")

        let orders = config.resources[1]
        let body = ResourceFetch.plan(
            orders, dependencyValues: [:],
            since: orders.incremental?.value(toSend: .time(.at(1_790_000_000)))
        ).body
        // JSON-escaped inside a string; a string that is one Unix time is a number.
        #expect(
            body?.text
                == #"{"query":"query($q: String) { orders(query: $q) { id } }","variables":{"q":"updated_at:>'2026-09-21T14:13:20Z' \"x\"","after":1790000000}}"#
        )

        let changes = config.resources[2]
        // No token yet: the parameter that is only {since} is left out.
        #expect(
            ResourceFetch.plan(changes, dependencyValues: [:], since: nil).planner.first().url
                == "https://couch.example.com/db/_changes?limit=10")
        let token = changes.incremental?.value(toSend: .token("12-g1AAAA/x"))
        #expect(
            ResourceFetch.plan(changes, dependencyValues: [:], since: token).planner.first().url
                == "https://couch.example.com/db/_changes?since=12-g1AAAA%2Fx&limit=10")
    }

    @Test func onlyAnIncrementalResourcesWrittenValuesAreTemplates() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [
              {"name": "viewer", "url": "https://api.example.com/graphql", "method": "POST", "key": "/id",
               "body": {"query": "{viewer{login}}"}, "query": {"a": "x{{y"}},
              {"name": "changes", "url": "https://api.example.com/changes", "key": "/id",
               "headers": {"Authorization": "Bearer ${TOKEN}"}, "query": {"since": "{since}", "b": "{{"},
               "mode": "incremental", "since": {"token": "/seq"}}
            ]}
            """#, environment: ["TOKEN": "tok{since}{{en"])
        // A snapshot resource sends what it was given.
        let viewer = ResourceFetch.plan(config.resources[0], dependencyValues: [:], since: nil)
        #expect(viewer.body?.text == #"{"query":"{viewer{login}}"}"#)
        #expect(viewer.planner.first().url == "https://api.example.com/graphql?a=x%7B%7By")
        // A secret that a reference fills is sent as it is, braces and all.
        let changes = config.resources[1]
        let plan = ResourceFetch.plan(
            changes, dependencyValues: [:], since: changes.incremental?.value(toSend: .token("7")))
        #expect(plan.headers.first { $0.name == "Authorization" }?.value == "Bearer tok{since}{{en")
        #expect(plan.planner.first().url == "https://api.example.com/changes?since=7&b=%7B")
    }

    @Test func validateNamesWhatIsMissingOrMisplaced() {
        #expect(
            configProblems(#"{"resources": [\#(resource("a", #""query": {"q": "updated:>={since}"}"#))]}"#) == [
                #"resources[0].query.q: {since} needs "mode": "incremental" (write {{ for a literal {)"#
            ])
        #expect(
            configProblems(
                #"{"resources": [\#(resource("a", #""query": {"q": "{sinse}"}, "mode": "incremental", "since": {"field": "/u", "param": "s"}"#))]}"#
            ) == [
                "resources[0].query.q: unknown placeholder {sinse}: the placeholders are {since} and {since:FORMAT} (write {{ for a literal {)"
            ])
        #expect(
            configProblems(
                #"{"resources": [\#(resource("a", #""mode": "incremental", "since": {"field": "/u"}"#))]}"#) == [
                    "resources[0].since.param: or bodyField is required, or a {since} placeholder in the url, query, headers or body: where the value is sent"
                ])
        #expect(
            configProblems(
                #"{"resources": [\#(resource("a", #""query": {"s": "{since:unixSeconds}"}, "mode": "incremental", "since": {"token": "/seq"}"#))]}"#
            ) == [
                "resources[0].query.s: {since:FORMAT} formats a time, but a token is sent as it is: write {since}"
            ])
        #expect(
            configProblems(
                #"{"resources": [\#(resource("a", #""mode": "incremental", "since": {"link": "/@odata.deltaLink", "param": "x", "initial": "y"}"#))]}"#
            ) == [
                "resources[0].since.param: is not for a link: the next sync starts at it",
                "resources[0].since.initial: is not for a link: the first sync asks for the resource's url",
            ])
        #expect(
            configProblems(
                #"{"resources": [\#(resource("a", #""pagination": {"style": "cursor", "next": "/n"}, "mode": "incremental", "since": {"link": "/delta"}"#))]}"#
            ) == [
                #"resources[0].since.link: needs pagination by "nextUrl" or "link" (or none): the pages after the kept URL are the ones it leads to"#
            ])
        #expect(
            configProblems(#"{"resources": [\#(resource("a", #""pagination": {"style": "link", "cap": 1000}"#))]}"#)
                == [
                    #"resources[0].pagination.cap: needs "mode": "incremental" and since.field, with the request sorted by that field: the walk asks again from the largest value seen"#
                ])
        #expect(
            configProblems(
                #"{"resources": [\#(resource("a", #""pagination": {"style": "offset", "limit": 50, "total": {"head": "X"}}"#))]}"#
            ).contains(
                #"resources[0].pagination.total: must be a JSON pointer ("/total") or {"header": "X-Total-Count"}"#))
    }
}
