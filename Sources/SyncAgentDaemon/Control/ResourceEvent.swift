import SyncCore
import Synchronization

/// One change as a `resource` event of `GET /v1/events`, encoded when a
/// client first asks for it and then reused by every other: nothing is
/// encoded while no client listens.
///
/// Thread-safety: `Sendable`; the text is behind a `Mutex`.
final class ResourceEvent: Sendable {
    let change: StatusChange
    private let encoded = Mutex<String?>(nil)

    init(_ change: StatusChange) {
        self.change = change
    }

    /// The event as the stream carries it, followed by a `changes` event
    /// when the sync that ended with it changed records.
    var text: String {
        encoded.withLock { encoded in
            if let encoded { return encoded }
            var text = ServerSentEvent(name: "resource", encoding: change.status).encoded
            if let feed = change.feed {
                let changes: JSONValue = [
                    "resource": .string(change.status.name), "first": .number(Int(feed.lowerBound)),
                    "last": .number(Int(feed.upperBound)),
                ]
                text += ServerSentEvent(name: "changes", data: changes).encoded
            }
            encoded = text
            return text
        }
    }
}
