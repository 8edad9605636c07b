import Foundation
import Logging
import Streams
import Synchronization
import Testing

@testable import SyncCore

@Suite struct StatePublicationTests {
    let start = Date(timeIntervalSince1970: 1_795_000_000)

    func publication(_ names: String...) -> StatePublication {
        StatePublication(
            machines: names.map { ResourceMachine(name: $0, row: nil, nextSyncAt: start) },
            logger: Logger(label: "test"))
    }

    @Test func eventsCausedByAWatcherAreDeliveredAfterTheOneItIsTold() async {
        let publication = publication("users")
        let told = Mutex<[String]>([])
        let id = publication.watch("users") { report in
            told.withLock { $0.append(report.eventName) }
            // A report that causes another: it is queued, not delivered inside this one.
            if case .progress = report { publication.handle("users", .slow(sync: 1)) }
        }
        publication.handle("users", .started(sync: 1, at: start))
        publication.handle("users", .progressed(sync: 1, SyncProgress(resource: "users", pages: 1, items: 1)))
        await publication.flush()
        #expect(told.withLock { $0 } == ["progress", "slow"])
        publication.unwatch("users", id)
        publication.handle(
            "users", .finished(sync: 1, SyncReport(SyncResult(resource: "users", outcome: .success)), at: start))
        await publication.flush()
        #expect(told.withLock { $0 } == ["progress", "slow"])
    }

    @Test func observersAreToldOfEachBatchOfStatusChangesThenOfTheEnd() async {
        let publication = publication("users")
        let told = Mutex<[Bool]>([])
        publication.observe { changed in told.withLock { $0.append(changed) } }
        publication.handle("users", .started(sync: 1, at: start))
        // A report that changes no status tells nothing.
        publication.handle("users", .progressed(sync: 1, SyncProgress(resource: "users", pages: 1, items: 1)))
        await publication.flush()
        #expect(told.withLock { $0 } == [true])
        publication.setOnline(false)
        await publication.flush()
        #expect(told.withLock { $0 } == [true, true])
        publication.finish()
        #expect(told.withLock { $0 } == [true, true, false])
        let late = Mutex<[Bool]>([])
        publication.observe { changed in late.withLock { $0.append(changed) } }
        #expect(late.withLock { $0 } == [false])
    }

    @Test func statusChangesArePublishedInOrderWithTheirVersion() async {
        let publication = publication("users", "groups")
        var changes = publication.changes.makeAsyncIterator()
        #expect(publication.version == 0)
        publication.handle("users", .started(sync: 1, at: start))
        publication.setOnline(false)
        publication.setOnline(false)
        #expect(publication.version == 2)
        let syncing = await changes.next()
        #expect(syncing?.version == 1 && syncing?.status.state == .syncing)
        let offline = await changes.next()
        #expect(offline?.version == 2 && offline?.status.state == .offline)
        #expect(await changes.next()?.status.name == "groups")
        #expect(publication.snapshot().version == 2)
        #expect(publication.statuses().map(\.state) == [.offline, .offline])
        publication.setOnline(true)
        #expect(publication.status(of: "users")?.state == .syncing)
        #expect(publication.status(of: "nope") == nil)
    }

    @Test func whatOfflineHidesIsNotPublished() async {
        let publication = publication("users")
        publication.handle("users", .started(sync: 1, at: start))
        publication.setOnline(false)
        let version = publication.version
        // A retry shows as a message, which offline covers: nothing to publish.
        let notice = RetryNotice(request: "GET /", cause: "offline", attempt: 1, maxAttempts: 5, delay: .seconds(1))
        publication.handle("users", .retrying(sync: 1, notice))
        #expect(publication.version == version)
        publication.setOnline(true)
        #expect(publication.status(of: "users")?.state == .retrying)
    }

    @Test func aSnapshotShowsEveryChangeUpToItsVersion() {
        let publication = publication("users")
        publication.handle("users", .started(sync: 1, at: start))
        let (version, statuses) = publication.snapshot()
        #expect(version == 1)
        #expect(statuses.map(\.state) == [.syncing])
    }

    @Test func changesSinceAVersionAreTheStatusesThatChangedAfterIt() {
        let publication = publication("a", "b", "c")
        let all = publication.changes(since: nil)
        #expect(all.version == 0)
        #expect(all.names == ["a", "b", "c"])
        #expect(all.changed.map(\.name) == ["a", "b", "c"])
        #expect(publication.changes(since: 0).changed.isEmpty)

        publication.handle("c", .started(sync: 1, at: start))
        publication.handle("a", .started(sync: 2, at: start))
        // A report that changes no status is no change.
        publication.handle("a", .progressed(sync: 2, SyncProgress(resource: "a", pages: 1, items: 1)))
        let two = publication.changes(since: 0)
        #expect(two.version == 2)
        #expect(two.changed.map(\.name) == ["a", "c"])
        #expect(two.changed.map(\.state) == [.syncing, .syncing])
        #expect(publication.changes(since: 1).changed.map(\.name) == ["a"])
        #expect(publication.changes(since: 2).changed.isEmpty)

        // Offline shows in every status.
        publication.setOnline(false)
        #expect(publication.changes(since: 2).changed.map(\.state) == [.offline, .offline, .offline])
        publication.setOnline(true)

        // A reload: b removed, d added, the order changed.
        let before = publication.version
        publication.setResources(
            ["c", "d", "a"], adding: [ResourceMachine(name: "d", row: nil, nextSyncAt: start)])
        let reloaded = publication.changes(since: before)
        #expect(reloaded.names == ["c", "d", "a"])
        #expect(reloaded.changed.map(\.name) == ["d"])
        #expect(reloaded.version == publication.version)
    }
}
