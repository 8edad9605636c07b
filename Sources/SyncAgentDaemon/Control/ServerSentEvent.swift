import SyncCore

/// One server-sent event (the `text/event-stream` format of the HTML
/// standard): a name and one line of JSON data.
struct ServerSentEvent: Sendable, Hashable {
    /// The media type of an event stream.
    static let contentType = "text/event-stream"

    /// The `event:` field, such as `resource` or `result`.
    var name: String
    /// The `data:` field.
    var data: String

    /// An event whose data is `json`, on one line.
    init(name: String, data json: JSONValue) {
        self.init(name: name, text: json.serialized())
    }

    /// An event whose data is `value`, as JSON on one line.
    init(name: String, encoding value: some Encodable) {
        self.init(name: name, data: JSONValue(encoding: value))
    }

    /// The event of a sync's report: `progress`, `retry`, `slow` or `result`.
    init(activity: SyncActivity) {
        self.init(name: activity.eventName, data: JSONValue(encoding: activity.payload))
    }

    /// The last event of a stream whose client fell too far behind (docs/api.md#following-changes-get-v1events).
    static let overflow = ServerSentEvent(
        name: "overflow", encoding: ["message": "this client read too slowly and is disconnected; connect again"])

    /// An event with this data text.
    init(name: String, text: String) {
        self.name = name
        data = text
    }

    /// The event as the stream carries it: its fields, then a blank line.
    var encoded: String {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }
        return "event: \(name)\n" + lines.joined() + "\n"
    }
}

/// Reads server-sent events from the bytes of a stream, as they arrive in
/// chunks: lines end with LF, CRLF or CR; `:` starts a comment; a blank line
/// ends an event; several `data:` lines are joined with LF.
struct ServerSentEventParser: Sendable {
    private var line: [UInt8] = []
    private var lastWasCR = false
    private var name = ""
    private var data: [String] = []

    /// Creates a parser at the start of a stream.
    init() {}

    /// The events completed by `bytes`.
    mutating func feed(_ bytes: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n"), lastWasCR {
                lastWasCR = false
                continue
            }
            lastWasCR = byte == UInt8(ascii: "\r")
            guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else {
                line.append(byte)
                continue
            }
            if let event = endLine() { events.append(event) }
        }
        return events
    }

    private mutating func endLine() -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        if line.isEmpty {
            defer {
                name = ""
                data = []
            }
            guard !data.isEmpty else { return nil }
            return ServerSentEvent(name: name.isEmpty ? "message" : name, text: data.joined(separator: "\n"))
        }
        guard line.first != UInt8(ascii: ":") else { return nil }
        let text = String(decoding: line, as: UTF8.self)
        let field: Substring
        var value: Substring
        if let colon = text.firstIndex(of: ":") {
            field = text[..<colon]
            value = text[text.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
        } else {
            field = Substring(text)
            value = ""
        }
        switch field {
        case "event": name = String(value)
        case "data": data.append(String(value))
        default: break
        }
        return nil
    }
}
