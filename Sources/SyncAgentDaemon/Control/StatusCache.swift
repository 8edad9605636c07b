import NIOCore
import SyncCore
import Synchronization

/// The `GET /v1/status` body (docs/api.md#get-v1status), built at most once
/// per version of the statuses, never per request, and from the last body:
/// only the resources whose status changed since are encoded, the others are
/// copied from it (docs/architecture.md#status-under-load).
///
/// So while every one of 10,000 resources syncs, a request costs the copy of
/// the body's bytes and the few statuses that changed since the last one,
/// not 10,000 encodings; and the statuses it reads under the publication's
/// lock are those few, not all of them.
///
/// Thread-safety: `Sendable`; the last body is behind a `Mutex`, and a new one
/// is built outside it.
final class StatusCache: Sendable {
    /// What a body shows: the version of the statuses, and the agent's `online`.
    struct Key: Sendable, Hashable {
        var version: Int
        package var online: Bool

        /// Whether a body made for `self` answers a request for `key`: the
        /// same `online`, and every status change that `key` counts.
        func answers(_ key: Key) -> Bool {
            online == key.online && version >= key.version
        }
    }

    /// A body and what it was built from.
    struct Body: Sendable {
        var key: Key
        /// The answer's bytes.
        var bytes: ByteBuffer
        /// The resources it shows, in its order.
        var names: [String]
        /// Where each resource's object is in `bytes`.
        var ranges: [Range<Int>]
    }

    private let last = Mutex<Body?>(nil)
    /// A resource's object as the body shows it.
    private let encode: @Sendable (ResourceStatus) -> String

    /// A cache that encodes each resource with `encode` (the API's encoding,
    /// unless a test counts what is encoded).
    init(encode: @escaping @Sendable (ResourceStatus) -> String = StatusCache.object(of:)) {
        self.encode = encode
    }

    /// The body for `key`: the last one if it shows that version or a later
    /// one, else one built from it, the `agent` and the statuses that
    /// `changes` says changed since its version (every one for `nil`).
    func body(
        for key: Key, agent: () -> AgentInfo, changes: (_ since: Int?) -> StatePublication.Changes
    ) -> ByteBuffer {
        let previous = last.withLock { $0 }
        if let previous, previous.key.answers(key) { return previous.bytes }
        let info = agent()
        func build(since previous: Body?) -> Body? {
            let changed = changes(previous?.key.version)
            return Self.build(
                key: Key(version: changed.version, online: key.online), agent: info, changes: changed,
                reusing: previous, encode: encode)
        }
        // Without a last body, every status is told, and the build cannot fail.
        guard let body = build(since: previous) ?? build(since: nil) else { return ByteBuffer() }
        last.withLock { last in
            // A request that came later may have built from later statuses already.
            if last.map({ !$0.key.answers(body.key) }) ?? true { last = body }
        }
        return body.bytes
    }

    /// The body of `agent` and the statuses, exactly as
    /// `APIResponse.jsonBody(encoding: StatusAnswer(agent:resources:))`
    /// writes it: each resource in `changes.changed` encoded, each other one
    /// copied from `previous` (runs of them in one copy); `nil` if one of
    /// them is not in `previous`.
    static func build(
        key: Key, agent: AgentInfo, changes: StatePublication.Changes, reusing previous: Body?,
        encode: (ResourceStatus) -> String
    ) -> Body? {
        var changed = [String: ResourceStatus](minimumCapacity: changes.changed.count)
        for status in changes.changed { changed[status.name] = status }
        var bytes = ByteBufferAllocator().buffer(capacity: (previous?.bytes.readableBytes ?? 0) + 4096)
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(changes.names.count)
        // The answer's members, indented as `JSONValue.serialized(pretty: true)` indents them.
        bytes.writeString("{\n  \"agent\": ")
        bytes.writeString(JSONValue(encoding: agent).serialized(pretty: true, indent: 1))
        bytes.writeString(",\n  \"resources\": ")
        guard !changes.names.isEmpty else {
            bytes.writeString("[]\n}\n")
            return Body(key: key, bytes: bytes, names: [], ranges: [])
        }
        bytes.writeString("[")
        // The resources of `previous` copied next, from `from` through `through`.
        var run: ClosedRange<Int>?
        func copyRun() {
            guard let copied = run, let previous else { return }
            let start = previous.ranges[copied.lowerBound].lowerBound
            let end = previous.ranges[copied.upperBound].upperBound
            let shift = bytes.writerIndex - start
            if let slice = previous.bytes.getSlice(at: start, length: end - start) { bytes.writeImmutableBuffer(slice) }
            for index in copied {
                ranges.append(previous.ranges[index].lowerBound + shift..<previous.ranges[index].upperBound + shift)
            }
            run = nil
        }
        // Where each name was in `previous`, made only if the order changed (a reload).
        var positions: [String: Int]?
        for (index, name) in changes.names.enumerated() {
            let separator = index == 0 ? "\n    " : ",\n    "
            if let status = changed[name] {
                copyRun()
                bytes.writeString(separator)
                let start = bytes.writerIndex
                bytes.writeString(encode(status))
                ranges.append(start..<bytes.writerIndex)
            } else if let previous, let at = position(of: name, near: index, in: previous, &positions) {
                // The one before it in `previous` is copied too: the separator between them is the same.
                if let copied = run, at == copied.upperBound + 1 {
                    run = copied.lowerBound...at
                } else {
                    copyRun()
                    bytes.writeString(separator)
                    run = at...at
                }
            } else {
                return nil
            }
        }
        copyRun()
        bytes.writeString("\n  ]\n}\n")
        return Body(key: key, bytes: bytes, names: changes.names, ranges: ranges)
    }

    /// Where `name` is in `previous`: at `index` when the order is the same,
    /// else looked up by name.
    private static func position(
        of name: String, near index: Int, in previous: Body, _ positions: inout [String: Int]?
    ) -> Int? {
        if index < previous.names.count, previous.names[index] == name { return index }
        if positions == nil {
            positions = Dictionary(
                previous.names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        }
        return positions?[name]
    }

    /// A resource's object, indented for its place in the body's `resources`.
    @Sendable static func object(of status: ResourceStatus) -> String {
        JSONValue(encoding: status).serialized(pretty: true, indent: 2)
    }
}
