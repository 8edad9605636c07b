import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct InFlightTests {
    struct Failed: Error {}

    @Test func callersWhileARunIsInFlightJoinIt() async throws {
        let clock = VirtualClock()
        let runs = Recorder<Int>()
        let inFlight = InFlight<String, Int>()
        let operation: @Sendable () async throws -> Int = {
            runs.record(runs.count + 1)
            try await clock.sleep(for: .seconds(5))
            return 42
        }
        let first = Task.inheritingExecutor { await inFlight.run("users", operation: operation) }
        await clock.waitForSleepers(1)
        let joiners = (0..<3).map { _ in Task.inheritingExecutor { await inFlight.run("users", operation: operation) } }
        await settle { inFlight.waiterCount("users") == 4 }
        await clock.advance(by: .seconds(5))
        let leader = await first.value
        #expect(try leader.get() == 42)
        #expect(!leader.joined)
        for joiner in joiners {
            let outcome = await joiner.value
            #expect(try outcome.get() == 42)
            #expect(outcome.joined)
        }
        #expect(runs.count == 1)
        #expect(!inFlight.isRunning("users"))
    }

    @Test func differentKeysRunApartAndAFinishedRunIsNotReused() async throws {
        let runs = Recorder<String>()
        let inFlight = InFlight<String, String>()
        async let a = inFlight.run("a") {
            runs.record("a"); return "A"
        }
        async let b = inFlight.run("b") {
            runs.record("b"); return "B"
        }
        #expect(try await a.get() == "A")
        #expect(try await b.get() == "B")
        let again = await inFlight.run("a") {
            runs.record("a"); return "A2"
        }
        #expect(try again.get() == "A2")
        #expect(!again.joined)
        #expect(runs.values.sorted() == ["a", "a", "b"])
    }

    @Test func everyWaiterGetsTheFailure() async {
        let clock = VirtualClock()
        let inFlight = InFlight<Int, Int>()
        let operation: @Sendable () async throws -> Int = {
            try await clock.sleep(for: .seconds(1))
            throw Failed()
        }
        let first = Task.inheritingExecutor { await inFlight.run(1, operation: operation) }
        await clock.waitForSleepers(1)
        let second = Task.inheritingExecutor { await inFlight.run(1, operation: operation) }
        await settle { inFlight.waiterCount(1) == 2 }
        await clock.advance(by: .seconds(1))
        for task in [first, second] {
            await #expect(throws: Failed.self) { try await task.value.get() }
        }
        #expect(await second.value.joined)
    }

    @Test func aLeavingCallerStopsWaitingWhileTheRunGoesOnForOthers() async throws {
        let clock = VirtualClock()
        let inFlight = InFlight<Int, Int>()
        let operation: @Sendable () async throws -> Int = {
            try await clock.sleep(for: .seconds(5))
            return 7
        }
        let leaves = Task.inheritingExecutor { await inFlight.run(1, operation: operation) }
        await clock.waitForSleepers(1)
        let stays = Task.inheritingExecutor { await inFlight.run(1, operation: operation) }
        await settle { inFlight.waiterCount(1) == 2 }
        leaves.cancel()
        await #expect(throws: CancellationError.self) { try await leaves.value.get() }
        await clock.advance(by: .seconds(5))
        #expect(try await stays.value.get() == 7)
    }

    @Test func anAbandonedRunIsCancelledUnlessToldToFinish() async throws {
        let clock = VirtualClock()
        let log = Recorder<String>()
        let operation: @Sendable () async throws -> Int = {
            do {
                try await clock.sleep(for: .seconds(5))
            } catch {
                log.record("cancelled")
                throw error
            }
            log.record("finished")
            return 1
        }
        let cancelling = InFlight<Int, Int>(policy: .cancelWhenAbandoned)
        let caller = Task.inheritingExecutor { await cancelling.run(1, operation: operation) }
        await clock.waitForSleepers(1)
        caller.cancel()
        _ = await caller.value
        await settle { log.values == ["cancelled"] }
        #expect(log.values == ["cancelled"])
        #expect(clock.sleeperCount == 0)
        await settle { !cancelling.isRunning(1) }
        #expect(!cancelling.isRunning(1))

        let finishing = InFlight<Int, Int>(policy: .runToCompletion)
        let other = Task.inheritingExecutor { await finishing.run(1, operation: operation) }
        await clock.waitForSleepers(1)
        other.cancel()
        _ = await other.value
        await clock.advance(by: .seconds(5))
        await settle { log.values.count == 2 }
        #expect(log.values == ["cancelled", "finished"])
    }
}
