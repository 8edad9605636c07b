extension AsyncSequence {
    /// Creates an asynchronous sequence that runs this one again when it fails
    /// with an error that `decide` says may succeed later.
    ///
    /// Attempts are counted from one: the first iteration is attempt 1, and each
    /// retry the next, until `policy.maxAttempts` attempts have run in all; the
    /// failure of the last one ends the sequence with its error. A retry waits
    /// the policy's backoff (with jitter drawn from `random`), or longer when the
    /// decision asks for it, or exactly the wait a ``RetryDecision/wait(_:)`` names. Each retry re-iterates this sequence from its start,
    /// so elements it produced before failing may come again. Cancelling the
    /// consumer cancels the wait and the iteration; `CancellationError` is never retried.
    ///
    /// ```
    /// upstream: ──a──✕        ──a──b──|
    /// retryIf:  ──a──(wait 1s)──a──b──|
    /// ```
    ///
    /// - Parameters:
    ///   - policy: How many attempts, and how long to wait between them.
    ///   - clock: The clock the waits run on.
    ///   - random: Returns a value in `0..<1` for the jitter.
    ///   - onRetry: Told before each wait.
    ///   - decide: Whether an error may succeed later.
    public func retryIf<C: Clock<Duration>>(
        policy: RetryPolicy,
        clock: C,
        random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        onRetry: @escaping @Sendable (RetryEvent) -> Void = { _ in },
        _ decide: @escaping @Sendable (any Error) -> RetryDecision
    ) -> AsyncRetryIfSequence<Self, C> {
        AsyncRetryIfSequence(base: self, policy: policy, clock: clock, random: random, onRetry: onRetry, decide: decide)
    }

    /// Creates an asynchronous sequence that runs this one again, after the
    /// policy's backoff, when it fails with an error `shouldRetry` accepts.
    public func retryIf<C: Clock<Duration>>(
        policy: RetryPolicy,
        clock: C,
        _ shouldRetry: @escaping @Sendable (any Error) -> Bool
    ) -> AsyncRetryIfSequence<Self, C> {
        retryIf(policy: policy, clock: clock) { shouldRetry($0) ? .retry() : .giveUp }
    }
}

/// An asynchronous sequence that re-runs its base after retryable failures,
/// made by ``AsyncSequence/retryIf(policy:clock:random:onRetry:_:)``.
public struct AsyncRetryIfSequence<Base: AsyncSequence, C: Clock<Duration>>: AsyncSequence {
    /// The type of the elements.
    public typealias Element = Base.Element

    @usableFromInline let base: Base
    @usableFromInline let policy: RetryPolicy
    @usableFromInline let clock: C
    @usableFromInline let random: @Sendable () -> Double
    @usableFromInline let onRetry: @Sendable (RetryEvent) -> Void
    @usableFromInline let decide: @Sendable (any Error) -> RetryDecision

    @usableFromInline init(
        base: Base, policy: RetryPolicy, clock: C, random: @escaping @Sendable () -> Double,
        onRetry: @escaping @Sendable (RetryEvent) -> Void, decide: @escaping @Sendable (any Error) -> RetryDecision
    ) {
        self.base = base
        self.policy = policy
        self.clock = clock
        self.random = random
        self.onRetry = onRetry
        self.decide = decide
    }

    /// The iterator of an ``AsyncRetryIfSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline let sequence: AsyncRetryIfSequence
        @usableFromInline var iterator: Base.AsyncIterator?
        @usableFromInline var attempt = 1
        @usableFromInline var finished = false

        @usableFromInline init(sequence: AsyncRetryIfSequence) {
            self.sequence = sequence
        }

        /// The next element, running the base again after retryable failures.
        @inlinable public mutating func next() async throws -> Element? {
            while !finished {
                if iterator == nil { iterator = sequence.base.makeAsyncIterator() }
                do {
                    guard let element = try await iterator!.next() else {
                        finished = true
                        return nil
                    }
                    return element
                } catch {
                    iterator = nil
                    try await retryOrRethrow(error)
                }
            }
            return nil
        }

        @usableFromInline mutating func retryOrRethrow(_ error: any Error) async throws {
            if error is CancellationError || Task.isCancelled {
                finished = true
                throw error
            }
            let counted: Bool
            let requested: Duration?
            var exact: Duration?
            switch sequence.decide(error).kind {
            case .giveUp:
                finished = true
                throw error
            case .retry(let minimum):
                guard attempt < sequence.policy.maxAttempts else {
                    finished = true
                    throw error
                }
                counted = true
                requested = minimum
            case .retryUncounted:
                counted = false
                requested = nil
            case .wait(let delay):
                counted = false
                requested = nil
                exact = Swift.max(.zero, delay)
            }
            let delay =
                exact ?? sequence.policy.delay(afterAttempt: attempt, requested: requested, unit: sequence.random())
            if counted { attempt += 1 }
            sequence.onRetry(
                RetryEvent(
                    attempt: attempt, maxAttempts: sequence.policy.maxAttempts, delay: delay, error: error,
                    counted: counted))
            do {
                try await sequence.clock.sleep(for: delay)
            } catch {
                finished = true
                throw error
            }
        }
    }

    /// Starts an iteration.
    @inlinable public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }
}

extension AsyncRetryIfSequence: Sendable where Base: Sendable {}
