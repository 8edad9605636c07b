/// A value that changes over time, as a sequence many consumers iterate at
/// once: a new consumer receives the current value first, then every change.
///
/// ```
/// value:     a──b──────c──
/// consumer1: a──b──────c──
/// consumer2:      (b)──c──    (starts after b: receives b first)
/// ```
///
/// Thread-safety: `Sendable`; read, set and iterate from any task.
public final class CurrentValueSubject<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    let storage: SubjectStorage<Element, Failure>

    /// Creates a subject holding `value`; `buffering` bounds what a slow consumer
    /// may have waiting (`.bufferingNewest(1)` gives each consumer only the latest).
    public init(_ value: Element, buffering: SubjectBuffering = .unbounded) {
        storage = SubjectStorage(current: value, keepsCurrent: true, buffering: buffering)
    }

    /// The current value; setting it delivers it to every consumer.
    public var value: Element {
        get { storage.current! }
        set { storage.send(newValue) }
    }

    /// Sets the current value and delivers it to every consumer.
    public func send(_ element: Element) {
        storage.send(element)
    }

    /// Ends the sequence for every consumer, after what they have waiting.
    public func finish() {
        storage.finish(.success(()))
    }

    /// Ends the sequence with a failure for every consumer.
    public func finish(throwing error: Failure) {
        storage.finish(.failure(error))
    }

    /// The iterator of one consumer.
    public typealias AsyncIterator = SubjectIterator<Element, Failure>

    /// Starts a consumer: it receives the current value, then every change.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: SubjectSubscription(storage))
    }
}
