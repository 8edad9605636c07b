extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Creates an asynchronous sequence that fails with ``TimeoutError`` when
    /// this one takes longer than `duration` to produce its next element (or to
    /// finish), counted from the request for it.
    ///
    /// On a timeout the upstream's iteration is cancelled.
    ///
    /// ```
    /// upstream: ──a─────────b──
    /// timeout:  ──a─────✕          (duration: 5 ticks)
    /// ```
    public func timeout<C: Clock<Duration>>(after duration: Duration, clock: C) -> AsyncTimeoutSequence<Self, C> {
        AsyncTimeoutSequence(base: self, duration: duration, clock: clock)
    }
}

/// An asynchronous sequence that fails when its base is too slow, made by
/// ``AsyncSequence/timeout(after:clock:)``.
public struct AsyncTimeoutSequence<Base: AsyncSequence & Sendable, C: Clock<Duration>>: AsyncSequence, Sendable
where Base.Element: Sendable {
    /// The type of the elements.
    public typealias Element = Base.Element

    let base: Base
    let duration: Duration
    let clock: C

    /// The iterator of an ``AsyncTimeoutSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: PumpHandle<Base>
        let duration: Duration
        let clock: C
        var finished = false

        /// The next element, or ``TimeoutError`` if it does not come in time.
        public mutating func next() async throws -> Element? {
            guard !finished else { return nil }
            let pump = handle.pump
            do {
                let element = try await withTimeout(duration, clock: clock) { try await pump.next() }
                if element == nil { finished = true }
                return element
            } catch {
                finished = true
                pump.cancel()
                throw error
            }
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: PumpHandle(base), duration: duration, clock: clock)
    }
}
