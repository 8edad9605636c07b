import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// Numbers of any size in answers, through the real `sync-agent run` beside a
/// healthy resource (docs/configuration.md#numbers-an-answer-carries): none of
/// them stops the agent, and each hostile resource ends in success with an exact
/// copy of the value it was served, or `failed` naming the value.
@Suite(.serialized, .timeLimit(.minutes(5))) struct HostileValuesEndToEndTests {
    /// A value an answer serves, as JSON text, and what the next request must
    /// send back for it in each format (`nil`: the value must be refused).
    struct Hostile {
        var json: String
        /// The text refused values are named by in the message.
        var named: String
        var iso8601: String?
        var unixSeconds: String?
        var unixMilliseconds: String?
    }

    static let hostile: [Hostile] = [
        .init(json: "113518922052419301", named: "113518922052419301"),
        .init(json: "9223372036854775808", named: "9223372036854775808"),
        .init(json: "99999999999999999999", named: "99999999999999999999"),
        .init(json: #""113518922052419301""#, named: #""113518922052419301""#),
        .init(json: #""9223372036854775808""#, named: #""9223372036854775808""#),
        .init(json: #""99999999999999999999""#, named: #""99999999999999999999""#),
        .init(json: "1e30", named: "1e30"),
        .init(json: "1e400", named: "1e400"),
        .init(
            json: "-1", named: "-1", iso8601: "1969-12-31T23:59:59Z", unixSeconds: "-1", unixMilliseconds: "-1"),
        .init(
            json: #""9999-12-31T23:59:59.999999999Z""#, named: "9999", iso8601: "9999-12-31T23:59:59.999999999Z",
            unixSeconds: "253402300799", unixMilliseconds: "253402300799999"),
        .init(
            json: "253402300799", named: "253402300799", iso8601: "9999-12-31T23:59:59Z",
            unixSeconds: "253402300799", unixMilliseconds: "253402300799"),
        .init(json: #""+275760-09-13T00:00:00Z""#, named: #""+275760-09-13T00:00:00Z""#),
    ]

    static let formats = ["iso8601", "unixSeconds", "unixMilliseconds"]

    /// What one hostile resource must end in.
    struct Expectation {
        var name: String
        var path: String
        /// The `since` the next request sends, or `nil` when the sync must fail…
        var sent: String?
        /// … naming this text and the pointer.
        var named: String
    }

    @Test func hostileValuesNeitherStopTheAgentNorKeepAnotherValue() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30, "statuses": 5])
        defer { Task { await upstream.stop() } }
        var resources = [
            upstream.resource("healthy", style: "page", size: 10, extra: #""interval": "200ms""#)
        ]
        var expectations: [Expectation] = []
        for (index, value) in Self.hostile.enumerated() {
            for format in Self.formats {
                let name = "field-\(format.lowercased())-\(index)"
                let path = "/hostile/\(name)"
                upstream.inject(
                    Fault(path: path, action: .status(200, body: #"{"items": [{"id": 1, "t": \#(value.json)}]}"#)))
                resources.append(
                    #"""
                    {"name": "\#(name)", "url": "\#(upstream.baseURL)\#(path)", "items": "/items", "key": "/id",
                     "interval": "200ms", "mode": "incremental",
                     "since": {"field": "/t", "param": "since", "format": "\#(format)"}}
                    """#)
                let sent =
                    switch format {
                    case "iso8601": value.iso8601
                    case "unixSeconds": value.unixSeconds
                    default: value.unixMilliseconds
                    }
                expectations.append(.init(name: name, path: path, sent: sent, named: value.named))
            }
            // As a token, every value is kept as its exact text.
            let name = "token-\(index)"
            let path = "/hostile/\(name)"
            upstream.inject(
                Fault(path: path, action: .status(200, body: #"{"items": [{"id": 1}], "last": \#(value.json)}"#)))
            resources.append(
                #"""
                {"name": "\#(name)", "url": "\#(upstream.baseURL)\#(path)", "items": "/items", "key": "/id",
                 "interval": "200ms", "mode": "incremental", "since": {"token": "/last", "param": "since"}}
                """#)
            let text = value.json.hasPrefix("\"") ? String(value.json.dropFirst().dropLast()) : value.json
            expectations.append(.init(name: name, path: path, sent: text, named: text))
        }
        // Mastodon's statuses, configured as docs/configuration.md says for a time: its IDs are no times.
        let statuses = "/api/v1/accounts/1/statuses"
        for format in ["iso8601", "unixMilliseconds"] {
            resources.append(
                #"""
                {"name": "mastodon-\#(format.lowercased())", "url": "\#(upstream.baseURL)\#(statuses)?limit=40", "key": "/id",
                 "interval": "200ms", "pagination": {"style": "link"}, "mode": "incremental",
                 "since": {"field": "/id", "param": "since_id", "format": "\#(format)"}}
                """#)
            // The newest status comes first: 113518922052681445, as a string.
            expectations.append(
                .init(
                    name: "mastodon-\(format.lowercased())", path: statuses, sent: nil, named: #""113518922052681445""#)
            )
        }
        let workspace = try Workspace()
        try workspace.writeConfig(resources: resources)
        let validated = try await workspace.run(["validate"])
        #expect(validated.status == 0, "\(validated.stdout)\(validated.stderr)")

        let agent = try await RunningAgent.start(in: workspace)
        for expectation in expectations {
            let settled = try await eventually(timeout: .seconds(60)) {
                let shown = agent.curl("GET", "/v1/resources/\(expectation.name)").json
                if expectation.sent == nil { return shown["state"] as? String == "failed" }
                return shown["lastSuccessAt"] is String && sentSince(upstream, expectation.path) != nil
            }
            let shown = agent.curl("GET", "/v1/resources/\(expectation.name)").json
            let message = (shown["lastError"] as? [String: Any])?["message"] as? String ?? ""
            #expect(settled, "\(expectation.name): \(shown)")
            if let sent = expectation.sent {
                // The next request sends back exactly the value seen.
                #expect(sentSince(upstream, expectation.path) == sent, "\(expectation.name): \(shown)")
                #expect(shown["lastError"] is NSNull, "\(expectation.name): \(message)")
            } else {
                #expect(shown["state"] as? String == "failed", "\(expectation.name): \(shown)")
                #expect(message.contains(expectation.named), "\(expectation.name): \(message)")
                let pointer = expectation.name.hasPrefix("mastodon") ? #""/id""# : #""/t""#
                #expect(message.contains(pointer), "\(expectation.name): \(message)")
            }
        }
        // The agent is alive, and the healthy resource keeps syncing.
        let syncs = upstream.requestCount(path: "/page/items")
        #expect(try await eventually { upstream.requestCount(path: "/page/items") > syncs + 6 })
        #expect(agent.state(of: "healthy") != "failed")
        #expect(agent.curl("GET", "/v1/resources/healthy").json["items"] as? Int == 30)

        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
        #expect(!stopped.stderr.contains("Fatal error"), "\(stopped.stderr)")
    }

    /// The `since` of the latest request to `path` after the first, as the server read it.
    func sentSince(_ upstream: TestUpstream, _ path: String) -> String? {
        let seen = upstream.requests.filter { $0.path == path }
        guard seen.count >= 2, let last = seen.last else { return nil }
        return URLComponents(string: "http://h/?" + last.query)?.queryItems?.first { $0.name == "since" }?.value
    }

    @Test func aContentLengthOf2p63IsRefusedAtOnceAndAFarRateLimitIsPolledWithinADay() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 30])
        defer { Task { await upstream.stop() } }
        upstream.inject(Fault(path: "/all/big", action: .contentLength("9223372036854775808")))
        upstream.inject(Fault(path: "/all/limited", action: .status(429, retryAfter: "100000000000000000000")))
        upstream.inject(Fault(path: "/all/odd", action: .status(429, retryAfter: "1e20")))
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            upstream.resource("healthy", style: "page", size: 10, extra: #""interval": "200ms""#),
            #"{"name": "big", "url": "\#(upstream.baseURL)/all/big", "key": "/id", "retry": {"maxAttempts": 4, "initialDelay": "100ms"}}"#,
            #"{"name": "limited", "url": "\#(upstream.baseURL)/all/limited", "key": "/id", "rateLimit": {"maxWait": "0s", "scope": "limited"}}"#,
            #"{"name": "odd", "url": "\#(upstream.baseURL)/all/odd", "key": "/id", "interval": "1h", "rateLimit": {"maxWait": "0s", "scope": "odd"}}"#,
        ])
        let started = Date()
        let agent = try await RunningAgent.start(in: workspace)

        // Past maxResponseSize as the header says: refused at once, not retried as a short body.
        #expect(try await eventually { agent.state(of: "big") == "failed" })
        let big = agent.curl("GET", "/v1/resources/big").json
        let message = (big["lastError"] as? [String: Any])?["message"] as? String ?? ""
        #expect(message.contains("its Content-Length is 9223372036854775808"), "\(message)")
        #expect(message.contains("larger than maxResponseSize"), "\(message)")
        #expect(upstream.requestCount(path: "/all/big") == 1)

        // A wait of 10^20 s counts as a day: the next poll is at most a day away.
        // (Each in a scope of its own, which it holds until then: not the healthy one's.)
        for name in ["limited", "odd"] {
            #expect(
                try await eventually {
                    (agent.curl("GET", "/v1/resources/\(name)").json["lastError"] as? [String: Any])?["kind"]
                        as? String == "rateLimited"
                })
            let shown = agent.curl("GET", "/v1/resources/\(name)").json
            let next = try #require((shown["nextSyncAt"] as? String).flatMap(Self.date), "\(name): \(shown)")
            #expect(next.timeIntervalSince(started) <= 86_400 + 120, "\(name): \(shown)")
            #expect(shown["state"] as? String == "idle", "\(name): \(shown)")
        }
        let limited = agent.curl("GET", "/v1/resources/limited").json
        let next = try #require((limited["nextSyncAt"] as? String).flatMap(Self.date))
        // The limit's own reset, not the usual interval (a minute): a day.
        #expect(next.timeIntervalSince(started) > 86_400 - 120, "\(limited)")

        let syncs = upstream.requestCount(path: "/page/items")
        #expect(try await eventually { upstream.requestCount(path: "/page/items") > syncs + 6 })
        let stopped = try await agent.stop()
        #expect(stopped.status == 0, "\(stopped.stderr)")
    }

    static func date(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text) ?? ISO8601DateFormatter().date(from: text)
    }
}
