import Testing

@testable import Streams

@Suite(.onTestExecutor, .timeLimit(.minutes(1))) struct RetryPolicyTests {
    let policy = RetryPolicy(
        maxAttempts: 5, initialDelay: .seconds(1), maxDelay: .seconds(10), multiplier: 2, jitter: 0.2)

    @Test func backoffGrowsByTheMultiplierUpToTheMaximum() {
        #expect(policy.backoff(afterAttempt: 1) == .seconds(1))
        #expect(policy.backoff(afterAttempt: 2) == .seconds(2))
        #expect(policy.backoff(afterAttempt: 3) == .seconds(4))
        #expect(policy.backoff(afterAttempt: 4) == .seconds(8))
        #expect(policy.backoff(afterAttempt: 5) == .seconds(10))
        #expect(policy.backoff(afterAttempt: 60) == .seconds(10))
    }

    @Test func jitterSpreadsTheDelayEvenlyAroundTheBackoff() {
        #expect(policy.delay(afterAttempt: 2, unit: 0) == .seconds(1.6))
        #expect(policy.delay(afterAttempt: 2, unit: 0.5) == .seconds(2))
        #expect(policy.delay(afterAttempt: 2, unit: 0.999_999).seconds > 2.39)
    }

    @Test func aRequestedDelayLongerThanTheBackoffWins() {
        #expect(policy.delay(afterAttempt: 1, requested: .seconds(30), unit: 0.5) == .seconds(30))
        #expect(policy.delay(afterAttempt: 3, requested: .seconds(1), unit: 0.5) == .seconds(4))
    }

    @Test func aRequestedDelayIsCappedAtOneHour() {
        #expect(policy.delay(afterAttempt: 1, requested: .seconds(86_400), unit: 0.5) == .seconds(3600))
    }

    @Test func valuesOutOfRangeAreClamped() {
        let clamped = RetryPolicy(maxAttempts: 0, multiplier: 0.5, jitter: 3)
        #expect(clamped.maxAttempts == 1)
        #expect(clamped.multiplier == 1)
        #expect(clamped.jitter == 1)
    }
}
