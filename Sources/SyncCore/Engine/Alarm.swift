import Streams
import Synchronization

/// Wakes one waiting task; a ring while none waits is kept for the next wait.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`, the waiter resumed outside it.
final class Alarm: Sendable {
    private struct State {
        var rung = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func ring() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.rung = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns when rung, when `delay` has passed on the clock of `timers`, or when cancelled.
    func wait(until delay: Duration?, timers: Timers) async {
        guard let delay else { return await wait() }
        let token = timers.schedule(after: delay) { [weak self] in self?.ring() }
        await wait()
        // A deadline that rang after another ring woke this wait wakes the
        // next one early: the timer finds nothing due and waits again.
        timers.cancel(token)
    }

    private func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if state.rung || Task.isCancelled {
                        state.rung = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }
}
