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
}
