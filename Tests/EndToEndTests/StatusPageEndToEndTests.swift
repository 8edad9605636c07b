import Foundation
import TestUpstream
import Testing

/// The status page in a real browser (docs/observability.md#the-status-page):
/// headless Chromium, driven through chromedriver, against the real agent
/// and its HTTP listener. With `SYNC_AGENT_RECORD_SCREENSHOTS=1` the
/// screenshots go into `docs/images/`, for the docs.
@Suite(.timeLimit(.minutes(5))) struct StatusPageEndToEndTests {
    static let token = "7c2f90e1d4b84a6fa3e5c1b0"

    /// An agent with `items` (its first sync held up 3 s by the upstream, so
    /// the page sees it syncing) and `gone` (404: failed for good), and an
    /// HTTP listener with control on.
    func startAgent(upstream: TestUpstream) async throws -> (RunningAgent, String) {
        upstream.inject(Fault(path: "/page/items", times: 1, delay: .seconds(3)))
        upstream.inject(Fault(path: "/page/gone", action: .status(404)))
        let workspace = try Workspace()
        let port = unusedLoopbackPort()
        let credentials = try workspace.writeCredential("http-token", Self.token)
        try workspace.writeConfig(
            resources: [
                upstream.resource("items", style: "page", extra: #""interval": "1h", "slowAfter": "1s""#),
                upstream.resource("gone", style: "page", collection: "gone"),
            ],
            extra: #""http": {"listen": "127.0.0.1:\#(port)", "control": true, "token": "${credential:http-token}"},"#)
        let agent = try await RunningAgent.start(in: workspace, environment: ["CREDENTIALS_DIRECTORY": credentials])
        return (agent, "http://127.0.0.1:\(port)/")
    }

    /// Where a screenshot goes: `docs/images/NAME` when recording, else a temporary file.
    func screenshotPath(_ name: String) -> String {
        guard ProcessInfo.processInfo.environment["SYNC_AGENT_RECORD_SCREENSHOTS"] == "1" else {
            return NSTemporaryDirectory() + UUID().uuidString + "-" + name
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent("docs/images/" + name).path
    }

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
        #expect(try await browser.text("\(items) .state") == "syncing")
        #expect(try await browser.waitUntil { try await browser.attribute("body", "data-live") == "true" })
        // A mark the page keeps only while it is not reloaded.
        #expect(try await browser.evaluate("window.notReloaded = true; return true;", as: Bool.self))

        // Slow, then idle with its records: told by the event stream.
        #expect(try await browser.waitUntil { try await browser.count("\(items) .badge.slow") == 1 })
        #expect(try await browser.waitUntil { try await browser.text("\(items) .state") == "idle" })
        #expect(try await browser.waitUntil { try await browser.text("\(items) .items") == "40" })
        #expect(try await browser.count("\(items) .badge.slow") == 0)
        #expect(try await browser.text("\(items) .last-success")?.hasSuffix("s ago") == true)
        #expect(try await browser.waitUntil { try await browser.count("\(items) .spark svg polyline") == 1 })
        // Five more syncs (through the socket): the sparkline draws each, from the history.
        for _ in 0..<5 { #expect(agent.curl("POST", "/v1/resources/items/refresh").status == 200) }
        #expect(
            try await browser.waitUntil {
                let points = try await browser.attribute("\(items) .spark svg polyline", "points") ?? ""
                return points.split(separator: " ").count == 6
            })
        #expect(try await browser.evaluate("return window.notReloaded === true;", as: Bool.self))

        // The failure, with the API's answer.
        #expect(try await browser.waitUntil { try await browser.text("\(gone) .state") == "failed" })
        #expect(try await browser.text("\(gone) .badge.failed") == "needs a refresh")
        #expect(try await browser.text("\(gone) .error")?.contains("404") == true)
        try await browser.screenshot(to: screenshotPath("status-page.png"))

        // A refresh without the token asks for it and sends nothing.
        let asked = upstream.requestCount(path: "/page/items")
        try await browser.click(#"button.refresh[data-resource="items"]"#)
        #expect(try await browser.waitUntil { try await browser.text("#message")?.contains("token") == true })
        #expect(upstream.requestCount(path: "/page/items") == asked)

        // With it: the row syncs again and the result is shown.
        upstream.inject(Fault(path: "/page/items", times: 1, delay: .milliseconds(1500)))
        try await browser.type("#token", Self.token)
        try await browser.click(#"button.refresh[data-resource="items"]"#)
        #expect(try await browser.waitUntil { try await browser.text("\(items) .state") == "syncing" })
        #expect(try await browser.waitUntil { try await browser.text("\(items) .state") == "idle" })
        #expect(
            try await browser.waitUntil {
                let message = try await browser.text("#message") ?? ""
                return message.hasPrefix("items: notModified") || message.hasPrefix("items: success")
            })
        #expect(upstream.requestCount(path: "/page/items") > asked)
        #expect(try await browser.evaluate("return window.notReloaded === true;", as: Bool.self))
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
