import AsyncAlgorithms
import Foundation
import Streams

/// `streams-bench`: the per-element cost of the operator chain the agent's
/// behaviour rests on, against a plain `AsyncStream` and against the nearest
/// chain swift-async-algorithms offers alone, in one run. Run it through
/// `scripts/bench streams` (a release build).
@main
enum StreamsBenchmark {
    static let count = 1_000_000
    static let runs = 5

    static func main() async throws {
        let gate = CurrentValueSubject<Bool, Never>(true)
        let policy = RetryPolicy(maxAttempts: 3, initialDelay: .milliseconds(1))
        let clock = ContinuousClock()

        let baseline = try await measure { source in
            var sum = 0
            for await element in source { sum &+= element }
            return sum
        }
        let asyncAlgorithms = try await measure { source in
            var sum = 0
            for try await element in source.map({ $0 &+ 1 }).share(bufferingPolicy: .bounded(256)) { sum &+= element }
            return sum
        }
        let streams = try await measure { source in
            var sum = 0
            let chain = source.map { $0 &+ 1 }
                .retryIf(policy: policy, clock: clock) { _ in true }
                .pausable(by: gate)
                .share(replay: 0, buffering: .bounded(256))
            for try await element in chain { sum &+= element }
            return sum
        }

        let onlyMap = try await measure { source in
            var sum = 0
            for try await element in source.map({ $0 &+ 1 }) { sum &+= element }
            return sum
        }
        let onlyRetry = try await measure { source in
            var sum = 0
            for try await element in source.retryIf(policy: policy, clock: clock, { _ in true }) {
                sum &+= element
            }
            return sum
        }
        let onlyPausable = try await measure { source in
            var sum = 0
            for try await element in source.pausable(by: gate) { sum &+= element }
            return sum
        }
        let onlyShare = try await measure { source in
            var sum = 0
            for try await element in source.share(replay: 0, buffering: .bounded(256)) { sum &+= element }
            return sum
        }
        print("Per-element cost over \(count) integers, best of \(runs) runs (release build):")
        print(row("AsyncStream iteration (baseline)", baseline, baseline))
        print(row("async-algorithms: map → share(bounded 256)", asyncAlgorithms, baseline))
        print(row("Streams: map → retryIf → pausable → share(replay: 0)", streams, baseline))
        print("  each operator alone on the same stream:")
        print(row("  map", onlyMap, baseline))
        print(row("  retryIf", onlyRetry, baseline))
        print(row("  pausable", onlyPausable, baseline))
        print(row("  share(replay: 0)", onlyShare, baseline))
        print("Target: the Streams chain at most 3× the baseline.")
    }

    /// The best per-element time of `body` over `runs` runs, each on a fresh, pre-filled stream.
    static func measure(_ body: @Sendable (AsyncStream<Int>) async throws -> Int) async throws -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let source = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
                for element in 0..<count { continuation.yield(element) }
                continuation.finish()
            }
            let start = ContinuousClock.now
            let sum = try await body(source)
            let elapsed = ContinuousClock.now - start
            precondition(sum != 0)
            best = min(best, elapsed.nanoseconds / Double(count))
        }
        return best
    }

    static func row(_ name: String, _ nanoseconds: Double, _ baseline: Double) -> String {
        let label = name.padding(toLength: 56, withPad: " ", startingAt: 0)
        return
            "  \(label) \(String(format: "%7.1f", nanoseconds)) ns/element  \(String(format: "%5.2f", nanoseconds / baseline))×"
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
