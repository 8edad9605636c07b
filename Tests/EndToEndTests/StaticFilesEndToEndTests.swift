import Foundation
import Testing

/// A static-file API on Debian's nginx: three JSON files chained by relative
/// `next` links, each with its own ETag. Every page is revalidated, so a
/// change to the last file alone reaches the copy, at one request per page.
@Suite(.timeLimit(.minutes(5))) struct StaticFilesEndToEndTests {
    /// Page `number` of three, with items `ids`, linking to the next file by a relative URL.
    func page(_ number: Int, _ ids: ClosedRange<Int>, revision: Int = 1) -> String {
        let items = ids.map { #"{"id": \#($0), "name": "item \#($0)", "revision": \#(revision)}"# }
        let next = number < 3 ? #""page\#(number + 1).json""# : "null"
        return #"{"items": [\#(items.joined(separator: ", "))], "next": \#(next)}"#
    }

    @Test func aChangeToALaterFileReachesTheCopyAndUnchangedFilesAnswer304() async throws {
        let nginx = try await Nginx.start()
        defer { nginx.stop() }
        let day = Date(timeIntervalSince1970: 1_790_000_000)
        try nginx.write("page1.json", page(1, 1...10), modified: day)
        try nginx.write("page2.json", page(2, 11...20), modified: day)
        try nginx.write("page3.json", page(3, 21...25), modified: day)
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "catalog", "url": "\#(nginx.baseURL)/page1.json", "items": "/items", "key": "/id",
             "pagination": {"style": "nextUrl", "next": "/next"}}
            """#
        ])

        let first = try await workspace.run(["refresh", "--json"])
        #expect(first.status == 0, "\(first.stdout)\n\(first.stderr)")
        #expect(try workspace.value("SELECT count(*) FROM records") == "25")

        let second = try await workspace.run(["refresh", "--json"])
        #expect(second.stdout.contains(#""outcome": "notModified""#), "\(second.stdout)")

        // The last file changes: item 25 changes, 24 is gone, 26 is new.
        var last = page(3, 21...23)
        last = last.replacingOccurrences(
            of: "]",
            with: #", {"id": 25, "name": "item 25", "revision": 2}, {"id": 26, "name": "item 26", "revision": 1}]"#)
        try nginx.write("page3.json", last, modified: day.addingTimeInterval(60))
        let times = try workspace.updateTimes("catalog")
        let third = try await workspace.run(["refresh", "--json"])

        #expect(third.status == 0, "\(third.stdout)\n\(third.stderr)")
        #expect(third.stdout.contains(#""outcome": "success""#), "\(third.stdout)")
        let statuses = nginx.requests().map { "\($0.path) \($0.status)" }
        #expect(
            statuses == [
                "/page1.json 200", "/page2.json 200", "/page3.json 200",
                "/page1.json 304", "/page2.json 304", "/page3.json 304",
                "/page1.json 304", "/page2.json 304", "/page3.json 200",
            ])
        let records = try workspace.records("catalog")
        #expect(records.keys.map { Int($0)! }.sorted() == Array(1...23) + [25, 26])
        #expect(records["25"]?.contains(#""revision":2"#) == true)
        // Records of the unchanged files kept their time.
        let after = try workspace.updateTimes("catalog")
        #expect((1...23).allSatisfy { after["\($0)"] == times["\($0)"] })
        #expect(after["25"] != times["25"])
    }

    @Test func gzippedPagesAreDecodedAndMoveFarFewerBytesAndABombIsRefused() async throws {
        let nginx = try await Nginx.start(gzip: true)
        defer { nginx.stop() }
        let day = Date(timeIntervalSince1970: 1_790_000_000)
        var plain = 0
        for number in 1...3 {
            let text = page(number, (number - 1) * 1000 + 1...number * 1000)
            plain += text.utf8.count
            try nginx.write("page\(number).json", text, modified: day)
        }
        // 20 MiB of spaces, 20 KiB gzipped: served as is to a client that accepts gzip.
        try nginx.write("bomb.json", "{}", modified: day)
        let bomb = Process()
        bomb.executableURL = URL(fileURLWithPath: "/bin/sh")
        bomb.arguments = ["-c", "head -c 20971520 /dev/zero | tr '\\0' ' ' | gzip -9 > '\(nginx.root)/bomb.json.gz'"]
        try bomb.run()
        bomb.waitUntilExit()
        let workspace = try Workspace()
        try workspace.writeConfig(resources: [
            #"""
            {"name": "catalog", "url": "\#(nginx.baseURL)/page1.json", "items": "/items", "key": "/id",
             "pagination": {"style": "nextUrl", "next": "/next"}}
            """#,
            // A header of the resource's own: decoded all the same.
            #"""
            {"name": "again", "url": "\#(nginx.baseURL)/page1.json", "items": "/items", "key": "/id",
             "headers": {"Accept-Encoding": "gzip"}, "pagination": {"style": "nextUrl", "next": "/next"}}
            """#,
            #"{"name": "bomb", "url": "\#(nginx.baseURL)/bomb.json", "items": "", "key": "/id", "maxResponseSize": "1MiB"}"#,
        ])

        let result = try await workspace.run(["refresh", "--json"])

        #expect(try workspace.value("SELECT count(*) FROM records WHERE resource = 'catalog'") == "3000")
        #expect(try workspace.value("SELECT count(*) FROM records WHERE resource = 'again'") == "3000")
        #expect(result.stdout.contains("once decompressed"), "\(result.stdout)")
        #expect(try workspace.value("SELECT state FROM resources WHERE name = 'bomb'") == "failed")
        // The history tells both sizes.
        let run = try workspace.query("SELECT bytes, wire_bytes FROM sync_runs WHERE resource = 'catalog'")
        let (decoded, onWire) = (Int(run.first?[0] ?? "") ?? 0, Int(run.first?[1] ?? "") ?? 0)
        #expect(decoded == plain && onWire > 0 && onWire * 5 <= decoded, "\(run)")
        let history = try await workspace.run(["history", "catalog", "--json"])
        #expect(history.stdout.contains(#""wireBytes": \#(onWire)"#), "\(history.stdout)")
        let sent = nginx.requests().filter { $0.path.hasPrefix("/page") }
        #expect(sent.count == 6)
        let wire = sent.prefix(3).map(\.bytes).reduce(0, +)
        print("3 pages of JSON: \(plain) bytes as files, \(wire) bytes on the wire (\(plain / max(wire, 1))x less)")
        #expect(wire * 5 <= plain, "\(plain) bytes as files, \(wire) on the wire")
    }

    @Test func aPrivateCAIsTrustedOnlyWhenConfiguredAndAClientCertificateIsShown() async throws {
        let ca = try PrivateCA()
        let nginx = try await Nginx.start(tls: ca)
        defer { nginx.stop() }
        let day = Date(timeIntervalSince1970: 1_790_000_000)
        try nginx.write("page3.json", page(3, 1...5), modified: day)
        try FileManager.default.createDirectory(atPath: nginx.root + "/private", withIntermediateDirectories: true)
        try nginx.write("private/page3.json", page(3, 1...7), modified: day)
        let workspace = try Workspace()
        func config(_ tls: String) throws {
            try workspace.writeConfig(resources: [
                #"{"name": "open", "url": "\#(nginx.baseURL)/page3.json", "items": "/items", "key": "/id"\#(tls)}"#,
                #"{"name": "private", "url": "\#(nginx.baseURL)/private/page3.json", "items": "/items", "key": "/id"\#(tls)}"#,
            ])
        }

        // Untrusted: the message names the host, the cause and the way out.
        try config("")
        let untrusted = try await workspace.run(["refresh", "open", "--json"])
        #expect(untrusted.status == 1)
        #expect(
            untrusted.stdout.contains(
                #"the certificate of 127.0.0.1 (\"CN=127.0.0.1\") is issued by \"CN=sync-agent test CA\", "#
                    + "which this machine does not trust (tls.caFile trusts a private CA"), "\(untrusted.stdout)")

        // Trusted through SSL_CERT_FILE, as curl and OpenSSL read it.
        let byEnvironment = try await workspace.run(
            ["refresh", "open", "--json"], environment: ["SSL_CERT_FILE": ca.caFile])
        #expect(byEnvironment.status == 0, "\(byEnvironment.stdout)")

        // Trusted through tls.caFile; the private files want the client certificate.
        try config(#", "tls": {"caFile": "\#(ca.caFile)"}"#)
        let noClient = try await workspace.run(["refresh", "--json"])
        #expect(noClient.stdout.contains("the server answered 403"), "\(noClient.stdout)")
        try config(
            #", "tls": {"caFile": "\#(ca.caFile)", "clientCertificate": "\#(ca.clientCertificate)", "clientKey": "\#(ca.clientKey)"}"#
        )
        let both = try await workspace.run(["refresh", "--json"])
        #expect(both.status == 0, "\(both.stdout)")
        #expect(try workspace.value("SELECT count(*) FROM records WHERE resource = 'private'") == "7")
    }

    @Test func manyResourcesOnOneHostShareOneHTTP2ConnectionWithinTheSyncLimits() async throws {
        let ca = try PrivateCA()
        let nginx = try await Nginx.start(tls: ca)
        defer { nginx.stop() }
        let day = Date(timeIntervalSince1970: 1_790_000_000)
        let count = 200
        for index in 0..<count { try nginx.write("store-\(index).json", page(3, 1...3), modified: day) }
        let workspace = try Workspace()
        try workspace.writeConfig(
            resources: (0..<count).map {
                #"{"name": "store-\#($0)", "url": "\#(nginx.baseURL)/store-\#($0).json", "items": "/items", "key": "/id", "interval": "1h", "tls": {"caFile": "\#(ca.caFile)"}}"#
            }, extra: #""maxConcurrentSyncs": 16, "maxConcurrentSyncsPerHost": 4,"#)
        let agent = try await RunningAgent.start(in: workspace)
        let synced = try await eventually(timeout: .seconds(60)) {
            (try? workspace.value("SELECT count(*) FROM resources WHERE last_success_at IS NOT NULL")) == "\(count)"
        }
        _ = try await agent.stop()
        #expect(synced)
        let requests = nginx.requests()
        let connections = Set(requests.map(\.connection)).count
        print("\(count) resources on one host: \(requests.count) requests on \(connections) connections")
        #expect(requests.count == count)
        #expect(requests.allSatisfy { $0.protocolVersion == "HTTP/2.0" && $0.status == 200 })
        // One HTTP/2 connection carries every sync (a second may open while the first is being made).
        #expect(connections <= 2, "\(connections) connections")
        // At most 4 syncs at once to the host: the history shows no more overlapping.
        let runs = try workspace.query("SELECT started_at, finished_at FROM sync_runs")
        let overlap = runs.map { run in runs.filter { $0[0] <= run[0] && run[0] < $0[1] }.count }.max() ?? 0
        #expect(runs.count == count && overlap <= 4, "\(overlap) syncs at once")
    }

    @Test func anExpiredCertificateOrOneForAnotherNameIsRefusedWithItsCauseAndServerNameNamesTheOneToExpect()
        async throws
    {
        let ca = try PrivateCA()
        let workspace = try Workspace()
        for (certificate, cause) in [
            ("expired", #"the certificate of 127.0.0.1 (\"CN=127.0.0.1\") expired on 2024-01-02 00:00 UTC"#),
            ("internal", #"the certificate of 127.0.0.1 is issued for \"CN=api.internal\", not for 127.0.0.1"#),
        ] {
            let nginx = try await Nginx.start(tls: ca, certificate: certificate)
            defer { nginx.stop() }
            try nginx.write("page3.json", page(3, 1...5), modified: Date(timeIntervalSince1970: 1_790_000_000))
            try workspace.writeConfig(resources: [
                #"""
                {"name": "open", "url": "\#(nginx.baseURL)/page3.json", "items": "/items", "key": "/id",
                 "tls": {"caFile": "\#(ca.caFile)"}}
                """#
            ])
            let refused = try await workspace.run(["refresh", "open", "--json"])
            #expect(refused.status == 1)
            #expect(refused.stdout.contains(cause), "\(refused.stdout) \(refused.stderr)")
            #expect(try workspace.value("SELECT state FROM resources WHERE name = 'open'") == "failed")
            guard certificate == "internal" else { continue }
            // Reached by its address, the server is expected under the name its certificate carries.
            try workspace.writeConfig(resources: [
                #"""
                {"name": "open", "url": "\#(nginx.baseURL)/page3.json", "items": "/items", "key": "/id",
                 "tls": {"caFile": "\#(ca.caFile)", "serverName": "api.internal"}}
                """#
            ])
            let named = try await workspace.run(["refresh", "open", "--json"])
            #expect(named.status == 0, "\(named.stdout)")
            #expect(nginx.requests().last?.host == "api.internal")
        }
    }
}
