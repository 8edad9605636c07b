/// Where the producers of an event stream put its text; the response
/// writes what comes out of ``texts``.
///
/// It holds at most ``capacity`` texts the client has not read yet. A client
/// that falls that far behind is cut off (``send(_:)`` answers `false` and
/// the stream ends) rather than let the agent's memory grow; it can
/// reconnect and start again from the current state.
///
/// Thread-safety: `Sendable`; send from any task.
struct EventSink: Sendable {
    /// The most texts waiting for a slow client.
    static let capacity = 4096

    /// The texts to write, in order.
    let texts: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init() {
        (texts, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(Self.capacity))
    }

    /// Queues an event; `false` when the stream has ended.
    @discardableResult
    func send(_ event: ServerSentEvent) -> Bool {
        send(text: event.encoded)
    }

    /// Queues text as is; `false` when the stream has ended.
    @discardableResult
    func send(text: String) -> Bool {
        switch continuation.yield(text) {
        case .enqueued: return true
        case .dropped:
            continuation.finish()
            return false
        case .terminated: return false
        @unknown default: return false
        }
    }

    /// Ends the stream once what is queued is written.
    func finish() {
        continuation.finish()
    }
}
