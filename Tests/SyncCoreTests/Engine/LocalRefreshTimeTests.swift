import Foundation
import Logging
import Store
import StreamsTesting
import Synchronization
import Testing

@testable import SyncCore

/// A standalone `refresh` (``LocalRefresh``) on virtual time: its retries, its
/// slow report and the times it stores read the clock and wall clock it is
/// given, not the system's.
@Suite(.timeLimit(.minutes(1))) struct LocalRefreshTimeTests {
    let clock = VirtualClock()
    let folder = NSTemporaryDirectory() + "sync-agent-local-refresh-" + UUID().uuidString
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    /// A refresh of one scripted resource whose retries wait 10 s, then 20 s.
    func refresh(
        _ transport: ScriptedTransport, onActivity: @escaping @Sendable (SyncActivity) -> Void = { _ in }
    ) throws -> (LocalRefresh, any SyncStore) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let text = #"""
            {"defaults": {"retry": {"initialDelay": "10s", "jitter": 0}, "slowAfter": "15s"},
             "resources": [\#(scriptedResource("users"))]}
            """#
        let config = try ConfigLoader.decode(Array(text.utf8), file: folder + "/config.json", environment: [:])
        let clock = clock
        let now: @Sendable () -> Date = { Self.epoch.addingTimeInterval(clock.now.offset.seconds) }
        // The store stamps a run's end with its own `now`, the refresh its start.
        let store = try SQLiteStore(path: config.database, now: now)
        let time = TimeSources(clock: clock, now: now, random: { 0.5 })
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        let refresh = LocalRefresh(
            config: config, store: store, transport: transport, logger: logger, time: time, onActivity: onActivity)
        return (refresh, store)
    }

    @Test func retriesWaitOnTheGivenClockAndTheRunIsStampedWithItsTime() async throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let transport = ScriptedTransport(clock: clock)
        let failures = Mutex(2)
        transport.respond { _ in
            let failing = failures.withLock { count in
                defer { count -= 1 }
                return count > 0
            }
            return failing ? ScriptedTransport.json("{}", status: 503) : page([1, 2])
        }
        let slow = Mutex(0)
        let (refresh, store) = try refresh(transport) { if case .slow = $0 { slow.withLock { $0 += 1 } } }

        let running = Task { await refresh.refresh(["users"]) }
        // Each retry waits for the clock: it moves only when the test moves it.
        await clock.waitForSleepers(2)  // the retry's backoff and the slow report's deadline
        #expect(transport.requests.map(\.at) == [.zero])
        await clock.advance(by: .seconds(10))
        while transport.requests.count < 2 { await Task.yield() }
        await clock.waitForSleepers(2)
        #expect(transport.requests.map(\.at) == [.zero, .seconds(10)])
        await clock.advance(by: .seconds(20))
        let results = await running.value

        #expect(results.map(\.outcome) == [.success])
        #expect(transport.requests.map(\.at) == [.zero, .seconds(10), .seconds(30)])
        // Slow after 15 s of virtual time, once.
        #expect(slow.withLock { $0 } == 1)
        let run = try #require(try await store.runs(of: "users", limit: 1).first)
        #expect(run.startedAt == Self.epoch)
        #expect(run.finishedAt == Self.epoch.addingTimeInterval(30))
    }
}
