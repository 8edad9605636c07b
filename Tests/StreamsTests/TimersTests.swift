import StreamsTesting
import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct TimersTests {
    @Test func runsEachActionAtItsDeadlineInDeadlineOrder() async {
        let clock = VirtualClock()
        let timers = Timers(clock: clock)
        let origin = clock.now
        let fired = Recorder<String>()
        let at = { (name: String) in { @Sendable in fired.record("\(name)@\(origin.duration(to: clock.now))") } }
        timers.schedule(after: .seconds(5), at("a"))
        timers.schedule(after: .seconds(6), at("b"))
        await clock.waitForSleepers(1)
        // A later deadline arms nothing; an earlier one arms a second sleeper.
        #expect(clock.sleeperCount == 1)
        timers.schedule(after: .seconds(2), at("c"))
        await clock.waitForSleepers(2)
        await clock.advance(by: .seconds(2))
        #expect(fired.values == ["c@2.0 seconds"])
        await clock.advance(by: .seconds(4))
        #expect(fired.values == ["c@2.0 seconds", "a@5.0 seconds", "b@6.0 seconds"])
        #expect(timers.count == 0)
        #expect(clock.sleeperCount == 0)
    }

    @Test func aCancelledActionNeverRunsAndTheSleeperGoesOnToTheNextDeadline() async {
        let clock = VirtualClock()
        let timers = Timers(clock: clock)
        let fired = Recorder<String>()
        let a = timers.schedule(after: .seconds(5)) { fired.record("a") }
        timers.schedule(after: .seconds(8)) { fired.record("b") }
        await clock.waitForSleepers(1)
        #expect(timers.cancel(a))
        #expect(!timers.cancel(a))
        // The sleeper still wakes at 5, finds nothing due and sleeps until 8.
        await clock.advance(by: .seconds(5))
        #expect(fired.values.isEmpty)
        #expect(clock.sleeperCount == 1)
        await clock.advance(by: .seconds(3))
        #expect(fired.values == ["b"])
    }

    @Test func cancellingAnActionThatRanSaysSo() async {
        let clock = VirtualClock()
        let timers = Timers(clock: clock)
        let fired = Recorder<Bool>()
        let token = timers.schedule(after: .seconds(1)) { fired.record(true) }
        await clock.waitForSleepers(1)
        await clock.advance(by: .seconds(1))
        #expect(fired.values == [true])
        #expect(!timers.cancel(token))
    }
}
