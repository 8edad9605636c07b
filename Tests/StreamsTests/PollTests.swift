import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct PollTests {
    struct Failed: Error {}

    /// Polls on `clock`, recording the virtual time of each run's start.
    final class Harness: Sendable {
        let clock = VirtualClock()
        let triggers = PassthroughSubject<Void, Never>()
        let starts = Recorder<Duration>()
        let outcomes: Recorder<Bool>

        init(outcomes: [Bool] = []) {
            self.outcomes = Recorder()
            for outcome in outcomes { self.outcomes.record(outcome) }
        }

        func sequence(
            interval: Duration = .seconds(60), firstRunAfter: Duration = .zero, runTime: Duration = .seconds(5),
            stopsAfter: @escaping @Sendable (any Error) -> Bool = { _ in true }
        ) -> AsyncPollSequence<Int, VirtualClock, PassthroughSubject<Void, Never>> {
            let origin = clock.now
            return poll(
                every: interval, clock: clock, firstRunAfter: firstRunAfter, triggers: triggers, stopsAfter: stopsAfter
            ) { [self] _ in
                let run = starts.count
                starts.record(origin.duration(to: clock.now))
                try await clock.sleep(for: runTime)
                let outcomes = self.outcomes.values
                if run < outcomes.count, !outcomes[run] { throw Failed() }
                return run
            }
        }
    }

    @Test func theIntervalCountsFromTheEndOfTheLastSuccess() async {
        let harness = Harness()
        let runs = Recorder<PollRun<Int>>()
        let consumer = Task.inheritingExecutor {
            for try await run in harness.sequence() {
                runs.record(run)
                if runs.count == 3 { break }
            }
        }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(65))
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(65))
        _ = await consumer.result
        // Runs take 5 s: each starts 60 s after the previous one ended.
        #expect(harness.starts.values == [.zero, .seconds(65), .seconds(130)])
        #expect(runs.values.map(\.reason) == [.scheduled, .scheduled, .scheduled])
    }

    @Test func theFirstRunWaitsWhenAsked() async {
        let harness = Harness()
        let consumer = Task.inheritingExecutor {
            for try await _ in harness.sequence(firstRunAfter: .seconds(30)) { break }
        }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(29))
        #expect(harness.starts.values.isEmpty)
        await harness.clock.advance(by: .seconds(6))
        _ = await consumer.result
        #expect(harness.starts.values == [.seconds(30)])
    }

    @Test func aTriggerRunsNowAndRestartsTheInterval() async {
        let harness = Harness()
        let runs = Recorder<PollReason>()
        let consumer = Task.inheritingExecutor {
            for try await run in harness.sequence() {
                runs.record(run.reason)
                if runs.count == 3 { break }
            }
        }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))  // first run done at 5 s; next due at 65 s
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(20))
        harness.triggers.send()  // at 25 s
        await settle { harness.starts.count == 2 }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))  // triggered run done at 30 s; next due at 90 s
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(59))
        #expect(harness.starts.count == 2)
        await harness.clock.advance(by: .seconds(6))
        _ = await consumer.result
        #expect(harness.starts.values == [.zero, .seconds(25), .seconds(90)])
        #expect(runs.values == [.scheduled, .triggered, .scheduled])
    }

    @Test func triggersDuringARunAreAnsweredByIt() async {
        let harness = Harness()
        let runs = Recorder<PollReason>()
        let consumer = Task.inheritingExecutor {
            for try await run in harness.sequence() {
                runs.record(run.reason)
                if runs.count == 2 { break }
            }
        }
        await settle { harness.starts.count == 1 }
        harness.triggers.send()
        harness.triggers.send()
        await settle { harness.triggers.storage.consumerCount == 1 }
        await letTasksRun()
        await harness.clock.advance(by: .seconds(5))
        await harness.clock.waitForSleepers(1)
        // No extra run: the next is the scheduled one.
        #expect(harness.starts.count == 1)
        await harness.clock.advance(by: .seconds(65))
        _ = await consumer.result
        #expect(runs.values == [.scheduled, .scheduled])
    }

    @Test func aFailureStopsPollingUntilATrigger() async {
        let harness = Harness(outcomes: [false, true])
        let runs = Recorder<Bool>()
        let consumer = Task.inheritingExecutor {
            for try await run in harness.sequence() {
                runs.record((try? run.result.get()) != nil)
                if runs.count == 2 { break }
            }
        }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))
        await letTasksRun()
        // Stopped: no sleeper, nothing due.
        await harness.clock.advance(by: .seconds(3600))
        #expect(harness.starts.count == 1)
        harness.triggers.send()
        await settle { harness.starts.count == 2 }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))
        _ = await consumer.result
        #expect(runs.values == [false, true])
        #expect(harness.starts.values == [.zero, .seconds(3605)])
    }

    @Test func aFailureThatDoesNotStopLeavesTheScheduleAlone() async {
        // Success at 0–5 s (next due at 65 s); a triggered run fails at 10–15 s:
        // the poll still comes at 65 s.
        let harness = Harness(outcomes: [true, false, true])
        let runs = Recorder<Bool>()
        let consumer = Task.inheritingExecutor {
            for try await run in harness.sequence(stopsAfter: { _ in false }) {
                runs.record((try? run.result.get()) != nil)
                if runs.count == 3 { break }
            }
        }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))
        harness.triggers.send()
        await settle { harness.starts.count == 2 }
        await harness.clock.waitForSleepers(1)
        await harness.clock.advance(by: .seconds(5))
        await settle { harness.clock.sleeperCount == 1 }
        await harness.clock.advance(by: .seconds(50))
        await settle { harness.starts.count == 3 }
        await harness.clock.advance(by: .seconds(5))
        _ = await consumer.result
        #expect(harness.starts.values == [.zero, .seconds(10), .seconds(65)])
        #expect(runs.values == [true, false, true])
    }

    struct Deferred: PollDeferral {
        var runAgainAfter: Duration
    }

    @Test func aDeferralMovesTheNextRunToItsTime() async {
        // The first run fails at 0–5 s asking for the next run 2 h later: not
        // an interval after it, nor stopped.
        let harness = Harness()
        let runs = Recorder<PollRun<Int>>()
        let failures = Recorder<Int>()
        let clock = harness.clock
        let origin = clock.now
        let sequence = poll(
            every: .seconds(60), clock: clock, triggers: harness.triggers, stopsAfter: { _ in false }
        ) { _ in
            try await clock.sleep(for: .seconds(5))
            if failures.count == 0 {
                failures.record(1)
                throw Deferred(runAgainAfter: .seconds(7200))
            }
            return Int(origin.duration(to: clock.now).components.seconds)
        }
        let consumer = Task.inheritingExecutor {
            for try await run in sequence {
                runs.record(run)
                if runs.count == 2 { break }
            }
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(5))
        await settle { runs.count == 1 }
        #expect(runs.values.first?.nextRunIn == .seconds(7200))
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(7199))
        #expect(runs.count == 1)
        await clock.advance(by: .seconds(1))
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(5))
        _ = await consumer.result
        #expect((try? runs.values.last?.result.get()) == 7210)
    }

    @Test func cancellingTheConsumerCancelsTheWaitAndTheRun() async {
        let harness = Harness()
        let waiting = Task.inheritingExecutor { for try await _ in harness.sequence(firstRunAfter: .seconds(10)) {} }
        await harness.clock.waitForSleepers(1)
        waiting.cancel()
        _ = await waiting.result
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.starts.values.isEmpty)

        let running = Task.inheritingExecutor { for try await _ in harness.sequence() {} }
        await harness.clock.waitForSleepers(1)
        #expect(harness.starts.count == 1)
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        await letTasksRun()
        #expect(harness.clock.sleeperCount == 0)
        #expect(harness.triggers.storage.consumerCount == 0)
    }

    @Test func jitterAddsUpToItsLength() async {
        let clock = VirtualClock()
        let starts = Recorder<Duration>()
        let origin = clock.now
        let sequence = poll(
            every: .seconds(60), jitter: .seconds(10), clock: clock, triggers: PassthroughSubject<Void, Never>(),
            random: { 0.5 }
        ) { _ in starts.record(origin.duration(to: clock.now)) }
        let consumer = Task.inheritingExecutor {
            var count = 0
            for try await _ in sequence {
                count += 1
                if count == 2 { break }
            }
        }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(65))
        _ = await consumer.result
        #expect(starts.values == [.zero, .seconds(65)])
    }
}

@Suite struct PollScheduleTests {
    let start = VirtualClock().now

    @Test func successSetsTheNextRunAnIntervalAfterItsEnd() {
        var schedule = PollSchedule(interval: .seconds(60), jitter: .seconds(10), firstRun: start)
        schedule.succeeded(at: start.advanced(by: .seconds(5)), unit: 0.25)
        #expect(schedule.due == start.advanced(by: .milliseconds(67_500)))
    }

    @Test func failuresStopOrLeaveTheClockAlone() {
        var schedule = PollSchedule(interval: .seconds(60), jitter: .zero, firstRun: start)
        schedule.succeeded(at: start, unit: 0)
        schedule.failed(at: start.advanced(by: .seconds(10)), stop: false)
        #expect(schedule.due == start.advanced(by: .seconds(60)))
        schedule.failed(at: start.advanced(by: .seconds(70)), stop: false)
        #expect(schedule.due == start.advanced(by: .seconds(130)))
        schedule.failed(at: start.advanced(by: .seconds(80)), stop: true)
        #expect(schedule.due == nil)
        #expect(schedule.stopped)
        schedule.succeeded(at: start.advanced(by: .seconds(90)), unit: 0)
        #expect(!schedule.stopped)
        #expect(schedule.due == start.advanced(by: .seconds(150)))
    }
}
