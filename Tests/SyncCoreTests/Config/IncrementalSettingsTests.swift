import Foundation
import Store
import StreamsTesting
import Testing

@testable import SyncCore

/// How an incremental resource writes the value it sends and reads the
/// values the API gives (docs/configuration.md#incremental-resources).
@Suite struct IncrementalSettingsTests {
    typealias Format = IncrementalSettings.Format

    @Test func eachFormatWritesTheValueLessTheLookback() {
        var settings = IncrementalSettings(
            source: .field(JSONPointer(tokens: ["updated_at"])), placement: .query("updated_since"), format: .iso8601,
            lookback: .seconds(90))
        let since = SinceState.time(.at(1_790_000_000, nanoseconds: 250_000_000))
        #expect(settings.value(toSend: nil)?.text() == "1970-01-01T00:00:00Z")
        #expect(settings.value(toSend: since)?.text() == "2026-09-21T14:11:50.250Z")
        settings.format = .unixSeconds
        #expect(settings.value(toSend: since)?.text() == "1789999910")
        settings.format = .unixMilliseconds
        #expect(settings.value(toSend: since)?.text() == "1789999910250")
        // A pattern writes the time in since.timeZone.
        settings.timeZone = TimeZone(identifier: "Europe/Berlin")!
        #expect(settings.value(toSend: since)?.text(.pattern("yyyy-MM-dd HH:mm")) == "2026-09-21 16:11")
        // A token is sent as it is, with no lookback; a link is not sent at all.
        let token = IncrementalSettings(source: .token(JSONPointer(tokens: ["last_seq"])), placement: nil)
        #expect(token.value(toSend: nil) == nil)
        #expect(token.value(toSend: .token("12-g1AAAA"))?.text() == "12-g1AAAA")
        let link = IncrementalSettings(source: .link(JSONPointer(tokens: ["@odata.deltaLink"])), placement: nil)
        #expect(link.value(toSend: .token("https://graph.example/delta?$deltatoken=x")) == nil)
    }

    /// An `initial` finer than `since.format` is no error: it is kept exactly, and sent with
    /// the finer part cut off, never a later time (docs/configuration.md#incremental-resources).
    @Test(arguments: [
        ("unixSeconds", "1767225600.9", "1767225600"),
        ("unixSeconds", #""2026-01-01T00:00:00.999999999Z""#, "1767225600"),
        ("unixSeconds", "-0.5", "-1"),
        ("unixMilliseconds", "1767225600123.9", "1767225600123"),
        ("unixMilliseconds", #""1969-12-31T23:59:59.9999Z""#, "-1"),
    ])
    func anInitialWithAFractionIsSentCutOff(_ format: String, _ initial: String, _ sent: String) throws {
        let config = try decodeConfig(
            #"{"resources": [{"name": "a", "url": "https://api.example.com/items", "key": "/id", "mode": "incremental", "#
                + #""since": {"field": "/t", "param": "s", "format": "\#(format)", "initial": \#(initial)}}]}"#)
        let settings = try #require(config.resources[0].incremental)
        #expect(settings.value(toSend: nil)?.text() == sent)
    }

    @Test func valuesAreReadAsISOTimesOrUnixNumbers() {
        let noon = ExactTime.at(1_790_000_000)
        for (value, format, expected) in [
            (JSONValue.string("2026-09-21T14:13:20Z"), Format.iso8601, noon),
            (.string("2026-09-21T16:13:20+02:00"), .iso8601, noon),
            (.string("2026-09-21T14:13:20.000Z"), .unixSeconds, noon),
            (.number("1790000000"), .unixSeconds, noon),
            (.string("1790000000"), .iso8601, noon),
            (.number("1790000000000"), .unixMilliseconds, noon),
            (.string("2026-09-21"), .iso8601, .at(1_789_948_800)),
            (.string("2026-09-21T14:13:20.123456789Z"), .iso8601, .at(1_790_000_000, nanoseconds: 123_456_789)),
            (.number("1790000000.5"), .unixSeconds, .at(1_790_000_000, nanoseconds: 500_000_000)),
            (.string("9999-12-31T23:59:59.999999999Z"), .iso8601, .latest),
        ] {
            #expect(format.time(of: value) == expected, "\(value)")
        }
        #expect(Format.iso8601.time(of: .string("yesterday")) == nil)
        #expect(Format.iso8601.time(of: .bool(true)) == nil)
        #expect(Format.unixSeconds.time(of: .number("-5")) == .at(-5))
        // What no kept time can hold is refused, never read as another time.
        for hostile in ["113518922052419301", "9223372036854775808", "99999999999999999999", "1e30", "1e400"] {
            #expect(Format.unixSeconds.time(from: .number(hostile)) == .failure(.outOfRange), "\(hostile)")
            #expect(Format.iso8601.time(from: .string(hostile)) == .failure(.outOfRange), "\(hostile)")
        }
        #expect(Format.unixMilliseconds.time(from: .number("113518922052419301")) == .failure(.outOfRange))
        #expect(Format.iso8601.time(from: .string("10000-01-01T00:00:00Z")) == .failure(.outOfRange))
        #expect(Format.iso8601.time(from: .string("+275760-09-13T00:00:00Z")) == .failure(.outOfRange))
        #expect(Format.iso8601.time(from: .string("2026-09-21T14:13:20")) == .failure(.noTimeZone))
        #expect(Format.iso8601.time(from: .string("")) == .failure(.notATime))
    }
}

/// Where the value goes: a query parameter of every page, or a field of the POST body.
@Suite struct IncrementalRequestTests {
    @Test func theValueIsSentAsAQueryParameterOrInTheBody() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [
              {"name": "items", "url": "https://api.example.com/items", "query": {"updated_since": "x", "a": "1"},
               "key": "/id", "pagination": {"style": "page", "size": 10},
               "mode": "incremental", "since": {"field": "/updated_at", "param": "updated_since"}},
              {"name": "deals", "url": "https://api.example.com/search", "method": "POST", "key": "/id",
               "body": {"filterGroups": [{"filters": [{"propertyName": "hs_lastmodifieddate", "value": "0"}]}]},
               "mode": "incremental",
               "since": {"field": "/updated_at", "bodyField": "/filterGroups/0/filters/0/value", "format": "unixMilliseconds"}}
            ]}
            """#)
        func sent(_ resource: ResourceConfig, _ seconds: Int64) -> SentValue? {
            resource.incremental?.value(toSend: .time(.at(seconds)))
        }
        let items = ResourceFetch.plan(
            config.resources[0], dependencyValues: [:], since: sent(config.resources[0], 1_795_514_400))
        // The configured one is replaced, not sent twice.
        #expect(
            items.planner.first().url
                == "https://api.example.com/items?a=1&updated_since=2026-11-24T10%3A00%3A00Z&page=1&per_page=10")
        let deals = ResourceFetch.plan(
            config.resources[1], dependencyValues: [:], since: sent(config.resources[1], 1_790_000_000))
        #expect(
            deals.body?.text
                == #"{"filterGroups":[{"filters":[{"propertyName":"hs_lastmodifieddate","value":1790000000000}]}]}"#)
    }
}

/// What the decoder takes from an incremental resource's page.
@Suite struct IncrementalDecodingTests {
    @Test func deletionsAreToldInOrderAndTheLargestValueSkipsNulls() throws {
        let decoder = PageDecoder(
            items: try JSONPointer("/data"), key: try JSONPointer("/id"),
            deleted: DeletedRule(pointer: try JSONPointer("/gone")))
        let settings = IncrementalSettings(
            source: .field(try JSONPointer("/updated_at")), placement: .query("since"), format: .iso8601)
        let body = #"""
            {"data": [{"id": 1, "updated_at": "2026-11-24T10:00:00Z"}, {"id": 2, "gone": true, "updated_at": null},
                      {"id": 3, "updated_at": "2026-11-24T11:00:00Z"}, {"id": 4}]}
            """#
        let decoded = try decoder.decode(Array(body.utf8), incremental: settings)
        #expect(decoded.records.map(\.key) == ["1", "3", "4"])
        #expect(decoded.changes.count == 4)
        #expect(decoded.changes[1] == .delete(key: "2"))
        #expect(decoded.kept == .time(.at(1_795_518_000)))
        #expect(throws: PageDecoder.Problem.self) {
            try decoder.decode(Array(#"{"data": [{"id": 1, "updated_at": "soon"}]}"#.utf8), incremental: settings)
        }
    }
}

/// `since.order`: the order the API lists changes in, which says how a walk cut off goes on.
@Suite struct IncrementalOrderTests {
    func resource(_ since: String) -> String {
        #"""
        {"resources": [{"name": "issues", "url": "https://gitlab.example.com/api/v4/projects/7/issues", "items": "",
          "key": "/id", "pagination": {"style": "page", "size": 20}, "mode": "incremental", "since": \#(since)}]}
        """#
    }

    @Test func oldestFirstIsTheDefaultAndNewestFirstIsRead() throws {
        let plain = try decodeConfig(resource(#"{"field": "/updated_at", "param": "updated_after"}"#))
        #expect(plain.resources[0].incremental?.order == .oldestFirst)
        let newest = try decodeConfig(
            resource(#"{"field": "/updated_at", "param": "updated_after", "order": "newestFirst"}"#))
        #expect(newest.resources[0].incremental?.order == .newestFirst)
        let body = try decodeConfig(
            resource(#"{"fromBody": "/end_time", "param": "start_time", "order": "oldestFirst"}"#))
        #expect(body.resources[0].incremental?.order == .oldestFirst)
    }

    @Test func aBadOrderOrOneForATokenIsRefusedWithItsPath() {
        #expect(
            configProblems(resource(#"{"field": "/updated_at", "param": "updated_after", "order": "asc"}"#)) == [
                #"resources[0].since.order: must be "oldestFirst" or "newestFirst" (the order the API lists changes in)"#
            ])
        #expect(
            configProblems(resource(#"{"field": "/updated_at", "param": "updated_after", "order": 1}"#)) == [
                "resources[0].since.order: must be a string, not a number"
            ])
        #expect(
            configProblems(resource(#"{"token": "/last_seq", "param": "since", "order": "newestFirst"}"#)) == [
                "resources[0].since.order: is for times; a walk that keeps a token or link goes on by page"
            ])
    }
}
