import Store
import Testing

@testable import SyncAgentDaemon
@testable import SyncCore

@Suite struct StatusLineTests {
    func status(_ name: String, _ state: ResourceState, slow: Bool = false) -> ResourceStatus {
        var status = ResourceStatus(name: name, row: nil)
        status.state = state
        status.slow = slow
        return status
    }

    @Test func countsTheStatesAndNamesTheSlowAndFailedOnes() {
        let line = StatusLine.summary([
            status("groups", .idle), status("users", .syncing, slow: true), status("orders", .idle),
        ])
        #expect(line == "3 resources: 2 idle, 1 syncing (users: taking longer than expected)")
        let failed = StatusLine.summary([status("users", .failed), status("groups", .retrying)])
        #expect(failed == "2 resources: 1 retrying, 1 failed (users: failed)")
    }

    @Test func aWaitingResourceSaysUntilWhen() {
        var issues = status("issues", .waiting, slow: true)
        issues.message = "rate limited until 10:42:07"
        #expect(
            StatusLine.summary([status("users", .idle), issues])
                == "2 resources: 1 idle, 1 waiting (issues: rate limited until 10:42:07)")
    }

    @Test func oneResourceIsSingular() {
        #expect(StatusLine.summary([status("users", .offline)]) == "1 resource: 1 offline")
    }
}
