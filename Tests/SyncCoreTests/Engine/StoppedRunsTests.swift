import Foundation
import Store
import Streams
import StreamsTesting
import Testing

@testable import SyncCore

/// The agent starting marks the syncs a process left running as cut off
/// (docs/schema.md#running-finished-and-cut-off-rows), except one that
/// another process is running now.
@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct StoppedRunsTests {
    /// The first page of an incremental sync of `resource`: its row, running.
    func firstPage(_ resource: String, in store: any SyncStore) async throws -> Int64 {
        try await store.applyPage(
            IncrementalPage(
                resource: resource, scope: "", changes: [], cursor: SyncCursor(request: "r1"), run: nil,
                trigger: .poll, startedAt: EngineHarness.epoch.addingTimeInterval(-60))
        ).run
    }

    @Test func theAgentStartingCutsOffTheSyncsLeftRunningButNotOneARefreshIsRunning() async throws {
        let harness = try EngineHarness(
            resources: [scriptedResource("users"), scriptedResource("groups")], locking: true)
        let clock = harness.clock
        // No sync of the agent ends in this test: only the start writes.
        harness.transport.respond { _ in
            try await clock.sleep(for: .seconds(3600))
            return page([1])
        }
        let users = try await firstPage("users", in: harness.store)
        let groups = try await firstPage("groups", in: harness.store)
        // The sync of groups is a `refresh` running in another process: it holds the lock.
        let refresh = try #require(try harness.lock?.tryAcquire("groups"))
        defer { refresh.release() }

        let engine = harness.start()
        await harness.untilRequests(1, "users")
        let cut = try #require(try await harness.store.runs(of: "users", limit: 1).first)
        #expect(cut.id == users && cut.outcome == .cancelled && cut.error?.kind == .cancelled)
        #expect(cut.error?.message == "users: \(SyncRunRow.cutOffMessage)")
        #expect(cut.finishedAt != nil)
        #expect(try await harness.store.runningRuns().map(\.id) == [groups])
        let notices = harness.logs.messages.filter { $0.level == .notice }.map(\.message)
        #expect(
            notices == [
                "a sync was cut off when its process stopped; the next sync goes on from what it committed"
            ])
        engine.cancel()
        await engine.value
    }
}
