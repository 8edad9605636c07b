/// A sequence that many consumers iterate at once, fed by ``send(_:)``: each
/// consumer receives the elements sent after it started iterating.
///
/// Elements sent while nobody iterates are dropped. A consumer whose task is
/// cancelled ends (`nil`).
///
/// ```
/// send:      ──a──b──────c──|
/// consumer1: ──a──b──────c──|
/// consumer2:       (starts) c──|
/// ```
///
/// Thread-safety: `Sendable`; send and iterate from any task.
public final class PassthroughSubject<Element: Sendable, Failure: Error>: AsyncSequence, Sendable {
    let storage: SubjectStorage<Element, Failure>

    /// Creates a subject; `buffering` bounds what a slow consumer may have waiting.
    public init(buffering: SubjectBuffering = .unbounded) {
        storage = SubjectStorage(current: nil, keepsCurrent: false, buffering: buffering)
    }

    /// Delivers an element to every current consumer.
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

    /// Starts a consumer: it receives what is sent from now on.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: SubjectSubscription(storage))
    }
}

extension PassthroughSubject where Element == Void {
    /// Delivers a signal to every current consumer.
    public func send() {
        send(())
    }
}
