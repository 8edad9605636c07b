import Foundation
import Streams

/// `streams-bench`: the per-page cost of the operator chain the agent builds
/// for a paginated sync (docs/architecture.md#the-path-of-one-poll), against
/// iterating a plain `AsyncStream` of the same pages, in one run. Each page
/// request is `deferred`, sent under `withTimeout` (its deadline in a
/// `Timers`), held by `pausable` and retried by `retryIf`; `paginate` walks
/// the pages; the whole sync runs under `withSlowSignal` (its deadline in the
/// same `Timers`) inside an `InFlight` run that a second caller joins. The
/// pages are integers made at once, so what is measured is the operators'
/// own cost. Run it through `scripts/bench streams` (a release build).
@main
enum StreamsBenchmark {
    static let pages = 200_000
    static let runs = 5

    static let gate = CurrentValueSubject<Bool, Never>(true)
    static let policy = RetryPolicy(maxAttempts: 5, initialDelay: .milliseconds(1))
    static let clock = ContinuousClock()
    static let timers = Timers(clock: clock)

    static func main() async throws {
        let baseline = try await measure { stream in
            var sum = 0
            for await page in stream { sum &+= page }
            return sum
        }
        let paginateOnly = try await measure { _ in try await walk { page in page } }
        let withRetry = try await measure { _ in
            try await walk { page in
                try await deferred { page }.retryIf(policy: policy, clock: clock) { _ in .giveUp }.firstElement()
            }
        }
        let withPausable = try await measure { _ in
            try await walk { page in
                try await deferred { page }.pausable(by: gate)
                    .retryIf(policy: policy, clock: clock) { _ in .giveUp }.firstElement()
            }
        }
        let withTimeoutOperator = try await measure { _ in
            try await walk { page in
                try await deferred { page }.timeout(after: .seconds(30), clock: clock)
                    .pausable(by: gate)
                    .retryIf(policy: policy, clock: clock) { _ in .retry(after: nil) }
                    .firstElement()
            }
        }
        let withTimeout = try await measure { _ in try await walk(request) }
        let agentChain = try await measure { _ in try await sync() }

        print("Per-page cost over \(pages) pages, best of \(runs) runs (release build):")
        print(row("plain AsyncStream of the pages (baseline)", baseline, baseline))
        print(row("paginate", paginateOnly, baseline))
        print(row("paginate → retryIf", withRetry, baseline))
        print(row("paginate → pausable → retryIf", withPausable, baseline))
        print(row("paginate → timeout operator → pausable → retryIf", withTimeoutOperator, baseline))
        print(row("paginate → withTimeout(timers:) → pausable → retryIf", withTimeout, baseline))
        print(row("  + withSlowSignal + InFlight, a second caller joining", agentChain, baseline))
        let overhead = (agentChain - baseline) / 1000
        print(
            "The agent's chain adds \(String(format: "%.1f", overhead)) µs per page; a page is one HTTP request "
                + "(about 200 µs on loopback, milliseconds over a network).")
    }

    /// One page request as the agent makes it (see `ResourceFetch.pages`).
    @Sendable static func request(_ page: Int) async throws -> Int {
        try await deferred { try await withTimeout(.seconds(30), timers: timers) { page } }
            .pausable(by: gate)
            .retryIf(policy: policy, clock: clock) { _ in .retry(after: nil) }
            .firstElement()
    }

    /// Walks every page, fetching each with `fetch`, and sums them.
    static func walk(_ fetch: @escaping @Sendable (Int) async throws -> Int) async throws -> Int {
        var sum = 0
        for try await page in paginate(first: 0, fetch: fetch, next: { page, _ in page + 1 < pages ? page + 1 : nil }) {
            sum &+= page
        }
        return sum
    }

    /// A whole sync as the engine runs it: under the slow signal, in an
    /// `InFlight` run that a second caller joins.
    static func sync() async throws -> Int {
        let inFlight = InFlight<String, Int>(policy: .runToCompletion)
        let started = AsyncStream<Void>.makeStream()
        async let first = inFlight.run("resource") {
            started.continuation.yield()
            return try await withSlowSignal(after: .seconds(3600), timers: timers, onSlow: {}) {
                try await walk(request)
            }
        }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        let joined = await inFlight.run("resource") { 0 }
        precondition(joined.joined)
        return try await first.get() &+ (try joined.get())
    }

    /// The best per-page time of `body` over `runs` runs, each given a fresh,
    /// pre-filled stream of the pages (which only the baseline reads).
    static func measure(_ body: @Sendable (AsyncStream<Int>) async throws -> Int) async throws -> Double {
        var best = Double.infinity
        for _ in 0..<runs {
            let stream = AsyncStream<Int>(bufferingPolicy: .unbounded) { continuation in
                for page in 0..<pages { continuation.yield(page) }
                continuation.finish()
            }
            let start = ContinuousClock.now
            let sum = try await body(stream)
            let elapsed = ContinuousClock.now - start
            precondition(sum != 0)
            best = min(best, elapsed.nanoseconds / Double(pages))
        }
        return best
    }

    static func row(_ name: String, _ nanoseconds: Double, _ baseline: Double) -> String {
        let label = name.padding(toLength: 56, withPad: " ", startingAt: 0)
        return
            "  \(label) \(String(format: "%8.1f", nanoseconds)) ns/page  \(String(format: "%6.1f", nanoseconds / baseline))×"
    }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}
