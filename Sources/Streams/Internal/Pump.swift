import Synchronization

/// Iterates a base sequence in a task of its own, one element per request:
/// the base is asked for an element only when a consumer asks the pump, so
/// nothing is fetched ahead. Operators that must wait on their upstream and on
/// something else at once (a deadline, another sequence) are built on it.
///
/// Thread-safety: `Sendable`; one consumer at a time may call ``next()``.
final class Pump<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    typealias Element = Base.Element

    private struct State {
        var task: Task<Void, Never>?
        /// The pump task, parked until an element is asked for.
        var pumpWaiting: CheckedContinuation<Bool, Never>?
        /// The consumer, waiting for an element.
        var consumer: CheckedContinuation<Element?, any Error>?
        var demand = false
        /// Set once the base finished, failed or the pump was cancelled.
        var terminal: Result<Void, any Error>?
    }

    private enum NextAction {
        case finish(Result<Void, any Error>)
        case resumePump(CheckedContinuation<Bool, Never>)
        case start
        case none
    }

    private let base: Base
    private let state = Mutex(State())

    init(_ base: Base) {
        self.base = base
    }

    /// The next element of the base, fetched now; `nil` at its end.
    ///
    /// Cancelling the calling task cancels the pump (and the base's iteration).
    func next() async throws -> Element? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Element?, any Error>) in
                let action = state.withLock { state -> NextAction in
                    if let terminal = state.terminal { return .finish(terminal) }
                    if Task.isCancelled {
                        state.terminal = .failure(CancellationError())
                        return .finish(.failure(CancellationError()))
                    }
                    state.consumer = continuation
                    state.demand = true
                    if let pump = state.pumpWaiting {
                        state.pumpWaiting = nil
                        return .resumePump(pump)
                    }
                    return state.task == nil ? .start : .none
                }
                switch action {
                case .finish(let terminal):
                    switch terminal {
                    case .success: continuation.resume(returning: nil)
                    case .failure(let error): continuation.resume(throwing: error)
                    }
                case .resumePump(let pump):
                    pump.resume(returning: true)
                case .start:
                    startTask()
                case .none:
                    break
                }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops the pump: its task is cancelled and a waiting consumer is told so.
    func cancel() {
        let (task, pump, consumer) = state.withLock { state in
            if state.terminal == nil { state.terminal = .failure(CancellationError()) }
            defer {
                state.pumpWaiting = nil
                state.consumer = nil
            }
            return (state.task, state.pumpWaiting, state.consumer)
        }
        task?.cancel()
        pump?.resume(returning: false)
        consumer?.resume(throwing: CancellationError())
    }

    private func startTask() {
        let task = Task.inheritingExecutor { [base] in
            var iterator = base.makeAsyncIterator()
            while await self.waitForDemand() {
                do {
                    let element = try await iterator.next()
                    self.deliver(.success(element))
                    if element == nil { return }
                } catch {
                    self.deliver(.failure(error))
                    return
                }
            }
        }
        let cancelled = state.withLock { state -> Bool in
            state.task = task
            return state.terminal != nil
        }
        if cancelled { task.cancel() }
    }

    /// Parks the pump task until an element is asked for; `false` means stop.
    private func waitForDemand() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let proceed = state.withLock { state -> Bool? in
                if state.terminal != nil { return false }
                if state.demand { return true }
                state.pumpWaiting = continuation
                return nil
            }
            if let proceed { continuation.resume(returning: proceed) }
        }
    }

    private func deliver(_ result: Result<Element?, any Error>) {
        let consumer = state.withLock { state -> CheckedContinuation<Element?, any Error>? in
            state.demand = false
            switch result {
            case .success(nil): state.terminal = .success(())
            case .failure(let error): state.terminal = .failure(error)
            case .success: break
            }
            defer { state.consumer = nil }
            return state.consumer
        }
        consumer?.resume(with: result)
    }
}

/// Cancels a pump when the iterator that owns it goes away, so an abandoned
/// iteration leaves no task behind.
final class PumpHandle<Base: AsyncSequence & Sendable>: Sendable where Base.Element: Sendable {
    let pump: Pump<Base>

    init(_ base: Base) {
        pump = Pump(base)
    }

    deinit {
        pump.cancel()
    }
}
