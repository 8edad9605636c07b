import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Creates an asynchronous sequence that, for each element of this one,
    /// follows the sequence `transform` makes of it, switching to the latest
    /// (Rx's `flatMapLatest`, RxJS's `switchMap`):
    /// when a new element comes, the previous inner sequence's iteration is
    /// cancelled and its pending element dropped.
    ///
    /// It ends when this sequence and the latest inner sequence have both ended,
    /// and fails as soon as either fails. Inner sequences are read one element
    /// at a time, as the consumer asks.
    ///
    /// It is named `switchMap` so that it never collides with the unreleased
    /// `flatMapLatest` of swift-async-algorithms (its issue #437), which a file
    /// importing that package would otherwise pick.
    ///
    /// ```
    /// outer:  ──a───────b──────|
    /// inner:    a1──a2──  b1──b2──|
    /// output: ──a1──a2────b1──b2──|   (a's inner is cancelled when b comes)
    /// ```
    public func switchMap<Inner: AsyncSequence & Sendable>(
        _ transform: @escaping @Sendable (Element) -> Inner
    ) -> AsyncSwitchMapSequence<Self, Inner> where Inner.Element: Sendable {
        AsyncSwitchMapSequence(base: self, transform: transform)
    }
}

/// An asynchronous sequence that switches to the latest inner sequence, made
/// by ``AsyncSequence/switchMap(_:)``.
public struct AsyncSwitchMapSequence<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>: AsyncSequence,
    Sendable
where Base.Element: Sendable, Inner.Element: Sendable {
    /// The type of the elements.
    public typealias Element = Inner.Element

    let base: Base
    let transform: @Sendable (Base.Element) -> Inner

    /// The iterator of an ``AsyncSwitchMapSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: Handle

        /// The next element of the latest inner sequence.
        public mutating func next() async throws -> Element? {
            try await handle.storage.next()
        }
    }

    /// Cancels the iteration when the iterator goes away.
    final class Handle: Sendable {
        let storage: SwitchMapStorage<Base, Inner>

        init(_ storage: SwitchMapStorage<Base, Inner>) {
            self.storage = storage
        }

        deinit {
            storage.cancel()
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: Handle(SwitchMapStorage(base: base, transform: transform)))
    }
}

/// The state of one ``AsyncSwitchMapSequence`` iteration: the task reading
/// the outer sequence, the task reading the latest inner one, and the element
/// being handed over.
///
/// Thread-safety: `Sendable`; state behind a `Mutex`, continuations resumed outside it.
final class SwitchMapStorage<Base: AsyncSequence & Sendable, Inner: AsyncSequence & Sendable>: Sendable
where Base.Element: Sendable, Inner.Element: Sendable {
    typealias Element = Inner.Element

    private struct State {
        var started = false
        var generation = 0
        var outerTask: Task<Void, Never>?
        var innerTask: Task<Void, Never>?
        var outerFinished = false
        var innerRunning = false
        /// An element the current inner sequence offers, and its producer waiting for it to be taken.
        var offered: (generation: Int, element: Element, producer: CheckedContinuation<Bool, Never>)?
        var consumer: CheckedContinuation<Element?, any Error>?
        var terminal: Result<Void, any Error>?
    }

    private let base: Base
    private let transform: @Sendable (Base.Element) -> Inner
    private let state = Mutex(State())

    init(base: Base, transform: @escaping @Sendable (Base.Element) -> Inner) {
        self.base = base
        self.transform = transform
    }

    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                var start = false
                let ready = state.withLock {
                    state -> (Result<Element?, any Error>, CheckedContinuation<Bool, Never>?)? in
                    if let offered = state.offered {
                        state.offered = nil
                        return (.success(offered.element), offered.producer)
                    }
                    if let terminal = state.terminal {
                        state.terminal = .success(())
                        return (terminal.map { nil }, nil)
                    }
                    if Task.isCancelled { return (.failure(CancellationError()), nil) }
                    state.consumer = continuation
                    if !state.started {
                        state.started = true
                        start = true
                    }
                    return nil
                }
                if let (result, producer) = ready {
                    producer?.resume(returning: true)
                    continuation.resume(with: result)
                } else if start {
                    startOuter()
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Cancels both tasks and ends the iteration.
    func cancel() {
        end(.failure(CancellationError()))
    }

    private func startOuter() {
        let task = Task.inheritingExecutor {
            do {
                for try await element in self.base {
                    self.switchTo(element)
                }
                self.outerDidFinish()
            } catch {
                self.end(.failure(error))
            }
        }
        let cancelled = state.withLock { state -> Bool in
            state.outerTask = task
            return state.terminal != nil
        }
        if cancelled { task.cancel() }
    }

    private func switchTo(_ element: Base.Element) {
        let inner = transform(element)
        let (generation, previous, dropped) = state.withLock { state in
            state.generation += 1
            state.innerRunning = true
            let dropped = state.offered?.producer
            state.offered = nil
            return (state.generation, state.innerTask, dropped)
        }
        previous?.cancel()
        dropped?.resume(returning: false)
        let task = Task.inheritingExecutor {
            do {
                for try await element in inner {
                    guard await self.offer(element, generation: generation) else { return }
                }
                self.innerDidFinish(generation: generation)
            } catch {
                if self.isCurrent(generation) { self.end(.failure(error)) }
            }
        }
        let stale = state.withLock { state -> Bool in
            guard state.generation == generation, state.terminal == nil else { return true }
            state.innerTask = task
            return false
        }
        if stale { task.cancel() }
    }

    private func isCurrent(_ generation: Int) -> Bool {
        state.withLock { $0.generation == generation }
    }

    /// Hands an inner element to the consumer; `false` when it is stale and the inner should stop.
    private func offer(_ element: Element, generation: Int) async -> Bool {
        await withCheckedContinuation { (producer: CheckedContinuation<Bool, Never>) in
            let action = state.withLock { state -> (CheckedContinuation<Element?, any Error>?, Bool?) in
                guard state.generation == generation, state.terminal == nil else { return (nil, false) }
                if let consumer = state.consumer {
                    state.consumer = nil
                    return (consumer, true)
                }
                state.offered = (generation, element, producer)
                return (nil, nil)
            }
            action.0?.resume(returning: element)
            if let proceed = action.1 { producer.resume(returning: proceed) }
        }
    }

    private func innerDidFinish(generation: Int) {
        let finished = state.withLock { state -> Bool in
            guard state.generation == generation else { return false }
            state.innerRunning = false
            return state.outerFinished
        }
        if finished { end(.success(())) }
    }

    private func outerDidFinish() {
        let finished = state.withLock { state -> Bool in
            state.outerFinished = true
            return !state.innerRunning
        }
        if finished { end(.success(())) }
    }

    private func end(_ terminal: Result<Void, any Error>) {
        let (consumer, producer, tasks) = state.withLock { state in
            if state.terminal == nil { state.terminal = terminal }
            defer {
                state.consumer = nil
                state.offered = nil
            }
            return (state.consumer, state.offered?.producer, [state.outerTask, state.innerTask])
        }
        for task in tasks { task?.cancel() }
        producer?.resume(returning: false)
        if let consumer {
            consumer.resume(with: terminal.map { nil })
            state.withLock { $0.terminal = .success(()) }
        }
    }
}
