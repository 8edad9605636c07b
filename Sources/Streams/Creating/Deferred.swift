/// Creates a one-element asynchronous sequence whose element is made by
/// `operation` when it is first asked for; each iteration runs it anew.
///
/// It turns an async operation into a sequence that operators such as
/// ``AsyncSequence/retryIf(policy:clock:random:onRetry:_:)`` and
/// ``AsyncSequence/pausable(by:startOpen:)`` can re-run and hold.
///
/// ```
/// operation: ├───v┤
/// deferred:  ─────v|
/// ```
public func deferred<Element: Sendable>(
    _ operation: @escaping @Sendable () async throws -> Element
) -> AsyncDeferredSequence<Element> {
    AsyncDeferredSequence(operation: operation)
}

/// A one-element sequence made by ``deferred(_:)``.
public struct AsyncDeferredSequence<Element: Sendable>: AsyncSequence, Sendable {
    let operation: @Sendable () async throws -> Element

    /// The iterator of an ``AsyncDeferredSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let operation: @Sendable () async throws -> Element
        var done = false

        /// The operation's value the first time, then `nil`.
        public mutating func next() async throws -> Element? {
            guard !done else { return nil }
            done = true
            return try await operation()
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(operation: operation)
    }
}

/// The error of ``AsyncSequence/firstElement()`` when the sequence is empty.
public struct NoElementError: Error, Sendable, Equatable {
    /// Creates the error.
    public init() {}
}

extension AsyncSequence {
    /// The sequence's first element; throws ``NoElementError`` if it ends without one.
    public func firstElement() async throws -> Element {
        var iterator = makeAsyncIterator()
        guard let element = try await iterator.next() else { throw NoElementError() }
        return element
    }
}
