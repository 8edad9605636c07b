import Foundation
import Logging
import Testing

@testable import Store
@testable import SyncAgentDaemon
@testable import SyncCore

/// The status page's HTML (docs/observability.md#the-status-page); the page in a
/// browser is the end-to-end tests'.
@Suite struct StatusPageTests {
    @Test func thePageEscapesWhatItShows() {
        var status = ResourceStatus(name: "users", state: .failed)
        status.message = #"taking <longer> than "expected" 'now'"#
        status.lastError = StoredError(
            kind: .unrecoverable, message: #"<script>alert("x")</script> & more"#, status: 400)
        let html = StatusPage.render(
            StatusPage.Input(
                agent: AgentInfo(version: "1", pid: 1, startedAt: Date(), online: true), resources: [status],
                durations: ["users": [.init(milliseconds: 120, failed: false), .init(milliseconds: 80, failed: true)]],
                control: false, now: Date()))
        #expect(!html.contains("<script>alert") && !html.contains("<longer>") && !html.contains("'now'"))
        #expect(html.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more"))
    }

    @Test func aResourceWithColumnsLinksToThemAndAMisfitIsABadge() {
        var orders = ResourceStatus(name: "orders", state: .idle)
        orders.columns = ColumnsStatus(
            tables: ["orders", "orders__lines"],
            misfit: ColumnMisfit(table: "orders__lines", column: "qty", key: "<7>", pointer: "/lines/2/qty"))
        var fitting = ResourceStatus(name: "fitting", state: .idle)
        fitting.columns = ColumnsStatus(tables: ["fitting"])
        let plain = ResourceStatus(name: "plain", state: .idle)
        let html = StatusPage.render(
            StatusPage.Input(
                agent: AgentInfo(version: "1", pid: 1, startedAt: Date(), online: true),
                resources: [orders, fitting, plain], durations: [:], control: false, now: Date()))
        func row(_ name: String) -> Substring {
            let start = html.range(of: "<tr data-resource=\"\(name)\"")!
            return html[start.lowerBound..<html[start.lowerBound...].range(of: "</tr>")!.upperBound]
        }
        #expect(
            row("orders").contains(
                #"<td class="name" data-label="Resource">orders <a class="columns" href="/v1/resources/orders/columns">"#
                    + "columns</a></td>"))
        #expect(
            row("orders").contains(
                #"<span class="badge misfit" title="a value does not fit column orders__lines.qty and is stored "#
                    + #"as NULL (key &lt;7&gt;, /lines/2/qty)">misfit</span>"#))
        #expect(row("fitting").contains(#"href="/v1/resources/fitting/columns""#))
        #expect(!row("fitting").contains("misfit"))
        #expect(row("plain").contains(#"<td class="name" data-label="Resource">plain</td>"#))
        // The template the script fills for a new resource has no link of its own.
        #expect(html.components(separatedBy: "class=\"columns\"").count == 3)
    }
}
