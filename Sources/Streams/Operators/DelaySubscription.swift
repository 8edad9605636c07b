extension AsyncSequence {
    /// Creates an asynchronous sequence that starts iterating this one only
    /// `delay` after the first element is asked for.
    ///
    /// Used with ``race(_:_:)`` to show a loading state only when data is slow,
    /// and for long enough not to flicker.
    ///
    /// ```
    /// upstream:          ──a──b──|
    /// delaySubscription: ─────────a──b──|   (delay: 3 ticks)
    /// ```
    public func delaySubscription<C: Clock<Duration>>(
        for delay: Duration, clock: C
    ) -> AsyncDelaySubscriptionSequence<Self, C> {
        AsyncDelaySubscriptionSequence(base: self, delay: delay, clock: clock)
    }
}

/// An asynchronous sequence whose iteration starts late, made by
/// ``AsyncSequence/delaySubscription(for:clock:)``.
public struct AsyncDelaySubscriptionSequence<Base: AsyncSequence, C: Clock<Duration>>: AsyncSequence {
    /// The type of the elements.
    public typealias Element = Base.Element

    let base: Base
    let delay: Duration
    let clock: C

    /// The iterator of an ``AsyncDelaySubscriptionSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let sequence: AsyncDelaySubscriptionSequence
        var iterator: Base.AsyncIterator?

        /// On the first call, waits the delay; then the base's next element.
        public mutating func next() async throws -> Element? {
            if iterator == nil {
                try await sequence.clock.sleep(for: sequence.delay)
                iterator = sequence.base.makeAsyncIterator()
            }
            return try await iterator!.next()
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(sequence: self)
    }
}

extension AsyncDelaySubscriptionSequence: Sendable where Base: Sendable {}
