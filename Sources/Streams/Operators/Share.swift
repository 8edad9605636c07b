import DequeModule
import Synchronization

/// How far the fastest consumer of a shared sequence may run ahead of the slowest.
public enum ShareBuffering: Sendable, Hashable {
    /// The upstream is read as fast as it produces; consumers' buffers grow as needed.
    case unbounded
    /// The upstream waits while any consumer has this many elements waiting.
    case bounded(Int)
}

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Creates an asynchronous sequence that many consumers iterate at once,
    /// all receiving the elements of one iteration of this sequence.
    ///
    /// The sharing is reference counted: the upstream is iterated from the
    /// first consumer's first request, its iteration is cancelled when the last
    /// consumer leaves, and a consumer that comes after that starts a new one.
    /// A consumer that joins a running iteration first receives the last
    /// `replay` elements. When the upstream ends or fails, every consumer
    /// receives that after its buffered elements, and the next consumer starts
    /// a new iteration.
    ///
    /// ```
    /// upstream:          ──a──b──c──|
    /// first consumer:    ──a──b──c──|
    /// second (joins late):  (b)──c──|   (replay: 1)
    /// ```
    ///
    /// `replay` has no default so that `share(replay:)` never collides with
    /// swift-async-algorithms' `share(bufferingPolicy:)`, which neither replays
    /// nor restarts: write `share(replay: 0)` for sharing without replay.
    public func share(replay: Int, buffering: ShareBuffering = .bounded(256)) -> AsyncShareSequence<Self> {
        AsyncShareSequence(storage: ShareStorage(base: self, replay: Swift.max(0, replay), buffering: buffering))
    }
}

/// An asynchronous sequence that shares one iteration of its base among many
/// consumers, made by ``AsyncSequence/share(replay:buffering:)``.
public struct AsyncShareSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
    /// The type of the elements.
    public typealias Element = Base.Element

    let storage: ShareStorage<Base>

    /// The iterator of one consumer of an ``AsyncShareSequence``; it may be
    /// handed to another task.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        let subscription: Subscription

        /// The next element of the shared iteration.
        public mutating func next() async throws -> Element? {
            try await subscription.storage.next(subscription.id)
        }
    }

    /// A consumer's place in the sharing; leaving it (dropping the iterator) unsubscribes.
    final class Subscription: Sendable {
        let storage: ShareStorage<Base>
        let id: UInt64

        init(_ storage: ShareStorage<Base>) {
            self.storage = storage
            id = storage.subscribe()
        }

        deinit {
            storage.unsubscribe(id)
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: Subscription(storage))
    }
}

/// The consumers of a shared sequence, their buffers, and the task iterating
/// the base.
///
/// Thread-safety: `Sendable`; state behind a `Mutex`, continuations resumed outside it.
final class ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    private struct Consumer {
        var buffer = Deque<Element>()
        var waiting: CheckedContinuation<Element?, any Error>?
        var terminal: Result<Void, any Error>?
    }

    private struct State {
        var consumers: [UInt64: Consumer] = [:]
        var nextID: UInt64 = 0
        /// Whether an iteration runs; its number tells a finished pump from a current one.
        var running = false
        var iteration = 0
        var task: Task<Void, Never>?
        var replay = Deque<Element>()
        var pumpWaiting: CheckedContinuation<Void, Never>?
    }

    private let base: Base
    private let replayCount: Int
    private let limit: Int?
    private let state = Mutex(State())

    init(base: Base, replay: Int, buffering: ShareBuffering) {
        self.base = base
        self.replayCount = replay
        if case .bounded(let count) = buffering { limit = max(1, count) } else { limit = nil }
    }

    func subscribe() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            var consumer = Consumer()
            if state.running { consumer.buffer = state.replay }
            state.consumers[state.nextID] = consumer
            return state.nextID
        }
    }

    func unsubscribe(_ id: UInt64) {
        let (task, pump) = state.withLock { state -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            guard state.consumers.removeValue(forKey: id) != nil else { return (nil, nil) }
            if state.consumers.isEmpty, state.running {
                // The last consumer left: the iteration ends; the next consumer starts anew.
                let task = state.task
                state.running = false
                state.task = nil
                state.iteration += 1
                state.replay.removeAll()
                defer { state.pumpWaiting = nil }
                return (task, state.pumpWaiting)
            }
            return (nil, Self.resumablePump(&state, limit: limit))
        }
        task?.cancel()
        pump?.resume()
    }

    func next(_ id: UInt64) async throws -> Element? {
        // Fast path: an element is already waiting.
        let ready = state.withLock { state -> (Element, CheckedContinuation<Void, Never>?)? in
            guard let element = state.consumers[id]?.buffer.popFirst() else { return nil }
            return (element, Self.resumablePump(&state, limit: limit))
        }
        if let (element, pump) = ready {
            pump?.resume()
            return element
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                var start: Int?
                let result = state.withLock { state -> Result<Element?, any Error>? in
                    guard var consumer = state.consumers[id] else { return .success(nil) }
                    if let element = consumer.buffer.popFirst() {
                        state.consumers[id] = consumer
                        return .success(element)
                    }
                    if let terminal = consumer.terminal {
                        consumer.terminal = .success(())
                        state.consumers[id] = consumer
                        return terminal.map { nil }
                    }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    consumer.waiting = continuation
                    state.consumers[id] = consumer
                    if !state.running {
                        state.running = true
                        state.iteration += 1
                        start = state.iteration
                    }
                    return nil
                }
                if let result { continuation.resume(with: result) }
                if let start { startPump(iteration: start) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Element?, any Error>? in
                defer { state.consumers[id]?.waiting = nil }
                return state.consumers[id]?.waiting
            }
            waiting?.resume(throwing: CancellationError())
        }
    }

    private func startPump(iteration: Int) {
        let task = Task { [base] in
            do {
                for try await element in base {
                    guard await self.publish(element, iteration: iteration) else { return }
                }
                self.finish(.success(()), iteration: iteration)
            } catch {
                self.finish(.failure(error), iteration: iteration)
            }
        }
        let stale = state.withLock { state -> Bool in
            guard state.iteration == iteration, state.running else { return true }
            state.task = task
            return false
        }
        if stale { task.cancel() }
    }

    /// Gives an element to every consumer; waits while a bounded buffer is full.
    /// `false` when the iteration is no longer current.
    private func publish(_ element: Element, iteration: Int) async -> Bool {
        let (current, resumed, full) = state.withLock {
            state -> (Bool, [CheckedContinuation<Element?, any Error>], Bool) in
            guard state.iteration == iteration, state.running else { return (false, [], false) }
            if replayCount > 0 {
                state.replay.append(element)
                if state.replay.count > replayCount { state.replay.removeFirst() }
            }
            var resumed: [CheckedContinuation<Element?, any Error>] = []
            var full = false
            for id in state.consumers.keys {
                if let waiting = state.consumers[id]!.waiting {
                    state.consumers[id]!.waiting = nil
                    resumed.append(waiting)
                } else {
                    state.consumers[id]!.buffer.append(element)
                    if let limit, state.consumers[id]!.buffer.count >= limit { full = true }
                }
            }
            return (true, resumed, full)
        }
        for consumer in resumed { consumer.resume(returning: element) }
        guard current else { return false }
        if full { await waitForSpace(iteration: iteration) }
        return true
    }

    private func waitForSpace(iteration: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { state -> Bool in
                guard state.iteration == iteration, state.running else { return true }
                guard Self.isFull(state, limit: limit) else { return true }
                state.pumpWaiting = continuation
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    private static func isFull(_ state: State, limit: Int?) -> Bool {
        guard let limit else { return false }
        return state.consumers.values.contains { $0.buffer.count >= limit }
    }

    /// The waiting pump, if the buffers now have room for it.
    private static func resumablePump(_ state: inout State, limit: Int?) -> CheckedContinuation<Void, Never>? {
        guard let pump = state.pumpWaiting, !isFull(state, limit: limit) else { return nil }
        state.pumpWaiting = nil
        return pump
    }

    private func finish(_ terminal: Result<Void, any Error>, iteration: Int) {
        let resumed = state.withLock {
            state -> [(CheckedContinuation<Element?, any Error>, Result<Element?, any Error>)] in
            guard state.iteration == iteration, state.running else { return [] }
            state.running = false
            state.task = nil
            state.replay.removeAll()
            var resumed: [(CheckedContinuation<Element?, any Error>, Result<Element?, any Error>)] = []
            for id in state.consumers.keys {
                if let waiting = state.consumers[id]!.waiting {
                    state.consumers[id]!.waiting = nil
                    state.consumers[id]!.terminal = .success(())
                    resumed.append((waiting, terminal.map { nil }))
                } else {
                    state.consumers[id]!.terminal = terminal
                }
            }
            return resumed
        }
        for (consumer, result) in resumed { consumer.resume(with: result) }
    }
}
