import Foundation
import Store
import StreamsTesting
import Testing

@testable import SyncCore

/// The schedule as a value: each transition from a given schedule, and what it
/// returns, with no clock, task or socket.
@Suite struct ScheduleTests {
    typealias Instant = VirtualClock.Instant

    static func at(_ seconds: Int) -> Instant { Instant(offset: .seconds(seconds)) }

    /// Resources polled every minute, all on `host`.
    static func resources(_ names: [String], host: String = "a.test") throws -> [ResourceConfig] {
        let text = names.map {
            #"{"name": "\#($0)", "url": "https://\#(host)/\#($0)", "key": "/id", "interval": "1m"}"#
        }
        let config = try ConfigLoader.decode(
            Array(#"{"resources": [\#(text.joined(separator: ","))]}"#.utf8), file: "/tmp/config.json",
            environment: [:])
        return config.resources
    }

    /// A schedule of `resources`, each due at once, at most `perHost` polls at once to a host.
    static func due(_ resources: [ResourceConfig], perHost: Int? = nil) -> Schedule<Instant> {
        var limits = SyncLimits()
        if let perHost { limits.perHost = perHost }
        var schedule = Schedule<Instant>(limits: limits)
        for resource in resources { schedule.schedule(resource, first: at(0), after: .zero) }
        return schedule
    }

    static func success(_ name: String, changed: Int = 0) -> SyncReport {
        SyncReport(
            SyncResult(resource: name, outcome: .success, changes: SnapshotChanges(changed: changed)))
    }

    @Test func aDuePollTakesASlotAndTheEndOfItsRunMovesTheNextPollAnIntervalOn() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users])
        let (start, _) = schedule.take(now: Self.at(0), online: true)
        let ticket = try #require(start.first)
        #expect(start.count == 1 && ticket.startup)
        let ended = schedule.ended(
            users, RunEnd(Self.success("users")), changed: false, ticket: ticket, at: Self.at(2), unit: 0)
        #expect(ended == Schedule.Ended(next: .some(Self.at(62))))
        // Not due again before its time; due at it.
        let value1 = schedule.take(now: Self.at(61), online: true)
        #expect(value1.start.isEmpty)
        let again = schedule.take(now: Self.at(62), online: true).start
        #expect(again.map(\.name) == ["users"] && again.first?.startup == false)
    }

    @Test func whileOfflineDuePollsQueueAndStartOnceOnline() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users])
        let value2 = schedule.take(now: Self.at(5), online: false)
        #expect(value2.start.isEmpty)
        let value3 = schedule.take(now: Self.at(6), online: true)
        #expect(value3.start.map(\.name) == ["users"])
    }

    @Test func pollsStartWithinTheLimitOfTheirHostAndTheNextTakesTheFreedSlot() throws {
        let three = try Self.resources(["a", "b", "c"])
        var schedule = Self.due(three, perHost: 2)
        let first = schedule.take(now: Self.at(0), online: true).start
        #expect(first.map(\.name) == ["a", "b"])
        _ = schedule.ended(three[0], .succeeded, changed: false, ticket: first[0], at: Self.at(1), unit: 0)
        let value4 = schedule.takeWake()
        #expect(value4)
        let value5 = schedule.take(now: Self.at(1), online: true)
        #expect(value5.start.map(\.name) == ["c"])
    }

    @Test func aRefreshAnswersAQueuedPollAndAFailureForGoodStopsThePolls() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users])
        _ = schedule.take(now: Self.at(0), online: false)
        // A refresh's run ends while the poll is queued: the poll is answered.
        let ended = schedule.ended(users, .stopped, changed: false, ticket: nil, at: Self.at(3), unit: 0)
        #expect(ended.next == .some(nil))
        let value6 = schedule.take(now: Self.at(3600), online: true)
        #expect(value6.start.isEmpty)
    }

    @Test func aPollThatJoinedAnotherRunGivesItsSlotBackWithoutMovingTheScheduleAgain() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users], perHost: 1)
        let taken = schedule.take(now: Self.at(0), online: true).start
        let ticket = try #require(taken.first)
        // The refresh it joined ends first, then the poll returns.
        let ended = schedule.ended(users, .succeeded, changed: false, ticket: nil, at: Self.at(4), unit: 0)
        #expect(ended.next == .some(Self.at(64)))
        let value7 = schedule.returned(ticket, ran: true, at: Self.at(4), unit: 0)
        #expect(value7 == nil)
        // The slot is free once, however often told.
        let value8 = schedule.returned(ticket, ran: true, at: Self.at(4), unit: 0)
        #expect(value8 == nil)
        let value9 = schedule.take(now: Self.at(64), online: true)
        #expect(value9.start.map(\.name) == ["users"])
    }

    @Test func aSkippedPollKeepsItsTimeUnlessItHasPassed() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users])
        let taken = schedule.take(now: Self.at(0), online: true).start
        let ticket = try #require(taken.first)
        // Its due time (0) has passed: the next poll is an interval after the skip.
        let value10 = schedule.returned(ticket, ran: false, at: Self.at(1), unit: 0)
        #expect(value10 == .some(Self.at(61)))
    }

    @Test func aRunOfAReplacedResourceIsNobodys() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users])
        var changed = users
        changed.settings.interval = .seconds(300)
        schedule.schedule(changed, first: Self.at(10), after: .seconds(10))
        let value11 = schedule.ended(users, .succeeded, changed: false, ticket: nil, at: Self.at(1), unit: 0)
        #expect(value11.next == nil)
        #expect(schedule.resource(named: "users") == changed)
    }

    @Test func aChangeIsFollowedOnceByTheResourcesThatReadIt() throws {
        let text = #"""
            {"resources": [
              {"name": "me", "url": "https://a.test/me", "key": "/id"},
              {"name": "group", "url": "https://a.test/groups/{me:/group}", "key": "/id"}
            ]}
            """#
        let resources = try ConfigLoader.decode(Array(text.utf8), file: "/tmp/config.json", environment: [:]).resources
        var schedule = Self.due(resources)
        let me = resources[0]
        let first = schedule.ended(me, .succeeded, changed: true, ticket: nil, at: Self.at(1), unit: 0)
        #expect(first.follow == ["group"])
        // Until it is followed, another change adds nothing.
        let value12 = schedule.ended(me, .succeeded, changed: true, ticket: nil, at: Self.at(2), unit: 0)
        #expect(value12.follow.isEmpty)
        let following = schedule.follow("group")
        let (resource, number) = try #require(following)
        #expect(resource.name == "group")
        let values = [resources[1].url.dependencies[0]: "g1"]
        let value13 = schedule.read(values, for: "group", number: number)
        #expect(value13)
        let value14 = schedule.read(values, for: "group", number: number)
        #expect(!value14)
        let value15 = schedule.ended(me, .succeeded, changed: true, ticket: nil, at: Self.at(3), unit: 0)
        #expect(value15.follow == ["group"])
    }

    @Test func aPollCancelledForARunThatStoppedThePollsLeavesThemStopped() throws {
        let users = try Self.resources(["users"])[0]
        var schedule = Self.due([users])
        let taken = schedule.take(now: Self.at(0), online: true).start
        let ticket = try #require(taken.first)
        // The poll's own run is cancelled for a newer one, which fails for good first.
        let ended = schedule.ended(users, .stopped, changed: false, ticket: nil, at: Self.at(2), unit: 0)
        #expect(ended.next == .some(nil))
        let returned = schedule.returned(ticket, ran: false, at: Self.at(3), unit: 0)
        #expect(returned == nil)
        let later = schedule.take(now: Self.at(3600), online: true).start
        #expect(later.isEmpty)
    }

    @Test func aPollsOwnRunEndingAfterItsReturnFreesNoSecondSlot() throws {
        let three = try Self.resources(["a", "b", "c"])
        var schedule = Self.due(three, perHost: 1)
        let taken = schedule.take(now: Self.at(0), online: true).start
        let ticket = try #require(taken.first)
        // The poll left (the agent stops) before its run ended: the slot is freed once.
        _ = schedule.returned(ticket, ran: false, at: Self.at(1), unit: 0)
        _ = schedule.ended(three[0], .succeeded, changed: false, ticket: ticket, at: Self.at(2), unit: 0)
        // One slot to the host: b starts, c waits for it.
        let next = schedule.take(now: Self.at(2), online: true).start
        #expect(next.map(\.name) == ["b"])
    }
}
