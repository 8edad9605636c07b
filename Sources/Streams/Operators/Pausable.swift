import Synchronization

extension AsyncSequence {
    /// Creates an asynchronous sequence that asks this one for an element only
    /// while the latest value of `gate` is `true`.
    ///
    /// While the gate is closed, no new work starts upstream: a request for the
    /// next element is held (not dropped) until the gate opens. An element
    /// already being produced when the gate closes is not interrupted. Before
    /// the gate's first value the gate is open, unless `startOpen` is `false`;
    /// after the gate's end it keeps its last value.
    ///
    /// Placed before ``retryIf(policy:clock:random:onRetry:_:)``, it holds each
    /// attempt: no retry fires while the gate is closed. Each iteration follows
    /// the gate anew, so a retry starts from `startOpen` until the gate's value
    /// reaches it; a ``CurrentValueSubject`` gate (see
    /// ``pausable(by:)-(CurrentValueSubject<Bool,Never>)``) is known at once.
    ///
    /// ```
    /// gate:     T─────F─────────T──
    /// upstream: ──a─────── ·  ─────b──c─
    /// pausable: ──a─────────────b──c─
    /// ```
    public func pausable<Gate: AsyncSequence<Bool, Never> & Sendable>(
        by gate: Gate, startOpen: Bool = true
    ) -> AsyncPausableSequence<Self, Gate> {
        AsyncPausableSequence(base: self, gate: gate, initial: { startOpen })
    }

    /// Creates an asynchronous sequence held while `gate`'s value is `false`:
    /// each iteration starts from the gate's current value, so a closed gate
    /// holds even the very first request. An iteration that finds the gate
    /// open reads it and goes on; only one that finds it closed starts a task
    /// following it.
    public func pausable(
        by gate: CurrentValueSubject<Bool, Never>
    ) -> AsyncPausableSequence<Self, CurrentValueSubject<Bool, Never>> {
        AsyncPausableSequence(base: self, gate: gate, initial: { gate.value }, current: { gate.value })
    }
}

/// An asynchronous sequence held while its gate is closed, made by
/// ``AsyncSequence/pausable(by:startOpen:)``.
public struct AsyncPausableSequence<Base: AsyncSequence, Gate: AsyncSequence<Bool, Never> & Sendable>: AsyncSequence {
    /// The type of the elements.
    public typealias Element = Base.Element

    @usableFromInline let base: Base
    @usableFromInline let gate: Gate
    /// The gate's state before its first value reaches an iteration.
    @usableFromInline let initial: @Sendable () -> Bool
    /// The gate's value now, when it can be read (a ``CurrentValueSubject``):
    /// then an iteration follows the gate only while it is closed.
    @usableFromInline let current: (@Sendable () -> Bool)?

    @usableFromInline init(
        base: Base, gate: Gate, initial: @escaping @Sendable () -> Bool, current: (@Sendable () -> Bool)? = nil
    ) {
        self.base = base
        self.gate = gate
        self.initial = initial
        self.current = current
    }

    /// The iterator of an ``AsyncPausableSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        @usableFromInline var iterator: Base.AsyncIterator
        @usableFromInline let gate: Gate
        @usableFromInline let current: (@Sendable () -> Bool)?
        /// The follower of the gate: from the start, or once the gate's
        /// current value is found closed.
        @usableFromInline var state: GateState?

        @usableFromInline init(
            iterator: Base.AsyncIterator, gate: Gate, current: (@Sendable () -> Bool)?, state: GateState?
        ) {
            self.iterator = iterator
            self.gate = gate
            self.current = current
            self.state = state
        }

        /// Waits while the gate is closed, then the next element of the base.
        @inlinable public mutating func next() async throws -> Element? {
            if let current, state == nil {
                // Open now: no task follows the gate.
                if current() { return try await iterator.next() }
                state = GateState(gate: gate, startOpen: false)
            }
            try await state?.waitUntilOpen()
            return try await iterator.next()
        }
    }

    /// Starts an iteration.
    @inlinable public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(
            iterator: base.makeAsyncIterator(), gate: gate, current: current,
            state: current == nil ? GateState(gate: gate, startOpen: initial()) : nil)
    }
}

extension AsyncPausableSequence: Sendable where Base: Sendable {}

/// The gate's latest value and the requests waiting for it to open. A task
/// follows the gate sequence for as long as the iterator lives.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`, and waiters are
/// resumed outside it.
@usableFromInline final class GateState: Sendable {
    private struct State {
        var open: Bool
        var waiters: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
    }

    private let state: Mutex<State>
    private let follower = Mutex<Task<Void, Never>?>(nil)

    @usableFromInline init<Gate: AsyncSequence<Bool, Never> & Sendable>(gate: Gate, startOpen: Bool) {
        state = Mutex(State(open: startOpen))
        let task = Task.inheritingExecutor { [weak self] in
            for await open in gate {
                guard let self else { return }
                self.set(open)
            }
        }
        follower.withLock { $0 = task }
    }

    deinit {
        follower.withLock { $0?.cancel() }
    }

    private func set(_ open: Bool) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, any Error>] in
            state.open = open
            guard open else { return [] }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns at once while the gate is open; otherwise waits until it opens.
    @usableFromInline func waitUntilOpen() async throws {
        if state.withLock({ $0.open }) { return }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resume = state.withLock { state -> Result<Void, any Error>? in
                    if state.open { return .success(()) }
                    if Task.isCancelled { return .failure(CancellationError()) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
