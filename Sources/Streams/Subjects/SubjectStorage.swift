import DequeModule
import Synchronization

/// The consumers of a subject and what each has yet to receive.
///
/// Thread-safety: `Sendable`; state behind a `Mutex`, continuations resumed outside it.
final class SubjectStorage<Element: Sendable, Failure: Error>: Sendable {
    private struct Consumer {
        var buffer = Deque<Element>()
        var waiting: CheckedContinuation<Result<Element?, Failure>, Never>?
        var finished = false
    }

    private struct State {
        var consumers: [UInt64: Consumer] = [:]
        var nextID: UInt64 = 0
        var current: Element?
        var terminal: Result<Void, Failure>?
    }

    private let buffering: SubjectBuffering
    private let keepsCurrent: Bool
    private let state: Mutex<State>

    init(current: Element?, keepsCurrent: Bool, buffering: SubjectBuffering) {
        self.buffering = buffering
        self.keepsCurrent = keepsCurrent
        state = Mutex(State(current: current))
    }

    var current: Element? { state.withLock { $0.current } }

    /// How many consumers are iterating (for tests of leaks).
    var consumerCount: Int { state.withLock { $0.consumers.count } }

    /// Registers a consumer; a subject that keeps its current value gives it first.
    func subscribe() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            var consumer = Consumer()
            if keepsCurrent, let current = state.current { consumer.buffer.append(current) }
            state.consumers[state.nextID] = consumer
            return state.nextID
        }
    }

    func unsubscribe(_ id: UInt64) {
        let waiting = state.withLock { $0.consumers.removeValue(forKey: id)?.waiting }
        waiting?.resume(returning: .success(nil))
    }

    func send(_ element: Element) {
        let resumed = state.withLock { state -> [CheckedContinuation<Result<Element?, Failure>, Never>] in
            guard state.terminal == nil else { return [] }
            if keepsCurrent { state.current = element }
            var resumed: [CheckedContinuation<Result<Element?, Failure>, Never>] = []
            for id in state.consumers.keys {
                if let waiting = state.consumers[id]!.waiting {
                    state.consumers[id]!.waiting = nil
                    resumed.append(waiting)
                } else {
                    state.consumers[id]!.buffer.append(element)
                    if case .bufferingNewest(let count) = buffering {
                        while state.consumers[id]!.buffer.count > Swift.max(1, count) {
                            state.consumers[id]!.buffer.removeFirst()
                        }
                    }
                }
            }
            return resumed
        }
        for consumer in resumed { consumer.resume(returning: .success(element)) }
    }

    func finish(_ terminal: Result<Void, Failure>) {
        let resumed = state.withLock { state -> [CheckedContinuation<Result<Element?, Failure>, Never>] in
            guard state.terminal == nil else { return [] }
            state.terminal = terminal
            var resumed: [CheckedContinuation<Result<Element?, Failure>, Never>] = []
            for id in state.consumers.keys {
                if let waiting = state.consumers[id]!.waiting {
                    state.consumers[id]!.waiting = nil
                    state.consumers[id]!.finished = true
                    resumed.append(waiting)
                }
            }
            return resumed
        }
        for consumer in resumed { consumer.resume(returning: terminal.map { nil }) }
    }

    /// The consumer's next element; `nil` at the end or when its task is cancelled.
    func next(_ id: UInt64) async throws(Failure) -> Element? {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Element?, Failure>, Never>) in
                let ready = state.withLock { state -> Result<Element?, Failure>? in
                    guard var consumer = state.consumers[id], !consumer.finished else { return .success(nil) }
                    defer { state.consumers[id] = consumer }
                    if let element = consumer.buffer.popFirst() { return .success(element) }
                    if let terminal = state.terminal {
                        consumer.finished = true
                        return terminal.map { nil }
                    }
                    if Task.isCancelled {
                        consumer.finished = true
                        return .success(nil)
                    }
                    consumer.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Result<Element?, Failure>, Never>? in
                defer {
                    state.consumers[id]?.waiting = nil
                    state.consumers[id]?.finished = true
                }
                return state.consumers[id]?.waiting
            }
            waiting?.resume(returning: .success(nil))
        }
        return try result.get()
    }
}

/// A consumer of a subject; leaving it (dropping the iterator) unsubscribes.
final class SubjectSubscription<Element: Sendable, Failure: Error>: Sendable {
    let storage: SubjectStorage<Element, Failure>
    let id: UInt64

    init(_ storage: SubjectStorage<Element, Failure>) {
        self.storage = storage
        id = storage.subscribe()
    }

    deinit {
        storage.unsubscribe(id)
    }
}

/// The iterator of one consumer of a ``PassthroughSubject`` or a
/// ``CurrentValueSubject``: what the subject sends from its subscription on
/// (for a `CurrentValueSubject`, its current value first); `nil` at the end.
public struct SubjectIterator<Element: Sendable, Failure: Error>: AsyncIteratorProtocol, Sendable {
    let subscription: SubjectSubscription<Element, Failure>

    init(subscription: SubjectSubscription<Element, Failure>) {
        self.subscription = subscription
    }

    /// The next element; `nil` at the end.
    public mutating func next() async throws(Failure) -> Element? {
        try await subscription.storage.next(subscription.id)
    }

    /// The next element; `nil` at the end.
    public mutating func next(isolation actor: isolated (any Actor)?) async throws(Failure) -> Element? {
        try await subscription.storage.next(subscription.id)
    }
}
