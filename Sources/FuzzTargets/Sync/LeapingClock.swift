import Synchronization

/// The clock of the `sync` target's syncs: time moves only by the waits the
/// sync asks for, which end at once, so a wait of an hour costs nothing and a
/// fuzz input never sleeps for real.
///
/// A sleep of up to ``horizon`` moves the clock to its deadline and returns. A
/// longer one, which only the request timeouts ask for (the target configures
/// ``SyncConfigChoice/timeout``, longer than any wait the sync may take), waits
/// until ``close()`` ends it with a `CancellationError`: a request of the
/// scripted upstream never times out, and the timers' sleeper never wakes.
/// Every wait is told to ``waits``, which the target checks against the
/// documented bounds.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
final class LeapingClock: Clock, Sendable {
    struct Instant: InstantProtocol, Sendable, Hashable, Comparable {
        var offset: Duration

        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// The longest wait that moves the clock; longer ones wait for ``close()``.
    static let horizon: Duration = .seconds(100 * 86_400)

    private struct State {
        var now = Instant(offset: .zero)
        var parked: [UInt64: CheckedContinuation<Void, any Error>] = [:]
        var nextID: UInt64 = 0
        var closed = false
        /// Every wait that moved the clock, in order.
        var waits: [Duration] = []
    }

    private let state = Mutex(State())

    var now: Instant { state.withLock { $0.now } }
    var minimumResolution: Duration { .nanoseconds(1) }

    /// The waits that moved the clock so far.
    var waits: [Duration] { state.withLock { $0.waits } }

    func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let leaped = state.withLock { state -> Bool? in
            let wait = state.now.duration(to: deadline)
            guard wait > .zero else { return true }
            guard wait <= Self.horizon else { return state.closed ? nil : false }
            state.waits.append(wait)
            state.now = deadline
            return true
        }
        switch leaped {
        case true?:
            // Others run before the sleeper goes on, as they would while it slept.
            await Task.yield()
            return
        case nil:
            throw CancellationError()
        case false?:
            break
        }
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let refused = state.withLock { state -> Bool in
                    guard !state.closed, !Task.isCancelled else { return true }
                    state.parked[id] = continuation
                    return false
                }
                if refused { continuation.resume(throwing: CancellationError()) }
            }
        } onCancel: {
            state.withLock { $0.parked.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
    }

    /// Ends every long wait, and any that starts from now on, with a `CancellationError`.
    func close() {
        let parked = state.withLock { state in
            state.closed = true
            defer { state.parked = [:] }
            return Array(state.parked.values)
        }
        for continuation in parked { continuation.resume(throwing: CancellationError()) }
    }
}
