import Hummingbird
import NIOCore
import Synchronization

/// The latest `GET /v1/status` body and what it was rendered from.
///
/// Thread-safety: `Sendable`; its state is behind a `Mutex`.
final class StatusCache: Sendable {
    /// What a body depends on besides the agent's fixed fields.
    struct Key: Sendable, Hashable {
        var version: Int
        package var online: Bool
    }

    private let latest = Mutex<(key: Key, body: ByteBuffer)?>(nil)

    /// The body for `key`: the cached one if it was rendered for `key`, else a new one from `render`.
    func body(for key: Key, render: () -> ByteBuffer) -> ByteBuffer {
        if let cached = latest.withLock({ $0 }), cached.key == key { return cached.body }
        let body = render()
        latest.withLock { $0 = (key, body) }
        return body
    }
}
