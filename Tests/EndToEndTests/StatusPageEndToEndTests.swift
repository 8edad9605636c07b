import DemoUpstream
import Foundation
import TestUpstream
import Testing

/// The status page in a real browser (docs/observability.md#the-status-page):
/// headless Chromium, driven through chromedriver, against the real agent
/// and its HTTP listener. With `SYNC_AGENT_RECORD_SCREENSHOTS=1` the
/// screenshots go into `docs/images/`, for the docs.
@Suite(.serialized, .timeLimit(.minutes(5))) struct StatusPageEndToEndTests {
    static let token = "7c2f90e1d4b84a6fa3e5c1b0"

    /// An agent with `items` (its first sync held up 5 s by the upstream, so
    /// the page sees it syncing, and slow after 1 s) and `gone` (404: failed for good), and an
    /// HTTP listener with control on.
    func startAgent(upstream: TestUpstream) async throws -> (RunningAgent, String) {
        upstream.inject(Fault(path: "/page/items", times: 1, delay: .seconds(5)))
        upstream.inject(Fault(path: "/page/gone", action: .status(404)))
        let workspace = try Workspace()
        let port = unusedLoopbackPort()
        let credentials = try workspace.writeCredential("http-token", Self.token)
        try workspace.writeConfig(
            resources: [
                upstream.resource(
                    "items", style: "page", extra: #""interval": "1h", "slowAfter": "1s", "timeout": "20s""#),
                upstream.resource("gone", style: "page", collection: "gone"),
            ],
            extra: #""http": {"listen": "127.0.0.1:\#(port)", "control": true, "token": "${credential:http-token}"},"#)
        let agent = try await RunningAgent.start(in: workspace, environment: ["CREDENTIALS_DIRECTORY": credentials])
        return (agent, "http://127.0.0.1:\(port)/")
    }

    /// Where a screenshot goes: the folder `docs/images` when recording, else a temporary file.
    func screenshotPath(_ name: String) -> String {
        guard ProcessInfo.processInfo.environment["SYNC_AGENT_RECORD_SCREENSHOTS"] == "1" else {
            return NSTemporaryDirectory() + UUID().uuidString + "-" + name
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("docs/images/" + name).path
    }

    /// Records in `window.seen` each state `items` shows, `+slow` with its badge,
    /// as the page changes it: what a person watching would have seen, however
    /// briefly, whenever the test looks.
    static let recorder = #"""
        window.seen = [];
        const note = () => {
          const row = document.querySelector('tr[data-resource="items"]');
          const state = row.querySelector('.state').textContent + (row.querySelector('.badge.slow') ? '+slow' : '');
          if (window.seen[window.seen.length - 1] !== state) window.seen.push(state);
        };
        note();
        new MutationObserver(note).observe(document.querySelector('tbody'),
          { subtree: true, childList: true, characterData: true, attributes: true });
        window.notReloaded = true;
        return true;
        """#

    @Test func thePageFollowsSyncingThenIdleShowsAFailureAndRefreshes() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 40, "gone": 1])
        defer { Task { await upstream.stop() } }
        let browser = try await Browser.start(width: 1280, height: 640)
        defer { Task { await browser.quit() } }
        let (agent, page) = try await startAgent(upstream: upstream)
        defer { Task { _ = try? await agent.stop() } }

        try await browser.open(page)
        let items = #"tr[data-resource="items"]"#
        let gone = #"tr[data-resource="gone"]"#
        #expect(try await browser.evaluate(Self.recorder, as: Bool.self))
        #expect(try await browser.waitUntil { try await browser.attribute("body", "data-live") == "true" })
        func seen() async throws -> [String] { try await browser.evaluate("return window.seen;", as: [String].self) }

        // Syncing, slow, then idle with its records: told by the event stream, the page never reloaded.
        #expect(try await browser.waitUntil { try await browser.text("\(items) .state") == "idle" })
        let first = try await seen()
        #expect(first == ["syncing", "syncing+slow", "idle"], "\(first)")
        #expect(try await browser.waitUntil { try await browser.text("\(items) .items") == "40" })
        #expect(try await browser.text("\(items) .last-success")?.hasSuffix("s ago") == true)
        #expect(try await browser.waitUntil { try await browser.count("\(items) .spark svg polyline") == 1 })
        // Five more syncs (through the socket): the sparkline draws each, from the history.
        for _ in 0..<5 { #expect(agent.curl("POST", "/v1/resources/items/refresh").status == 200) }
        #expect(
            try await browser.waitUntil {
                let points = try await browser.attribute("\(items) .spark svg polyline", "points") ?? ""
                return points.split(separator: " ").count == 6
            })

        // The resource that failed before the page opened, with the API's answer.
        #expect(try await browser.text("\(gone) .state") == "failed")
        #expect(try await browser.text("\(gone) .badge.failed") == "needs a refresh")
        #expect(try await browser.text("\(gone) .error")?.contains("404") == true)
        try await browser.screenshot(to: screenshotPath("status-page.png"))

        // Refresh without the token asks for it; with a wrong one, it is refused: nothing is sent.
        let asked = upstream.requestCount(path: "/page/items")
        let refresh = #"button.refresh[data-resource="items"]"#
        try await browser.click(refresh)
        #expect(
            try await browser.waitUntil { try await browser.text("#message") == "enter the agent's token to refresh" })
        try await browser.type("#token", "not-the-token-0000000")
        try await browser.click(refresh)
        #expect(try await browser.waitUntil { try await browser.text("#message") == "the token was refused" })
        #expect(upstream.requestCount(path: "/page/items") == asked)

        // With it: the row syncs again and the result is shown.
        _ = try await browser.evaluate("window.seen = ['idle']; return true;", as: Bool.self)
        upstream.inject(Fault(path: "/page/items", times: 1, delay: .milliseconds(2500)))
        try await browser.clear("#token")
        try await browser.type("#token", Self.token)
        try await browser.click(refresh)
        #expect(
            try await browser.waitUntil {
                try await browser.text("#message")?.hasPrefix("items: notModified") == true
            })
        let refreshed = try await seen()
        #expect(refreshed == ["idle", "syncing", "syncing+slow", "idle"], "\(refreshed)")
        #expect(upstream.requestCount(path: "/page/items") > asked)

        // A failure while the page is open: the row shows it as it happens.
        upstream.inject(Fault(path: "/page/items", action: .status(404)))
        try await browser.click(refresh)
        #expect(try await browser.waitUntil { try await browser.text("\(items) .state") == "failed" })
        #expect(try await browser.text("\(items) .badge.failed") == "needs a refresh")
        #expect(try await browser.text("\(items) .error")?.contains("404") == true)
        #expect(try await browser.waitUntil { try await browser.text("#message")?.hasPrefix("items: failed") == true })
        #expect(try await browser.evaluate("return window.notReloaded === true;", as: Bool.self))
    }

    @Test func aResourceWithColumnsLinksToThemAndShowsAValueThatDoesNotFit() async throws {
        let nginx = try await Nginx.start()
        defer { nginx.stop() }
        let day = Date(timeIntervalSince1970: 1_790_000_000)
        try nginx.write(
            "counts.json", #"{"data": [{"id": 1, "n": 1}, {"id": 2, "n": 2}, {"id": 3, "n": 3}]}"#, modified: day)
        let browser = try await Browser.start(width: 1280, height: 640)
        defer { Task { await browser.quit() } }
        let workspace = try Workspace()
        let port = unusedLoopbackPort()
        let url = #""url": "\#(nginx.baseURL)/counts.json", "items": "/data", "key": "/id", "interval": "1h""#
        try workspace.writeConfig(
            resources: [
                #"{"name": "counts", \#(url), "columns": [{"name": "n", "pointer": "/n", "type": "integer"}]}"#,
                #"{"name": "plain", \#(url)}"#,
            ],
            extra: #""http": {"listen": "127.0.0.1:\#(port)"},"#)
        let agent = try await RunningAgent.start(in: workspace)
        defer { Task { _ = try? await agent.stop() } }
        let listener = "http://127.0.0.1:\(port)"
        #expect(try await eventually { agent.curl("GET", "/v1/resources/counts").json["items"] as? Int == 3 })

        // The page links the resource with columns to them, and the other to nothing.
        try await browser.open(listener + "/")
        #expect(try await browser.waitUntil { try await browser.attribute("body", "data-live") == "true" })
        let counts = #"tr[data-resource="counts"]"#
        #expect(try await browser.attribute("\(counts) .name a.columns", "href") == "/v1/resources/counts/columns")
        #expect(try await browser.count(#"tr[data-resource="plain"] a.columns"#) == 0)
        #expect(try await browser.count("\(counts) .badge.misfit") == 0)

        // The link's route answers the declaration, with each store's type; all values fit.
        let declared = RunningAgent.curl("GET", listener + "/v1/resources/counts/columns")
        #expect(declared.status == 200, "\(declared.body)")
        #expect(declared.json["resource"] as? String == "counts")
        #expect(declared.json["tables"] as? [String] == ["counts"])
        let column = (declared.json["columns"] as? [[String: Any]])?.first
        #expect(column?["name"] as? String == "n")
        #expect(column?["pointer"] as? String == "/n")
        #expect(column?["type"] as? String == "integer")
        #expect(column?["nullable"] as? Bool == true)
        #expect(column?["indexed"] as? Bool == false)
        #expect(column?["sqlite"] as? String == "INTEGER")
        #expect(column?["postgres"] as? String == "bigint")
        #expect((declared.json["lists"] as? [Any])?.isEmpty == true)
        #expect(declared.json["misfit"] is NSNull)
        let none = agent.curl("GET", "/v1/resources/plain/columns")
        #expect(none.status == 404)
        #expect((none.json["error"] as? [String: Any])?["code"] as? String == "no_columns")

        // Record 2's n becomes text: a refresh stores it as NULL and counts it.
        try nginx.write(
            "counts.json", #"{"data": [{"id": 1, "n": 1}, {"id": 2, "n": "two"}, {"id": 3, "n": 3}]}"#,
            modified: day.addingTimeInterval(60))
        let refreshed = agent.curl("POST", "/v1/resources/counts/refresh")
        #expect(refreshed.json["outcome"] as? String == "success", "\(refreshed.body)")
        #expect(refreshed.json["misfits"] as? Int == 1, "\(refreshed.body)")
        let status = agent.curl("GET", "/v1/resources/counts").json["columns"] as? [String: Any]
        #expect(status?["tables"] as? [String] == ["counts"])
        let misfit = status?["misfit"] as? [String: String]
        #expect(misfit == ["table": "counts", "column": "n", "key": "2", "pointer": "/n"])
        #expect(
            agent.curl("GET", "/metrics").body.contains(#"sync_agent_column_misfits_total{resource="counts"} 1"#))

        // The open page shows it as the event comes, and keeps the link.
        #expect(try await browser.waitUntil { try await browser.text("\(counts) .badge.misfit") == "misfit" })
        let title = "a value does not fit column counts.n and is stored as NULL (key 2, /n)"
        #expect(try await browser.attribute("\(counts) .badge.misfit", "title") == title)
        #expect(try await browser.attribute("\(counts) .name a.columns", "href") == "/v1/resources/counts/columns")
        #expect(try await browser.count("\(counts) .badge.misfit") == 1)
        // The page as served says the same before any script runs.
        let html = RunningAgent.curl("GET", listener + "/").body
        #expect(html.contains(#"counts <a class="columns" href="/v1/resources/counts/columns">columns</a>"#))
        #expect(html.contains(#"<span class="badge misfit" title="\#(title)">misfit</span>"#))
        // Following the link shows the declaration, now with its misfit.
        try await browser.click("\(counts) .name a.columns")
        #expect(
            try await browser.waitUntil { try await browser.currentURL() == listener + "/v1/resources/counts/columns" })
        #expect(try await browser.text("body")?.contains(#""pointer": "/n""#) == true)
        #expect(agent.curl("GET", "/v1/resources/counts/columns").json["misfit"] as? [String: String] == misfit)
    }

    @Test func onAPhoneEachResourceIsACardAndNothingScrollsSideways() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 40, "gone": 1])
        defer { Task { await upstream.stop() } }
        let browser = try await Browser.start(width: 375, height: 800)
        defer { Task { await browser.quit() } }
        let (agent, page) = try await startAgent(upstream: upstream)
        defer { Task { _ = try? await agent.stop() } }
        #expect(try await eventually { agent.state(of: "items") == "idle" && agent.state(of: "gone") == "failed" })

        try await browser.open(page)
        #expect(try await browser.evaluate("return window.innerWidth;", as: Int.self) == 375)
        #expect(
            try await browser.evaluate(
                "return document.documentElement.scrollWidth <= window.innerWidth;", as: Bool.self))
        #expect(
            try await browser.evaluate(
                #"return getComputedStyle(document.querySelector('tr[data-resource="items"]')).display;"#,
                as: String.self) == "block")
        #expect(try await browser.text(#"tr[data-resource="gone"] .state"#) == "failed")
        try await browser.screenshot(to: screenshotPath("status-page-phone.png"))
    }

    @Test func withoutJavaScriptThePageIsAPlainTable() async throws {
        let upstream = try await TestUpstream.start(collections: ["items": 40, "gone": 1])
        defer { Task { await upstream.stop() } }
        let browser = try await Browser.start(javaScript: false)
        defer { Task { await browser.quit() } }
        let (agent, page) = try await startAgent(upstream: upstream)
        defer { Task { _ = try? await agent.stop() } }
        #expect(try await eventually { agent.state(of: "items") == "idle" && agent.state(of: "gone") == "failed" })

        try await browser.open(page)
        #expect(try await browser.text(#"tr[data-resource="items"] .state"#) == "idle")
        #expect(try await browser.text(#"tr[data-resource="items"] .items"#) == "40")
        #expect(try await browser.text(#"tr[data-resource="gone"] .error"#)?.contains("404") == true)
        #expect(try await browser.text("noscript")?.contains("without JavaScript") == true)
        // No script ran: the stream never opened, and Refresh (which needs one) stays hidden.
        #expect(try await browser.attribute("body", "data-live") != "true")
        #expect(try await browser.text(#"button.refresh[data-resource="items"]"#) == "")
    }
}
