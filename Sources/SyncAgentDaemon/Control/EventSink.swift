import Synchronization

/// Where the producers of an event stream put its text; the response
/// writes what comes out of ``texts``.
///
/// What waits for a slow client is bounded by ``Limits`` (a count and
/// bytes). A client that falls that far behind overflows the sink: ``send(_:)``
/// answers `false`, ``texts`` ends, ``overflowed`` turns true and
/// `onOverflow` runs once, so the response can tell the client (an
/// `event: overflow`) and close its connection (docs/api.md#following-changes-get-v1events).
/// It can connect again and start from the current state.
///
/// Thread-safety: `Sendable`; send from any task.
final class EventSink: Sendable {
    /// How much may wait for a client.
    struct Limits: Sendable {
        /// The most texts waiting.
        var count = 1024
        /// The most bytes waiting.
        var bytes = 256 * 1024
    }

    /// The texts to write, in order; it ends when the sink finishes or overflows.
    let texts: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation
    private let limits: Limits
    private let onOverflow: @Sendable () -> Void
    private let state = Mutex(State())

    private struct State {
        var count = 0
        var bytes = 0
        var overflowed = false
        var finished = false
    }

    /// A sink holding at most `limits` for its client; `onOverflow` runs when it overflows.
    init(limits: Limits = Limits(), onOverflow: @escaping @Sendable () -> Void = {}) {
        (texts, continuation) = AsyncStream.makeStream()
        self.limits = limits
        self.onOverflow = onOverflow
    }

    /// Whether the client fell too far behind.
    var overflowed: Bool { state.withLock(\.overflowed) }

    /// Queues an event; `false` when the stream has ended.
    @discardableResult
    func send(_ event: ServerSentEvent, bounded: Bool = true) -> Bool {
        send(text: event.encoded, bounded: bounded)
    }

    /// Queues text as is; `false` when the stream has ended. An unbounded text
    /// (the current state a stream starts with, as large as the
    /// configuration) never overflows the sink, but counts towards its limits
    /// until it is written.
    @discardableResult
    func send(text: String, bounded: Bool = true) -> Bool {
        let size = text.utf8.count
        let fits = state.withLock { state -> Bool? in
            guard !state.overflowed, !state.finished else { return nil }
            if bounded, state.count + 1 > limits.count || state.bytes + size > limits.bytes {
                state.overflowed = true
                return false
            }
            state.count += 1
            state.bytes += size
            return true
        }
        switch fits {
        case true?:
            if case .enqueued = continuation.yield(text) { return true }
            return false
        case false?:
            continuation.finish()
            onOverflow()
            return false
        case nil:
            return false
        }
    }

    /// Tells the sink a text from ``texts`` has been written: it no longer waits.
    func written(_ text: String) {
        let size = text.utf8.count
        state.withLock { state in
            state.count -= 1
            state.bytes -= size
        }
    }

    /// Ends the stream once what is queued is written; what is sent after is dropped.
    func finish() {
        state.withLock { $0.finished = true }
        continuation.finish()
    }
}
