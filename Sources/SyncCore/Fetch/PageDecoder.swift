import Store

/// Turns a page's body into records (docs/configuration.md#a-resource): the
/// array at `items` (or the single object there, which is the one record), each
/// item keyed by the string or number at `key`, and stored as compact JSON.
struct PageDecoder: Sendable {
    let items: JSONPointer
    let key: JSONPointer

    /// A body that does not hold what the configuration says it should.
    struct Problem: Error, Equatable {
        var message: String
    }

    /// The page's document, its records in order, and its last item.
    func decode(
        _ bytes: [UInt8], document parsed: JSONDocument? = nil
    ) throws(Problem) -> (document: JSONDocument, records: [StagedRecord], lastItem: JSONDocument.Span?) {
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
        switch document.kind(of: container) {
        case .array:
            var records: [StagedRecord] = []
            var index = 0
            var problem: Problem?
            var lastItem: JSONDocument.Span?
            document.forEachElement(of: container) { item in
                lastItem = item
                do throws(Problem) {
                    records.append(try record(item, in: document, at: "\(items)/\(index)"))
                } catch {
                    problem = error
                    return false
                }
                index += 1
                return true
            }
            if let problem { throw problem }
            return (document, records, lastItem)
        case .object:
            return (document, [try record(container, in: document, at: items.description)], container)
        case let kind:
            throw Problem(
                message: "the items at \"\(items)\" are \(kind.phrase), not an array of items")
        }
    }

    private func record(
        _ item: JSONDocument.Span, in document: JSONDocument, at location: String
    ) throws(Problem)
        -> StagedRecord
    {
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
        return StagedRecord(key: keyText, data: document.compactText(of: item))
    }
}
