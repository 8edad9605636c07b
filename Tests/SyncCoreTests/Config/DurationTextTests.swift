import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct DurationTextTests {
    @Test(arguments: [
        ("500ms", Duration.milliseconds(500)), ("30s", .seconds(30)), ("5m", .seconds(300)), ("1h", .seconds(3600)),
        ("1m30s", .seconds(90)), ("1.5s", .milliseconds(1500)), ("2d", .seconds(172_800)), ("0s", .zero),
        ("45", .seconds(45)), ("0.25", .milliseconds(250)), ("1h2m3s4ms", .milliseconds(3_723_004)),
    ])
    func parses(_ text: String, _ expected: Duration) {
        #expect(DurationText.parse(text) == expected)
    }

    @Test(arguments: [
        (Duration.milliseconds(450), "450ms"), (.milliseconds(999), "999ms"), (.milliseconds(1043), "1s"),
        (.milliseconds(1107), "1.1s"), (.milliseconds(2106), "2.1s"), (.milliseconds(9_940), "9.9s"),
        (.milliseconds(9_960), "10s"), (.milliseconds(12_400), "12s"), (.milliseconds(125_300), "2m5s"),
    ])
    func approximatesWaitsForPeople(_ duration: Duration, _ text: String) {
        #expect(DurationText.approximate(duration) == text)
        #expect(DurationText.parse(text) != nil)
    }

    @Test(arguments: [
        "", "soon", "5 minutes", "-5s", "1y", "s", "1m30", "1.2.3s", "1e300", "366d", "99999999999999999",
    ])
    func refuses(_ text: String) {
        #expect(DurationText.parse(text) == nil)
    }

    @Test func acceptsUpToAYear() {
        #expect(DurationText.parse("365d") == .seconds(31_536_000))
        #expect(DurationText.parse("31536000") == .seconds(31_536_000))
    }

    @Test func formatsTheWayTheConfigWrites() {
        #expect(DurationText.format(.seconds(90)) == "1m30s")
        #expect(DurationText.format(.milliseconds(500)) == "500ms")
        #expect(DurationText.format(.zero) == "0s")
        #expect(DurationText.format(.seconds(86_400 + 7)) == "1d7s")
    }

    @Test func parsesAndFormatsByteSizes() {
        #expect(ByteSizeText.parse("32MiB") == 33_554_432)
        #expect(ByteSizeText.parse("512 KiB") == 524_288)
        #expect(ByteSizeText.parse("10MB") == 10_000_000)
        #expect(ByteSizeText.parse("1024") == 1024)
        #expect(ByteSizeText.parse("lots") == nil)
        #expect(ByteSizeText.format(33_554_432) == "32 MiB")
        #expect(ByteSizeText.format(1536) == "1.5 KiB")
        #expect(ByteSizeText.format(100) == "100 B")
    }
}
