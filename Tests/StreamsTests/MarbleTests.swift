import Testing

@testable import StreamsTesting

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct MarbleTests {
    @Test func playsAndRecordsADiagram() async {
        let clock = VirtualClock()
        #expect(await Marble.record(Marble.sequence("-a--b-|", clock: clock), clock: clock, ticks: 8) == "-a--b-|")
        #expect(await Marble.record(Marble.sequence("(ab)-c#", clock: clock), clock: clock, ticks: 5) == "(ab)-c#")
    }

    @Test func parsesGroupsEndsAndFailures() {
        let events = Marble.parse("-a(bc)-|")
        #expect(events.map(\.tick) == [1, 2, 2, 4])
        #expect(events.map(\.event) == [.element("a"), .element("b"), .element("c"), .end])
    }

    @Test func recordingStopsAnEndlessSequence() async {
        let clock = VirtualClock()
        #expect(await Marble.record(Marble.sequence("a---------b", clock: clock), clock: clock, ticks: 3) == "a")
        #expect(clock.sleeperCount == 0)
    }
}
