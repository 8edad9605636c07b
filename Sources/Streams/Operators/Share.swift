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

    @usableFromInline let storage: ShareStorage<Base>

    @usableFromInline init(storage: ShareStorage<Base>) {
        self.storage = storage
    }

    /// The iterator of one consumer of an ``AsyncShareSequence``; it may be
    /// handed to another task.
    public struct AsyncIterator: AsyncIteratorProtocol, Sendable {
        @usableFromInline let subscription: Subscription

        @usableFromInline init(subscription: Subscription) {
            self.subscription = subscription
        }

        /// The next element of the shared iteration.
        @inlinable public mutating func next() async throws -> Element? {
            try await subscription.storage.next(subscription.id)
        }
    }

    /// A consumer's place in the sharing; leaving it (dropping the iterator) unsubscribes.
    @usableFromInline final class Subscription: Sendable {
        @usableFromInline let storage: ShareStorage<Base>
        @usableFromInline let id: UInt64

        @usableFromInline init(_ storage: ShareStorage<Base>) {
            self.storage = storage
            id = storage.subscribe()
        }

        deinit {
            storage.unsubscribe(id)
        }
    }

    /// Starts an iteration.
    @inlinable public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(subscription: Subscription(storage))
    }
}

/// The consumers of a shared sequence, their buffers, and the base's iterator.
///
/// Who pulls from the base: while one consumer iterates, that consumer's own
/// task does, with no task in between; once several consumers share an
/// iteration, a pump task of its own takes the iterator over, so that no
/// consumer's cancellation reaches the upstream while others remain.
///
/// Thread-safety: `Sendable`; state behind a `Mutex`, continuations resumed
/// outside it. The base's iterator is held by one task at a time (see ``IteratorBox``).
@usableFromInline final class ShareStorage<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    @usableFromInline typealias Element = Base.Element

    /// The base's iterator, handed from one puller to the next.
    ///
    /// `@unchecked Sendable`: the state's `pulling` flag lets exactly one task
    /// take it at a time, and the `Mutex` orders each hand-over.
    @usableFromInline final class IteratorBox: @unchecked Sendable {
        @usableFromInline var iterator: Base.AsyncIterator

        @usableFromInline init(_ iterator: Base.AsyncIterator) {
            self.iterator = iterator
        }
    }

    /// What a waiting consumer is woken with.
    @usableFromInline enum Delivery {
        case element(Element)
        case end(Result<Void, any Error>)
        /// The iteration was abandoned under it: look again.
        case retry
    }

    @usableFromInline struct Consumer {
        @usableFromInline var buffer = Deque<Element>()
        @usableFromInline var waiting: CheckedContinuation<Delivery, Never>?
        @usableFromInline var terminal: Result<Void, any Error>?

        @usableFromInline init() {}
    }

    @usableFromInline struct State {
        @usableFromInline var consumers: [UInt64: Consumer] = [:]
        @usableFromInline var nextID: UInt64 = 0
        /// Bumped when an iteration starts or is abandoned; a late puller of an old one changes nothing.
        @usableFromInline var iteration = 0
        @usableFromInline var active = false
        /// The iterator while nobody pulls from it.
        @usableFromInline var iterator: IteratorBox?
        @usableFromInline var pulling = false
        @usableFromInline var pump: Task<Void, Never>?
        @usableFromInline var replay = Deque<Element>()
        @usableFromInline var pumpWaiting: CheckedContinuation<Void, Never>?

        @usableFromInline init() {}
    }

    @usableFromInline enum Step {
        case element(Element, CheckedContinuation<Void, Never>?)
        case end(Result<Void, any Error>)
        case pull(IteratorBox, iteration: Int)
        case wait(startPump: Int?)
    }

    @usableFromInline let base: Base
    @usableFromInline let replayCount: Int
    @usableFromInline let limit: Int?
    @usableFromInline let state = Mutex(State())

    @usableFromInline init(base: Base, replay: Int, buffering: ShareBuffering) {
        self.base = base
        self.replayCount = replay
        if case .bounded(let count) = buffering { limit = Swift.max(1, count) } else { limit = nil }
    }

    @usableFromInline func subscribe() -> UInt64 {
        state.withLock { state in
            state.nextID += 1
            var consumer = Consumer()
            if state.active { consumer.buffer = state.replay }
            state.consumers[state.nextID] = consumer
            return state.nextID
        }
    }

    @usableFromInline func unsubscribe(_ id: UInt64) {
        let (pump, waiting) = state.withLock { state -> (Task<Void, Never>?, CheckedContinuation<Void, Never>?) in
            guard state.consumers.removeValue(forKey: id) != nil else { return (nil, nil) }
            if state.consumers.isEmpty, state.active {
                // The last consumer left: the iteration ends; the next consumer starts anew.
                defer { Self.reset(&state) }
                return (state.pump, state.pumpWaiting)
            }
            return (nil, Self.resumablePump(&state, limit: limit))
        }
        pump?.cancel()
        waiting?.resume()
    }

    @inlinable func next(_ id: UInt64) async throws -> Element? {
        while true {
            let step = state.withLock { state -> Step in
                if let element = state.consumers[id]?.buffer.popFirst() {
                    return .element(element, state.pumpWaiting == nil ? nil : Self.resumablePump(&state, limit: limit))
                }
                return nextStep(id, &state)
            }
            switch step {
            case .element(let element, let pump):
                pump?.resume()
                return element
            case .end(let terminal):
                try terminal.get()
                return nil
            case .pull(let box, let iteration):
                if let element = try await pullInline(box, iteration: iteration, for: id) { return element }
            case .wait(let startPump):
                if let startPump { self.startPump(iteration: startPump) }
                switch await wait(id) {
                case .element(let element): return element
                case .end(let terminal):
                    try terminal.get()
                    return nil
                case .retry: continue
                }
            }
        }
    }

    /// What a consumer with an empty buffer does: end, pull itself, or wait.
    @inlinable func nextStep(_ id: UInt64, _ state: inout State) -> Step {
        guard state.consumers[id] != nil else { return .end(.success(())) }
        if let terminal = state.consumers[id]!.terminal {
            state.consumers[id]!.terminal = .success(())
            return .end(terminal)
        }
        if Task.isCancelled { return .end(.failure(CancellationError())) }
        if !state.active {
            state.active = true
            state.iteration += 1
            state.iterator = IteratorBox(base.makeAsyncIterator())
        }
        if state.pump == nil, !state.pulling, let box = state.iterator {
            if state.consumers.count == 1 {
                state.pulling = true
                state.iterator = nil
                return .pull(box, iteration: state.iteration)
            }
            return .wait(startPump: state.iteration)
        }
        return .wait(startPump: nil)
    }

    /// The sole consumer pulls the next element itself; `nil` means look again.
    @inlinable func pullInline(_ box: IteratorBox, iteration: Int, for id: UInt64) async throws -> Element? {
        let result = await Result(awaiting: { try await box.iterator.next() })
        if Task.isCancelled {
            abandon(iteration)
            throw CancellationError()
        }
        switch result {
        case .success(let element?):
            // Give the iterator back and the element to any other consumer, in one go.
            let resumed = state.withLock { state -> [CheckedContinuation<Delivery, Never>] in
                guard state.iteration == iteration else { return [] }
                state.pulling = false
                state.iterator = box
                guard state.consumers.count > 1 || replayCount > 0 else { return [] }
                return Self.distribute(element, to: &state, except: id, replay: replayCount)
            }
            for consumer in resumed { consumer.resume(returning: .element(element)) }
            return element
        case .success(nil):
            finish(.success(()), iteration: iteration, taker: id)
            return nil
        case .failure(let error):
            finish(.failure(error), iteration: iteration, taker: id)
            throw error
        }
    }

    /// Cancelled while pulling: the iteration cannot go on. Consumers that
    /// joined meanwhile start a new one.
    @usableFromInline func abandon(_ iteration: Int) {
        let waiting = state.withLock { state -> [CheckedContinuation<Delivery, Never>] in
            guard state.iteration == iteration else { return [] }
            Self.reset(&state)
            return Self.takeWaiting(&state)
        }
        for consumer in waiting { consumer.resume(returning: .retry) }
    }

    /// Gives an element to every consumer but `taker`: to those waiting directly,
    /// to the others' buffers; keeps it for replay.
    @usableFromInline static func distribute(
        _ element: Element, to state: inout State, except taker: UInt64?, replay: Int
    ) -> [CheckedContinuation<Delivery, Never>] {
        if replay > 0 {
            state.replay.append(element)
            if state.replay.count > replay { state.replay.removeFirst() }
        }
        var resumed: [CheckedContinuation<Delivery, Never>] = []
        for id in state.consumers.keys where id != taker {
            if let waiting = state.consumers[id]!.waiting {
                state.consumers[id]!.waiting = nil
                resumed.append(waiting)
            } else {
                state.consumers[id]!.buffer.append(element)
            }
        }
        return resumed
    }

    @usableFromInline func wait(_ id: UInt64) async -> Delivery {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Delivery, Never>) in
                let ready = state.withLock { state -> Delivery? in
                    guard state.consumers[id] != nil else { return .end(.success(())) }
                    if let element = state.consumers[id]!.buffer.popFirst() { return .element(element) }
                    if let terminal = state.consumers[id]!.terminal {
                        state.consumers[id]!.terminal = .success(())
                        return .end(terminal)
                    }
                    if Task.isCancelled { return .end(.failure(CancellationError())) }
                    if !state.active || (state.pump == nil && !state.pulling) { return .retry }
                    state.consumers[id]!.waiting = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            let waiting = state.withLock { state -> CheckedContinuation<Delivery, Never>? in
                defer { state.consumers[id]?.waiting = nil }
                return state.consumers[id]?.waiting
            }
            waiting?.resume(returning: .end(.failure(CancellationError())))
        }
    }

    @usableFromInline func startPump(iteration: Int) {
        let box = state.withLock { state -> IteratorBox? in
            guard state.iteration == iteration, state.pump == nil, !state.pulling, let box = state.iterator else {
                return nil
            }
            state.pulling = true
            state.iterator = nil
            return box
        }
        guard let box else { return }
        let task = Task.inheritingExecutor {
            while true {
                do {
                    guard let element = try await box.iterator.next() else {
                        self.finish(.success(()), iteration: iteration)
                        return
                    }
                    guard self.publish(element, iteration: iteration) else { return }
                    await self.waitForSpace(iteration: iteration)
                } catch {
                    self.finish(.failure(error), iteration: iteration)
                    return
                }
            }
        }
        let stale = state.withLock { state -> Bool in
            guard state.iteration == iteration, state.active else { return true }
            state.pump = task
            return false
        }
        if stale { task.cancel() }
    }

    /// Gives an element to every consumer; `false` when the iteration is no longer current.
    private func publish(_ element: Element, iteration: Int) -> Bool {
        let (current, resumed) = state.withLock { state -> (Bool, [CheckedContinuation<Delivery, Never>]) in
            guard state.iteration == iteration, state.active else { return (false, []) }
            return (true, Self.distribute(element, to: &state, except: nil, replay: replayCount))
        }
        for consumer in resumed { consumer.resume(returning: .element(element)) }
        return current
    }

    /// The pump waits while a consumer's bounded buffer is full.
    private func waitForSpace(iteration: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let proceed = state.withLock { state -> Bool in
                guard state.iteration == iteration, state.active, Self.isFull(state, limit: limit) else { return true }
                state.pumpWaiting = continuation
                return false
            }
            if proceed { continuation.resume() }
        }
    }

    @usableFromInline static func isFull(_ state: State, limit: Int?) -> Bool {
        guard let limit else { return false }
        return state.consumers.values.contains { $0.buffer.count >= limit }
    }

    /// The waiting pump, once every buffer has drained to half its limit.
    @usableFromInline static func resumablePump(_ state: inout State, limit: Int?) -> CheckedContinuation<Void, Never>?
    {
        guard let pump = state.pumpWaiting, let limit else { return nil }
        guard state.consumers.values.allSatisfy({ $0.buffer.count <= limit / 2 }) else { return nil }
        state.pumpWaiting = nil
        return pump
    }

    @usableFromInline static func takeWaiting(_ state: inout State) -> [CheckedContinuation<Delivery, Never>] {
        var waiting: [CheckedContinuation<Delivery, Never>] = []
        for id in state.consumers.keys {
            if let continuation = state.consumers[id]!.waiting {
                state.consumers[id]!.waiting = nil
                waiting.append(continuation)
            }
        }
        return waiting
    }

    /// Forgets the iteration: the next request starts a new one.
    @usableFromInline static func reset(_ state: inout State) {
        state.active = false
        state.iteration += 1
        state.iterator = nil
        state.pulling = false
        state.pump = nil
        state.replay.removeAll()
        state.pumpWaiting = nil
    }

    /// Ends the iteration for every consumer; `taker` learns it directly.
    @usableFromInline func finish(_ terminal: Result<Void, any Error>, iteration: Int, taker: UInt64? = nil) {
        let resumed = state.withLock { state -> [(CheckedContinuation<Delivery, Never>)] in
            guard state.iteration == iteration, state.active else { return [] }
            Self.reset(&state)
            var resumed: [CheckedContinuation<Delivery, Never>] = []
            for id in state.consumers.keys {
                if let waiting = state.consumers[id]!.waiting {
                    state.consumers[id]!.waiting = nil
                    state.consumers[id]!.terminal = .success(())
                    resumed.append(waiting)
                } else {
                    state.consumers[id]!.terminal = id == taker ? .success(()) : terminal
                }
            }
            return resumed
        }
        for consumer in resumed { consumer.resume(returning: .end(terminal)) }
    }
}
