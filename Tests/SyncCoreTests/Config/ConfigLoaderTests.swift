import Foundation
import Streams
import Testing

@testable import SyncCore

/// A configuration decoded as if read from `/etc/sync-agent/config.json`.
func decodeConfig(_ text: String, environment: [String: String] = [:]) throws(ConfigError) -> AgentConfig {
    try ConfigLoader.decode(Array(text.utf8), file: "/etc/sync-agent/config.json", environment: environment)
}

/// The problems of a configuration, as `path: message` lines; empty when valid.
func configProblems(_ text: String, environment: [String: String] = [:]) -> [String] {
    do {
        _ = try decodeConfig(text, environment: environment)
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

/// A valid resource, with `extra` members spliced in.
func resource(
    _ name: String = "users", url: String = "https://api.example.com/v1/users", _ extra: String = ""
)
    -> String
{
    #"{"name": "\#(name)", "url": "\#(url)", "key": "/id"\#(extra.isEmpty ? "" : ", " + extra)}"#
}

@Suite(.timeLimit(.minutes(1))) struct ConfigLoaderTests {
    /// A malformed configuration and every problem `validate` must report for it.
    struct Malformed: CustomTestStringConvertible, Sendable {
        var config: String
        var problems: [String]
        var testDescription: String { problems.first ?? config }
    }

    static let malformed: [Malformed] = [
        .init(
            config: #"{"resources": [}"#,
            problems: ["/etc/sync-agent/config.json:1:16: unexpected character '}', expected a value"]),
        .init(
            config: "{\n  \"resources\": [\n    {\"name\": \"a\",}\n  ]\n}",
            problems: ["/etc/sync-agent/config.json:3:18: expected a member name in double quotes"]),
        .init(config: "[]", problems: ["(root): must be an object, not an array"]),
        .init(config: "{}", problems: ["resources: is required: list the resources to sync"]),
        .init(config: #"{"resources": []}"#, problems: ["resources: must list at least one resource"]),
        .init(config: #"{"resources": [42]}"#, problems: ["resources[0]: must be an object, not a number"]),
        .init(config: #"{"resources": [\#(resource())], "colour": "red"}"#, problems: ["colour: unknown key"]),
        .init(
            config: #"{"resources": [\#(resource("users", #""intervall": "5m""#))]}"#,
            problems: [#"resources[0].intervall: unknown key (did you mean "interval"?)"#]),
        .init(
            config: #"{"resources": [{"url": "https://a.example/u", "key": "/id"}]}"#,
            problems: ["resources[0].name: is required"]),
        .init(
            config: #"{"resources": [\#(resource("Users!"))]}"#,
            problems: [#"resources[0].name: must be 1 to 64 characters of a-z, 0-9, "_" and "-", e.g. "users""#]),
        .init(
            config: #"{"resources": [\#(resource()), \#(resource())]}"#,
            problems: [#"resources[1].name: "users" is already the name of resources[0]"#]),
        .init(
            config: #"{"resources": [{"name": "users", "key": "/id"}]}"#,
            problems: ["resources[0].url: is required"]),
        .init(
            config: #"{"resources": [\#(resource(url: "ftp://a.example/u"))]}"#,
            problems: ["resources[0].url: must be an absolute http:// or https:// URL with a host"]),
        .init(
            config: #"{"resources": [\#(resource("users", #""method": "PUT""#))]}"#,
            problems: ["resources[0].method: must be GET or POST"]),
        .init(
            config: #"{"defaults": {"interval": "soon"}, "resources": [\#(resource())]}"#,
            problems: [
                #"defaults.interval: must be a duration such as "500ms", "30s", "5m" or "1m30s", or a number of seconds, at most 365d"#
            ]),
        .init(
            config:
                #"{"defaults": {"timeout": 1e300}, "resources": [\#(resource("users", #""interval": "99999999999999999""#))]}"#,
            problems: [
                #"defaults.timeout: must be a duration such as "500ms", "30s", "5m" or "1m30s", or a number of seconds, at most 365d"#,
                #"resources[0].interval: must be a duration such as "500ms", "30s", "5m" or "1m30s", or a number of seconds, at most 365d"#,
            ]),
        .init(
            config: #"{"resources": [\#(resource("users", #""interval": "10ms""#))]}"#,
            problems: ["resources[0].interval: must be at least 100ms"]),
        .init(
            config: #"{"defaults": {"retry": {"maxAttempts": 0}}, "resources": [\#(resource())]}"#,
            problems: ["defaults.retry.maxAttempts: must be between 1 and 100"]),
        .init(
            config: #"{"defaults": {"retry": {"jitter": 1.5, "multiplier": "2"}}, "resources": [\#(resource())]}"#,
            problems: [
                "defaults.retry.multiplier: must be a number, not a string",
                "defaults.retry.jitter: must be between 0 and 1",
            ]),
        .init(
            config: #"{"resources": [\#(resource("users", #""retry": {"initialDelay": "10s", "maxDelay": "1s"}"#))]}"#,
            problems: ["resources[0].retry.maxDelay: must be at least initialDelay (10s)"]),
        .init(
            config: #"{"resources": [\#(resource("users", #""pagination": {"style": "pages"}"#))]}"#,
            problems: ["resources[0].pagination.style: must be one of none, page, offset, cursor, link, nextUrl"]),
        .init(
            config: #"""
                {"resources": [\#(resource("a")), \#(resource("users", #""pagination": {"style": "page", "size": 20000}"#))]}
                """#,
            problems: ["resources[1].pagination.size: must be between 1 and 10000"]),
        .init(
            config: #"{"resources": [\#(resource("users", #""pagination": {"style": "cursor"}"#))]}"#,
            problems: [
                #"resources[0].pagination.next: is required for style cursor: a JSON pointer to the next cursor, e.g. "/next_cursor" (or "cursorFromLastItem": "/id")"#
            ]),
        .init(
            config:
                #"{"resources": [\#(resource("users", #""pagination": {"style": "page", "size": 10, "next": "/x"}"#))]}"#,
            problems: ["resources[0].pagination.next: is not used by style page"]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""pagination": {"style": "cursor", "next": "/n", "cursorFromLastItem": "/id"}"#))]}
                """#,
            problems: [
                #"resources[0].pagination.cursorFromLastItem: and "next" cannot both be given: the cursor comes from the body or from the last item"#
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""pagination": {"style": "cursor", "next": "/n", "in": "body"}"#))]}
                """#,
            problems: [#"resources[0].pagination.in: "body" needs "method": "POST""#]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""method": "POST", "body": [1], "pagination": {"style": "cursor", "next": "/n", "in": "body"}"#))]}
                """#,
            problems: ["resources[0].body: must be a JSON object when the pagination is sent in the body"]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""pagination": {"style": "link", "stopWhen": {"equals": true}, "hasMore": "x"}"#))]}
                """#,
            problems: [
                #"resources[0].pagination.hasMore: invalid JSON pointer "x": must be empty or start with "/""#,
                #"resources[0].pagination.stopWhen.equals: needs a "pointer" to the value it compares"#,
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""retry": {"on": [{"as": "later"}, {"status": 99}], "never": ["503"]}"#))]}
                """#,
            problems: [
                #"resources[0].retry.on[0].as: must be "transient" or "rateLimit""#,
                #"resources[0].retry.on[0]: must test something: "status", "bodyContains" or "pointer""#,
                "resources[0].retry.on[1].status: must be between 100 and 599",
                "resources[0].retry.never[0]: must be an integer, not a string",
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""rateLimit": {"requests": 10, "burst": 0, "maxWait": "x"}, "errorWhen": {"message": "/error"}"#))]}
                """#,
            problems: [
                #"resources[0].errorWhen: needs a "pointer" (and usually "equals")"#,
                "resources[0].rateLimit.burst: must be between 1 and 1000000",
                #"resources[0].rateLimit.per: is required with "requests": the period, e.g. "1h""#,
                #"resources[0].rateLimit.maxWait: must be a duration such as "500ms", "30s", "5m" or "1m30s", or a number of seconds, at most 365d"#,
            ]),
        .init(
            config: #"{"resources": [{"name": "users", "url": "https://a.example/u", "key": "id"}]}"#,
            problems: [#"resources[0].key: invalid JSON pointer "id": must be empty or start with "/""#]),
        .init(
            config: #"{"resources": [{"name": "users", "url": "https://a.example/u"}]}"#,
            problems: [#"resources[0].key: is required: a JSON pointer to each item's key, e.g. "/id""#]),
        .init(
            config: #"{"resources": [\#(resource("users", #""headers": {"Authorization": "Bearer ${API_TOKEN}"}"#))]}"#,
            problems: ["resources[0].headers.Authorization: environment variable API_TOKEN is not set"]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""headers": {"Authorization": "Bearer ${credential:api-token}"}"#))]}
                """#,
            problems: [
                #"resources[0].headers.Authorization: credential "api-token" not found: $CREDENTIALS_DIRECTORY is not set (systemd sets it for units with LoadCredential=)"#
            ]),
        .init(
            config: #"{"resources": [\#(resource("users", #""query": {"token": "${file:/nonexistent/token}"}"#))]}"#,
            problems: ["resources[0].query.token: cannot read file /nonexistent/token: it does not exist"]),
        .init(
            config: #"{"resources": [\#(resource(url: "https://a.example/u?x=${HOME"))]}"#,
            problems: [#"resources[0].url: unterminated "${": close it with "}" (write "$${" for a literal "${")"#]),
        .init(
            config: #"{"resources": [\#(resource(url: "https://a.example/${credential:}"))]}"#,
            problems: [#"resources[0].url: "${credential:}" needs a credential name without "/""#]),
        .init(
            config: #"{"resources": [\#(resource(url: "https://a.example/${vault:x}"))]}"#,
            problems: [
                #"resources[0].url: unknown reference "${vault:x}": use ${NAME}, ${credential:NAME} or ${file:PATH}"#
            ]),
        .init(
            config: #"{"socketMode": "0666", "resources": [\#(resource())]}"#,
            problems: [
                #"socketMode: must not give others any access (the socket is never world-accessible); use "0660" or "0600""#
            ]),
        .init(
            config: #"{"socketMode": "0440", "resources": [\#(resource())]}"#,
            problems: [#"socketMode: must let the owner read and write (e.g. "0660" or "0600")"#]),
        .init(
            config: #"{"corruptDatabase": "delete", "resources": [\#(resource())]}"#,
            problems: [#"corruptDatabase: must be "rebuild" or "refuse""#]),
        .init(
            config: #"{"resources": [\#(resource("users", #""maxPages": 2.5"#))]}"#,
            problems: ["resources[0].maxPages: must be an integer"]),
        .init(
            config: #"{"resources": [\#(resource("users", #""maxResponseSize": "lots""#))]}"#,
            problems: [
                #"resources[0].maxResponseSize: must be a size such as "32MiB" or "512KiB", or a number of bytes"#
            ]),
        .init(
            config:
                #"{"resources": [\#(resource()), \#(resource("groups", url: "https://a.example/g/{grp:/groupId}"))]}"#,
            problems: [#"resources[1].url: refers to unknown resource "grp""#]),
        .init(
            config: #"""
                {"resources": [\#(resource("a", url: "https://a.example/{b:/id}")), \#(resource("b", url: "https://a.example/{a:/id}"))]}
                """#,
            problems: ["resources[0].url: dependency cycle: a → b → a"]),
        .init(
            config: #"{"resources": [\#(resource(url: "https://a.example/{oops}"))]}"#,
            problems: [
                #"resources[0].url: placeholder "{oops}" must look like {resource:/json/pointer} (write %7B for a literal brace)"#
            ]),
        .init(
            config: #"{"resources": [\#(resource("users", #""body": {"q": 1}"#))]}"#,
            problems: [#"resources[0].body: needs "method": "POST""#]),
        .init(
            config: #"{"resources": [\#(resource("users", #""headers": {"X-Id": 5}"#))]}"#,
            problems: ["resources[0].headers.X-Id: must be a string, not a number"]),
        .init(
            config: #"{"resources": [{"name": "users", "url": "https://a.example/u", "key": "/id", "key": "/uid"}]}"#,
            problems: ["resources[0].key: appears twice in the same object"]),
        .init(
            config: #"{"connectivity": {"probe": "api.example.com:443"}, "resources": [\#(resource())]}"#,
            problems: [#"connectivity.probe: must look like "tcp://host:port", e.g. "tcp://api.example.com:443""#]),
        .init(
            config: #"{"changes": {"keep": "10s", "maxRows": 10, "max": 1}, "resources": [\#(resource())]}"#,
            problems: [
                "changes.keep: must be at least 1m", "changes.maxRows: must be between 1000 and 1000000000",
                "changes.max: unknown key",
            ]),
        .init(
            config: #"{"maxConcurrentSyncs": 0, "maxConcurrentSyncsPerHost": "4", "resources": [\#(resource())]}"#,
            problems: [
                "maxConcurrentSyncs: must be between 1 and 10000",
                "maxConcurrentSyncsPerHost: must be an integer, not a string",
            ]),
        .init(
            config: #"{"resources": [\#(resource("users", #""mode": "incremental""#))]}"#,
            problems: [
                #"resources[0].since: is required in incremental mode, e.g. {"field": "/updated_at", "param": "updated_since"}"#
            ]),
        .init(
            config:
                #"{"resources": [\#(resource("users", #""since": {"field": "/u", "param": "s"}, "fullResyncEvery": "1h""#))]}"#,
            problems: [
                #"resources[0].since: needs "mode": "incremental""#,
                #"resources[0].fullResyncEvery: needs "mode": "incremental""#,
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""mode": "incremental", "since": {"field": "/u", "fromBody": "/t", "bodyField": "/s", "format": "unix", "initial": "soon"}, "deleted": {}"#))]}
                """#,
            problems: [
                "resources[0].since.fromBody: and field cannot both be set: choose one",
                #"resources[0].since.bodyField: needs "method": "POST""#,
                #"resources[0].since.format: is "unix", which is no format: must be "iso8601", "unixSeconds" or "unixMilliseconds""#,
                #"resources[0].since.initial: is "soon", which is not a time (an ISO 8601 string or a Unix time), such as "2024-01-01T00:00:00Z""#,
                "resources[0].deleted.pointer: is required: the item field that marks a deletion",
            ]),
        // A since value the format cannot hold is refused by validate, naming it.
        .init(
            config: #"""
                {"resources": [\#(resource("a", #""mode": "incremental", "since": {"field": "/id", "param": "since_id", "format": "unixMilliseconds", "initial": 113518922052419301}"#)), \#(resource("b", #""mode": "incremental", "since": {"field": "/t", "param": "s", "initial": "+275760-09-13T00:00:00Z"}"#)), \#(resource("c", #""mode": "incremental", "since": {"field": "/t", "param": "s", "initial": "2026-11-24T10:00:00"}"#))]}
                """#,
            problems: [
                "resources[0].since.initial: is 113518922052419301, which as milliseconds since 1970 is no time between the years 1 and 9999",
                #"resources[1].since.initial: is "+275760-09-13T00:00:00Z", which is no time between the years 1 and 9999"#,
                #"resources[2].since.initial: is "2026-11-24T10:00:00", which names no time zone, so which instant it is cannot be told"#,
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""rateLimit": {"headers": {"remaining": "X Remaining", "reset": 5, "limt": "L"}}"#))]}
                """#,
            problems: [
                #"resources[0].rateLimit.headers.remaining: must be an HTTP header name, e.g. "X-RateLimit-Remaining""#,
                "resources[0].rateLimit.headers.reset: must be a string, not a number",
                #"resources[0].rateLimit.headers.limt: unknown key (did you mean "limit"?)"#,
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""deleted": {"pointer": "/status", "equals": ["deleted"], "present": true, "key": "id", "kind": 1}"#))]}
                """#,
            problems: [
                "resources[0].deleted.equals: and present cannot both be set: choose one",
                #"resources[0].deleted.key: invalid JSON pointer "id": must be empty or start with "/""#,
                "resources[0].deleted.kind: unknown key",
            ]),
        .init(
            config: #"""
                {"resources": [\#(resource("users", #""deleted": {"pointer": "", "present": false}"#)), \#(resource("items", #""deleted": {"pointer": "/s", "equals": []}"#))]}
                """#,
            problems: [
                #"resources[0].deleted.pointer: must name a field, e.g. "/deleted""#,
                "resources[0].deleted.present: must be true: a deletion is marked by a field that is there",
                #"resources[1].deleted.equals: must list at least one value, e.g. ["deleted", "removed"]"#,
            ]),
    ]

    @Test(arguments: malformed)
    func reportsEveryProblemWithItsPath(_ example: Malformed) {
        #expect(configProblems(example.config) == example.problems)
    }

    @Test func reportsAllProblemsOfOneFileAtOnce() {
        let problems = configProblems(
            #"""
            {"socketMode": "777", "defaults": {"timeout": "never"},
             "resources": [{"name": "UPPER", "url": "mailto:x", "key": "x"}, {"name": "b", "url": "https://h/", "key": "/id", "maxPages": 0}]}
            """#)
        #expect(
            problems == [
                #"socketMode: must not give others any access (the socket is never world-accessible); use "0660" or "0600""#,
                #"defaults.timeout: must be a duration such as "500ms", "30s", "5m" or "1m30s", or a number of seconds, at most 365d"#,
                #"resources[0].name: must be 1 to 64 characters of a-z, 0-9, "_" and "-", e.g. "users""#,
                "resources[0].url: must be an absolute http:// or https:// URL with a host",
                #"resources[0].key: invalid JSON pointer "x": must be empty or start with "/""#,
                "resources[1].maxPages: must be between 1 and 1000000",
            ])
    }

    @Test func aDependencyWithProblemsOfItsOwnIsNotCalledUnknown() {
        let problems = configProblems(
            #"""
            {"resources": [\#(resource("me", #""interval": "1ms""#)), \#(resource("mine", url: "https://a.example/{me:/id}"))]}
            """#)
        #expect(problems == ["resources[0].interval: must be at least 100ms"])
    }

    @Test func anUnknownStyleStillReportsUnknownKeys() {
        let problems = configProblems(
            #"{"resources": [\#(resource("users", #""pagination": {"style": "pages", "sise": 10}"#))]}"#)
        #expect(
            problems == [
                "resources[0].pagination.style: must be one of none, page, offset, cursor, link, nextUrl",
                #"resources[0].pagination.sise: unknown key (did you mean "size"?)"#,
            ])
    }

    @Test func theErrorNamesTheFileOnceAndCountsTheProblems() {
        let unreadable = ConfigError(file: "/etc/a.json", problems: [ConfigProblem("/etc/a.json", "cannot read it")])
        #expect(unreadable.description == "/etc/a.json: cannot read it")
        let invalid = ConfigError(
            file: "/etc/a.json", problems: [ConfigProblem("socketMode", "bad"), ConfigProblem("resources", "missing")])
        #expect(invalid.description == "/etc/a.json: 2 problems:\nsocketMode: bad\nresources: missing")
    }

    // Found with the config fuzz target (fuzz/regressions/config): a key with a line break
    // made a problem of two lines, and an escape sequence reached the terminal.
    @Test func aProblemIsOneLineWhateverTheKeysHold() {
        let problems = configProblems(
            #"{"resources": [\#(resource("users", #""\nfake: fine": 1"#))], "\u001b[2J\u2028": 2}"#)
        #expect(
            problems == [
                #"resources[0]."\nfake: fine": unknown key"#,
                #""\u001b[2J\u2028": unknown key"#,
            ])
        #expect(
            configProblems(#"{"resources": [\#(resource("users", #""headers": {"X-A": "${bad\u0085}"}"#))]}"#)
                == [
                    #"resources[0].headers.X-A: unknown reference "${bad\u0085}": use ${NAME}, ${credential:NAME} or ${file:PATH}"#
                ])
    }

    @Test func appliesTheDefaultsOfTheSpecification() throws {
        let config = try decodeConfig(#"{"resources": [\#(resource())]}"#)
        let settings = try #require(config.resources.first).settings
        #expect(settings.interval == .seconds(60))
        #expect(settings.pollJitter == .zero)
        #expect(settings.timeout == .seconds(30))
        #expect(settings.slowAfter == .seconds(5))
        #expect(
            settings.retry
                == RetryPolicy(
                    maxAttempts: 5, initialDelay: .seconds(1), maxDelay: .seconds(60), multiplier: 2, jitter: 0.2))
        #expect(settings.maxPages == 10_000)
        #expect(config.socketMode == 0o660)
        #expect(config.connectivity.maxProbeInterval == .seconds(30))
        #expect(config.changeRetention == ChangeRetention(keep: .seconds(7 * 86_400), maxRows: 1_000_000))
        #expect(config.syncLimits == SyncLimits(total: 32, perHost: 8))
        #expect(config.resources[0].items == .root)
        #expect(config.resources[0].pagination == .none)
        #expect(config.resources[0].method == .get)
    }

    @Test func aResourceOverridesTheDefaultsKeyByKey() throws {
        let config = try decodeConfig(
            #"""
            {"defaults": {"interval": "5m", "retry": {"maxAttempts": 3, "initialDelay": "2s"}},
             "resources": [\#(resource("a")), \#(resource("b", #""interval": 90, "retry": {"maxAttempts": 7}"#))]}
            """#)
        #expect(config.resources[0].settings.interval == .seconds(300))
        #expect(config.resources[0].settings.retry.maxAttempts == 3)
        #expect(config.resources[1].settings.interval == .seconds(90))
        #expect(config.resources[1].settings.retry.maxAttempts == 7)
        #expect(config.resources[1].settings.retry.initialDelay == .seconds(2))
    }

    @Test func relativePathsAreRelativeToTheConfigFolder() throws {
        let config = try decodeConfig(
            #"{"database": "data/agent.db", "socket": "/run/x.sock", "resources": [\#(resource())]}"#)
        #expect(config.database == "/etc/sync-agent/data/agent.db")
        #expect(config.socket == "/run/x.sock")
    }

    @Test func systemdDirectoriesAreTheDefaultLocations() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource())]}"#,
            environment: [
                "STATE_DIRECTORY": "/var/lib/sync-agent:/var/lib/other", "RUNTIME_DIRECTORY": "/run/sync-agent",
            ])
        #expect(config.database == "/var/lib/sync-agent/sync-agent.db")
        #expect(config.socket == "/run/sync-agent/sync-agent.sock")
        let beside = try decodeConfig(#"{"resources": [\#(resource())]}"#)
        #expect(beside.database == "/etc/sync-agent/sync-agent.db")
        #expect(beside.socket == "/etc/sync-agent/sync-agent.sock")
    }

    @Test func readsEveryPaginationStyle() throws {
        func pagination(_ json: String) throws -> Pagination {
            try #require(
                try decodeConfig(#"{"resources": [\#(resource("r", #""pagination": \#(json)"#))]}"#).resources.first
            )
            .pagination
        }
        #expect(try pagination(#"{"style": "none"}"#) == .none)
        #expect(
            try pagination(#"{"style": "page", "size": 50}"#)
                == .page(param: "page", sizeParam: "per_page", size: 50, start: 1))
        #expect(
            try pagination(#"{"style": "page", "param": "p", "sizeParam": "n", "size": 5, "start": 0}"#)
                == .page(param: "p", sizeParam: "n", size: 5, start: 0))
        #expect(
            try pagination(#"{"style": "offset", "limit": 10}"#)
                == .offset(param: "offset", limitParam: "limit", limit: 10))
        #expect(
            try pagination(#"{"style": "cursor", "next": "/meta/next"}"#)
                == .cursor(next: try JSONPointer("/meta/next"), param: "cursor"))
        #expect(try pagination(#"{"style": "link"}"#) == .link)
        #expect(try pagination(#"{"style": "nextUrl", "next": "/next"}"#) == .nextURL(next: try JSONPointer("/next")))
    }

    @Test func aPostBodyIsSentAsJSONWithItsStringsFilledIn() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource("q", #""method": "post", "body": {"query": "${Q}", "n": [1, true]}"#))]}"#,
            environment: ["Q": "all users"])
        let resource = try #require(config.resources.first)
        #expect(resource.method == .post)
        #expect(
            resource.body == RequestBody(text: #"{"query":"all users","n":[1,true]}"#, contentType: "application/json"))
    }

    @Test func urlPlaceholdersNameTheirDependencies() throws {
        let config = try decodeConfig(
            #"{"resources": [\#(resource("user")), \#(resource("group", url: "https://a.example/groups/{user:/group/id}/members?x=${X}"))]}"#,
            environment: ["X": "1"])
        let group = try #require(config.resource(named: "group"))
        #expect(group.dependencies == ["user"])
        let dependency = try #require(group.url.dependencies.first)
        #expect(group.url.render([dependency: "a b/c"]) == "https://a.example/groups/a%20b%2Fc/members?x=1")
        #expect(group.url.display == "https://a.example/groups/{user:/group/id}/members?x=${X}")
    }

    @Test func readsTheFileFromDisk() throws {
        let folder = NSTemporaryDirectory() + "config-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"resources": [\#(resource())]}"#.utf8).write(to: URL(fileURLWithPath: folder + "/config.json"))
        let config = try ConfigLoader.load(path: folder + "/config.json", environment: [:])
        #expect(config.database == folder + "/sync-agent.db")
        #expect(throws: ConfigError.self) { try ConfigLoader.load(path: folder + "/missing.json", environment: [:]) }
    }

    @Test func aConfigurationLargerThanItsCapIsRefusedUnread() throws {
        let folder = NSTemporaryDirectory() + "config-cap-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config.json"
        _ = FileManager.default.createFile(atPath: path, contents: nil)
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try file.truncate(atOffset: UInt64(ConfigLoader.maximumSize + 1))
        try file.close()
        #expect {
            try ConfigLoader.load(path: path, environment: [:])
        } throws: { error in
            (error as? ConfigError)?.problems.map(\.description) == [
                "\(path): is 4194305 bytes; a configuration may be at most 4 MiB"
            ]
        }
    }

    @Test func aHugeUnknownKeyIsReportedWithoutASuggestion() throws {
        let key = String(repeating: "intervall", count: 100_000)
        #expect(
            configProblems(#"{"resources": [\#(resource("users", #""\#(key)": 1"#))]}"#)
                == ["resources[0].\(key): unknown key"])
    }

    @Test func theConfigPathComesFromTheFlagThenTheEnvironment() {
        #expect(ConfigLoader.path(explicit: "a.json", environment: ["SYNC_AGENT_CONFIG": "b.json"]) == "a.json")
        #expect(ConfigLoader.path(explicit: nil, environment: ["SYNC_AGENT_CONFIG": "b.json"]) == "b.json")
        #expect(ConfigLoader.path(explicit: nil, environment: [:]) == "/etc/sync-agent/config.json")
    }

    @Test func theExampleConfigurationIsValidAndShowsEveryKey() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let example = root.appendingPathComponent("config.example.json").path
        let folder = NSTemporaryDirectory() + "credentials-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for credential in [
            "api-token", "github-token", "stripe-key", "slack-token", "notion-token", "zendesk-token", "proxy-password",
            "salesforce-secret", "graph-secret", "graph-refresh-token", "http-token", "jira-token",
        ] {
            try Data("t0ken-\(credential)\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + credential))
        }
        let secretFile = folder + "/internal-client.secret"
        try Data("r3ports\n".utf8).write(to: URL(fileURLWithPath: secretFile))
        var text = try String(contentsOfFile: example, encoding: .utf8)
            .replacingOccurrences(of: "/etc/sync-agent/internal-client.secret", with: secretFile)
        for file in ["company-ca.pem", "client.pem", "client.key"] {
            try Data("PEM\n".utf8).write(to: URL(fileURLWithPath: folder + "/" + file))
            text = text.replacingOccurrences(of: "/etc/sync-agent/" + file, with: folder + "/" + file)
        }
        let config = try decodeConfig(text, environment: ["API_TOKEN": "k3y", "CREDENTIALS_DIRECTORY": folder])
        #expect(
            config.resources.map(\.pagination.styleName)
                == [
                    "page", "offset", "cursor", "link", "nextUrl", "none", "page", "link", "cursor", "cursor", "cursor",
                    "nextUrl", "nextUrl", "link", "nextUrl", "nextUrl", "cursor", "offset", "cursor", "nextUrl", "link",
                ])
        #expect(
            config.resources.filter { $0.incremental != nil }.map(\.name) == [
                "zendesk-tickets", "github-issues-changed", "jira-issues", "couch-changes", "graph-users-delta",
                "github-search",
            ])
        for key in ConfigLoader.settingsKeys + ConfigLoader.retryKeys + ConfigLoader.resourceKeys
            + ConfigLoader.paginationKeys + ConfigLoader.pageEndKeys
            + ConfigLoader.sinceKeys.filter({ $0 != "bodyField" }) + [
                "database", "store", "type", "socket", "socketMode", "probe", "maxProbeInterval", "method", "auths",
                "changes", "keep",
                "maxRows", "maxConcurrentSyncs", "maxConcurrentSyncsPerHost", "http", "listen", "control", "token",
                "logFormat",
            ] + ConfigLoader.oauth2Keys
        {
            #expect(text.contains("\"\(key)\":"), "config.example.json does not show \(key)")
        }
    }

    @Test func resourcesShareTheirSettingsYetEachChangesItsOwn() throws {
        var config = try decodeConfig(
            #"{"defaults": {"interval": "5m"}, "resources": [\#(resource("a")), \#(resource("b")), \#(resource("c", #""timeout": "9s""#))]}"#
        )
        #expect(config.resources.map(\.settings.interval) == [.seconds(300), .seconds(300), .seconds(300)])
        #expect(config.resources[0].settings == config.resources[1].settings)
        #expect(config.resources[2].settings.timeout == .seconds(9))
        // A value, whatever it shares: changing one resource's settings changes no other.
        config.resources[0].settings.interval = .seconds(60)
        #expect(config.resources.map(\.settings.interval) == [.seconds(60), .seconds(300), .seconds(300)])
        #expect(config.resources[1].settings.timeout == .seconds(30))
    }

    @Test func commentsAreIgnoredEverywhere() throws {
        let config = try decodeConfig(
            #"{"$comment": "top", "resources": [\#(resource("users", #""$comment": 1, "headers": {"$comment": "x"}"#))]}"#
        )
        #expect(config.resources[0].headers.isEmpty)
    }
}
