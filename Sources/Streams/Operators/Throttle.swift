import Synchronization

extension AsyncSequence where Self: Sendable, Element: Sendable {
    /// Creates an asynchronous sequence that produces at most one element per
    /// `interval`: the first element at once, then, of the elements that come
    /// during each interval, the latest (or the first, if `latest` is `false`)
    /// when the interval ends. The upstream is read continuously, so elements
    /// between two emissions are dropped; its end or failure is passed on after
    /// any element still pending.
    ///
    /// ```
    /// upstream: a-b-c-----d-e-----|
    /// throttle: a---c-----d---e---|   (interval: 4 ticks)
    /// ```
    public func throttle<C: Clock<Duration>>(
        for interval: Duration, clock: C, latest: Bool = true
    ) -> AsyncThrottleSequence<Self, C> {
        AsyncThrottleSequence(base: self, interval: interval, clock: clock, latest: latest)
    }
}

/// An asynchronous sequence that passes on at most one element per interval,
/// made by ``AsyncSequence/throttle(for:clock:latest:)``.
public struct AsyncThrottleSequence<Base: AsyncSequence & Sendable, C: Clock<Duration>>: AsyncSequence, Sendable
where Base.Element: Sendable {
    /// The type of the elements.
    public typealias Element = Base.Element

    let base: Base
    let interval: Duration
    let clock: C
    let latest: Bool

    /// The iterator of an ``AsyncThrottleSequence``.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let storage: ThrottleStorage<Base, C>

        /// The next element to pass on, when its interval allows.
        public mutating func next() async throws -> Element? {
            try await storage.next()
        }
    }

    /// Starts an iteration.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(storage: ThrottleStorage(base: base, interval: interval, clock: clock, latest: latest))
    }
}

/// The element waiting to be passed on, and the task reading the base.
///
/// Thread-safety: `Sendable`; state behind a `Mutex`, continuations resumed outside it.
final class ThrottleStorage<Base: AsyncSequence & Sendable, C: Clock<Duration>>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    private struct State {
        var pending: Element?
        var terminal: Result<Void, any Error>?
        var lastEmission: C.Instant?
        var consumer: CheckedContinuation<Void, any Error>?
        var started = false
        var task: Task<Void, Never>?
    }

    private enum Step {
        case emit(Element)
        case finish(Result<Void, any Error>)
        case sleep(until: C.Instant)
        case wait
    }

    private let base: Base
    private let interval: Duration
    private let clock: C
    private let latest: Bool
    private let state = Mutex(State())

    init(base: Base, interval: Duration, clock: C, latest: Bool) {
        self.base = base
        self.interval = interval
        self.clock = clock
        self.latest = latest
    }

    deinit {
        state.withLock { $0.task?.cancel() }
    }

    func next() async throws -> Element? {
        startIfNeeded()
        while true {
            let now = clock.now
            let step = state.withLock { state -> Step in
                if let element = state.pending {
                    if let last = state.lastEmission, now < last.advanced(by: interval) {
                        return .sleep(until: last.advanced(by: interval))
                    }
                    state.pending = nil
                    state.lastEmission = now
                    return .emit(element)
                }
                if let terminal = state.terminal {
                    state.terminal = .success(())
                    return .finish(terminal)
                }
                return .wait
            }
            switch step {
            case .emit(let element):
                return element
            case .finish(let terminal):
                try terminal.get()
                return nil
            case .sleep(let deadline):
                try await clock.sleep(until: deadline, tolerance: nil)
            case .wait:
                try await waitForInput()
            }
        }
    }

    private func startIfNeeded() {
        let start = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        // The reader holds the storage weakly: an abandoned iteration frees the
        // storage, whose deinit cancels the reader.
        let task = Task.inheritingExecutor { [weak self, base, latest] in
            do {
                for try await element in base {
                    guard let self else { return }
                    self.receive { state in
                        if latest || state.pending == nil { state.pending = element }
                    }
                }
                self?.receive { $0.terminal = .success(()) }
            } catch {
                self?.receive { $0.terminal = .failure(error) }
            }
        }
        state.withLock { $0.task = task }
    }

    private func receive(_ change: (inout State) -> Void) {
        let consumer = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            change(&state)
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume()
    }

    private func waitForInput() async throws {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let ready = state.withLock { state -> Bool in
                    if state.pending != nil || state.terminal != nil || Task.isCancelled { return true }
                    state.consumer = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
            try Task.checkCancellation()
        } onCancel: {
            let (consumer, task) = state.withLock { state in
                defer { state.consumer = nil }
                return (state.consumer, state.task)
            }
            task?.cancel()
            consumer?.resume(throwing: CancellationError())
        }
    }
}
