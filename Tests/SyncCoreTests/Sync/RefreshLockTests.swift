import Foundation
import Streams
import StreamsTesting
import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct RefreshLockTests {
    let database = NSTemporaryDirectory() + "lock-" + UUID().uuidString + ".db"

    @Test func theLockFileSitsBesideTheDatabase() {
        #expect(
            RefreshLock(database: "/var/lib/sync-agent/sync-agent.db").path == "/var/lib/sync-agent/sync-agent.db.lock")
    }

    @Test func aFreeLockIsTakenWithoutWaiting() async throws {
        let lock = RefreshLock(database: database)
        defer { try? FileManager.default.removeItem(atPath: lock.path) }
        let held = try await lock.acquire("users")
        #expect(!held.waited)
        held.release()
    }

    @Test func aHeldLockIsRefusedUntilReleased() throws {
        // Two descriptions of the same file conflict like two processes would.
        let lock = RefreshLock(database: database)
        defer { try? FileManager.default.removeItem(atPath: lock.path) }
        let first = open(lock.path, O_RDWR | O_CREAT, 0o600)
        let second = open(lock.path, O_RDWR | O_CREAT, 0o600)
        defer { close(second) }
        let byte = RefreshLock.byte(for: "users")
        #expect(RefreshLock.lock(first, byte: byte) == .acquired)
        #expect(RefreshLock.lock(second, byte: byte) == .busy)
        #expect(RefreshLock.lock(second, byte: RefreshLock.byte(for: "groups")) == .acquired)
        close(first)
        #expect(RefreshLock.lock(second, byte: byte) == .acquired)
    }

    @Test func anAcquireWaitsForTheHolderAndSaysItWaited() async throws {
        let lock = RefreshLock(database: database)
        defer { try? FileManager.default.removeItem(atPath: lock.path) }
        let clock = VirtualClock()
        let holder = try await lock.acquire("users")
        let waiter = Task { try await lock.acquire("users", clock: clock) }
        // The waiter found the lock taken and sleeps until it tries again.
        await clock.waitForSleepers(1)
        holder.release()
        await clock.advance(by: RefreshLock.pollInterval)
        let held = try await waiter.value
        #expect(held.waited)
        held.release()
    }

    @Test func aWaitingAcquireCanBeCancelled() async throws {
        let lock = RefreshLock(database: database)
        defer { try? FileManager.default.removeItem(atPath: lock.path) }
        let clock = VirtualClock()
        let holder = try await lock.acquire("users")
        defer { holder.release() }
        let waiter = Task { try await lock.acquire("users", clock: clock) }
        await clock.waitForSleepers(1)
        waiter.cancel()
        await #expect(throws: CancellationError.self) { try await waiter.value }
    }

    @Test func eachResourceHasItsOwnByteAndByteZeroIsReserved() {
        let bytes = ["users", "groups", "orders", "a", "b"].map(RefreshLock.byte(for:))
        #expect(Set(bytes).count == 5)
        #expect(bytes.allSatisfy { $0 >= 1 })
        #expect(RefreshLock.byte(for: "users") == RefreshLock.byte(for: "users"))
    }
}

@Suite(.timeLimit(.minutes(1))) struct LocalRefreshTests {
    @Test func dependenciesComeInEarlierWaves() throws {
        let config = try decodeConfig(
            #"""
            {"resources": [
              \#(resource("members", url: "https://a.example/groups/{group:/id}/members")),
              \#(resource("group", url: "https://a.example/groups/{user:/groupId}")),
              \#(resource("user")),
              \#(resource("other"))
            ]}
            """#)
        let waves = LocalRefresh.waves(config.resources).map { $0.map(\.name) }
        #expect(waves == [["user", "other"], ["group"], ["members"]])
        let alone = LocalRefresh.waves(config.resources.filter { $0.name == "members" }).map { $0.map(\.name) }
        #expect(alone == [["members"]])
    }
}
