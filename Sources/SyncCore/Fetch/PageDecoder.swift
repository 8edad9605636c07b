import Foundation
import Store

/// Turns a page's body into records (docs/configuration.md#a-resource): the
/// array at `items` (or the single object there, which is the one record), each
/// item keyed by the string or number at `key`, and stored as compact JSON.
/// Items that `deleted` marks (docs/configuration.md#deletions) are no records:
/// an incremental resource's deletions, keyed at `deleted.key` if it is set.
struct PageDecoder: Sendable {
    let items: JSONPointer
    let key: JSONPointer
    var deleted: DeletedRule?

    init(items: JSONPointer, key: JSONPointer, deleted: DeletedRule? = nil) {
        self.items = items
        self.key = key
        self.deleted = deleted
    }

    /// A body that does not hold what the configuration says it should.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// A page, decoded.
    struct Decoded {
        var document: JSONDocument
        /// The records to keep, in order (items marked deleted left out).
        var records: [StagedRecord]
        var lastItem: JSONDocument.Span?
        /// How many items the page holds, those marked deleted among them.
        var itemCount = 0
        /// For an incremental resource: the records and the deletions, in the page's order.
        var changes: [IncrementalChange] = []
        /// For an incremental resource: the largest value of its `since` field among the
        /// items, or the value its `fromBody`, `token` or `link` names in the body.
        var kept: SinceState?
        /// For an incremental resource with `since.field`: the order of the items' times.
        var order = TimeOrder()
    }

    /// The page's document, its records in order, and its last item.
    func decode(
        _ bytes: [UInt8], document parsed: JSONDocument? = nil
    ) throws(Problem) -> (document: JSONDocument, records: [StagedRecord], lastItem: JSONDocument.Span?) {
        let decoded = try decode(bytes, document: parsed, incremental: nil)
        return (decoded.document, decoded.records, decoded.lastItem)
    }

    /// The page decoded; with `incremental`, its deletions and its value for the next sync too.
    func decode(
        _ bytes: [UInt8], document parsed: JSONDocument? = nil, incremental: IncrementalSettings?
    ) throws(Problem) -> Decoded {
        let document: JSONDocument
        if let parsed {
            document = parsed
        } else {
            do {
                document = try JSONDocument(validating: bytes)
            } catch {
                throw Problem(message: "the body is not valid JSON (\(error))")
            }
        }
        guard let container = document.span(at: items) else {
            throw Problem(message: "the body has no items at \"\(items)\"")
        }
        var decoded = Decoded(document: document, records: [], lastItem: nil)
        func add(_ item: JSONDocument.Span, at location: String) throws(Problem) {
            decoded.itemCount += 1
            if let deleted, deleted.matches(item, in: document) {
                // A tombstone: no record of a snapshot, a deletion for an incremental resource.
                if incremental != nil {
                    let gone = try key(of: item, at: deleted.key ?? self.key, in: document, location: location)
                    decoded.changes.append(.delete(key: gone))
                }
            } else {
                let record = StagedRecord(
                    key: try key(of: item, at: self.key, in: document, location: location),
                    data: document.compactText(of: item))
                decoded.records.append(record)
                if incremental != nil { decoded.changes.append(.upsert(record)) }
            }
            guard let incremental else { return }
            if case .field(let pointer) = incremental.source, let span = document.span(at: pointer, in: item),
                document.kind(of: span) != .null
            {
                let time = try Self.time(
                    JSONValue(document, span), kind: document.kind(of: span), format: incremental.format,
                    at: "the item at \"\(location)\" has", pointer: pointer)
                decoded.kept = .time(max(decoded.kept?.time ?? time, time))
                decoded.order.add(time)
            }
        }
        switch document.kind(of: container) {
        case .array:
            var index = 0
            var problem: Problem?
            document.forEachElement(of: container) { item in
                decoded.lastItem = item
                do throws(Problem) {
                    try add(item, at: "\(items)/\(index)")
                } catch {
                    problem = error
                    return false
                }
                index += 1
                return true
            }
            if let problem { throw problem }
        case .object:
            decoded.lastItem = container
            try add(container, at: items.description)
        case let kind:
            throw Problem(
                message: "the items at \"\(items)\" are \(kind.phrase), not an array of items")
        }
        if let incremental { decoded.kept = try kept(by: incremental, in: document) ?? decoded.kept }
        return decoded
    }

    /// The value the body names for the next sync (`fromBody`, `token`,
    /// `link`); `nil` when it names none, or the items give it (`field`).
    private func kept(by incremental: IncrementalSettings, in document: JSONDocument) throws(Problem) -> SinceState? {
        let pointer: JSONPointer
        switch incremental.source {
        case .field: return nil
        case .body(let field), .token(let field), .link(let field): pointer = field
        }
        guard let span = document.span(at: pointer) else { return nil }
        let value = JSONValue(document, span)
        switch (incremental.source, value) {
        case (_, .null): return nil
        case (.body, _):
            return .time(
                try Self.time(
                    value, kind: document.kind(of: span), format: incremental.format, at: "the body has",
                    pointer: pointer))
        case (.token, .string(let text)), (.token, .number(let text)), (.link, .string(let text)):
            if text.isEmpty { return nil }
            // Neither store keeps a NUL in a text (SQLite's ends there, PostgreSQL's refuses it):
            // refused, not kept cut short (docs/configuration.md#what-a-sync-keeps).
            guard !text.utf8.contains(0) else {
                throw Problem(
                    message: "the body has \(text.shownQuoted()) at \"\(pointer)\", which holds a NUL character: "
                        + "no store keeps it whole")
            }
            return .token(text)
        default:
            throw Problem(
                message: "the body has \(document.kind(of: span).phrase) at \"\(pointer)\", not "
                    + (incremental.source == .link(pointer) ? "a URL" : "a token (a string or a number)"))
        }
    }

    /// The time `value` (at `pointer`, of `kind`) holds, exactly; a value that is
    /// none, or one outside years 1 to 9999, is a problem that names it.
    private static func time(
        _ value: JSONValue, kind: JSONDocument.Kind, format: IncrementalSettings.Format, at place: String,
        pointer: JSONPointer
    ) throws(Problem) -> ExactTime {
        switch format.time(from: value) {
        case .success(let time):
            return time
        case .failure(let problem):
            let shown = kind == .string || kind == .number ? value.shown() : kind.phrase
            throw Problem(message: "\(place) \(shown) at \"\(pointer)\", \(format.phrase(problem, of: value))")
        }
    }

    /// The key of `item`: the string or number at `key`.
    private func key(
        of item: JSONDocument.Span, at key: JSONPointer, in document: JSONDocument, location: String
    ) throws(Problem) -> String {
        guard let keySpan = document.span(at: key, in: item) else {
            throw Problem(message: "the item at \"\(location)\" has no key at \"\(key)\"")
        }
        let keyText: String
        switch document.kind(of: keySpan) {
        case .string:
            // A key must survive the database as text: no NUL, no lone surrogate.
            guard let text = document.exactString(at: keySpan), !text.contains("\u{0}") else {
                throw Problem(
                    message: "the key of the item at \"\(location)\" holds a NUL or a lone surrogate, "
                        + "which a key cannot")
            }
            keyText = text
        case .number: keyText = document.text(of: keySpan)
        case let kind:
            throw Problem(
                message: "the key of the item at \"\(location)\" is \(kind.phrase), not a string or a number")
        }
        return keyText
    }
}
