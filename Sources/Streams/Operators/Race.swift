/// Creates an asynchronous sequence that follows whichever of two sequences
/// produces its first event (an element, its end, or a failure) first; the
/// other one's iteration is cancelled. This is Rx's `amb`.
///
/// Both sequences are asked for their first element at once; from then on only
/// the winner is asked.
///
/// ```
/// first:  ─────a──b──|
/// second: ──x─────y──|
/// race:   ──x─────y──|
/// ```
public func race<First: AsyncSequence & Sendable, Second: AsyncSequence & Sendable>(
    _ first: First, _ second: Second
) -> AsyncRaceSequence<First, Second> where First.Element == Second.Element, First.Element: Sendable {
    AsyncRaceSequence(first: first, second: second)
}

/// An asynchronous sequence that follows the first of two sequences to
/// produce an event, made by ``race(_:_:)``.
public struct AsyncRaceSequence<First: AsyncSequence & Sendable, Second: AsyncSequence & Sendable>: AsyncSequence,
    Sendable
where First.Element == Second.Element, First.Element: Sendable {
    /// The type of the elements.
    public typealias Element = First.Element

    let first: First
    let second: Second

    enum Winner {
        case undecided, first, second
    }

    /// The iterator of an ``AsyncRaceSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let first: PumpHandle<First>
        let second: PumpHandle<Second>
        var winner = Winner.undecided

        /// The next element of the winner; the first call decides the winner.
        public mutating func next() async throws -> Element? {
            switch winner {
            case .first: return try await first.pump.next()
            case .second: return try await second.pump.next()
            case .undecided: break
            }
            let firstPump = first.pump
            let secondPump = second.pump
            let (side, result) = await withTaskGroup(of: (Winner, Result<Element?, any Error>).self) { group in
                group.addTask { (.first, await Self.capture { try await firstPump.next() }) }
                group.addTask { (.second, await Self.capture { try await secondPump.next() }) }
                let earliest = await group.next()!
                // The loser's pending request is cancelled, and with it its pump.
                group.cancelAll()
                return earliest
            }
            if Task.isCancelled {
                firstPump.cancel()
                secondPump.cancel()
                throw CancellationError()
            }
            winner = side
            switch side {
            case .first: secondPump.cancel()
            default: firstPump.cancel()
            }
            return try result.get()
        }

        private static func capture(_ body: () async throws -> Element?) async -> Result<Element?, any Error> {
            do {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(first: PumpHandle(first), second: PumpHandle(second))
    }
}
