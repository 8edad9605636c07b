import Store

/// The next page's request as the pages table and a walk's cursor keep it:
/// its URL, body and position, and what it adds to the loop guard, secrets
/// sealed (docs/configuration.md#revalidation).
enum StoredRequest {
    /// `next`, the page after `request`, as text.
    static func encode(_ next: PageRequest, after request: PageRequest, redactor: Redactor) -> String {
        var members: [JSONValue.Member] = [
            .init("url", .string(redactor.seal(next.url))), .init("position", .number(next.position)),
            .init("seen", .array(next.seen.subtracting(request.seen).sorted().map { .string(redactor.seal($0)) })),
        ]
        if let body = next.body { members.append(.init("body", .string(redactor.seal(body)))) }
        if next.received > 0 { members.append(.init("received", .number(next.received))) }
        return JSONValue.object(members).serialized()
    }

    /// The page after `request`, from what ``encode(_:after:redactor:)`` wrote;
    /// `nil` when it cannot be read back (a secret it held is no longer configured).
    static func decode(_ text: String, after request: PageRequest, redactor: Redactor) -> PageRequest? {
        guard let value = try? JSONValue(parsing: Array(text.utf8)),
            let url = value["url"]?.stringValue.flatMap(redactor.unseal), let position = value["position"]?.intValue
        else { return nil }
        var next = PageRequest(number: request.number + 1, url: url, position: position, seen: request.seen)
        for mark in value["seen"]?.arrayValue ?? [] {
            guard let text = mark.stringValue.flatMap(redactor.unseal) else { return nil }
            next.seen.insert(text)
        }
        if let body = value["body"]?.stringValue {
            guard let unsealed = redactor.unseal(body) else { return nil }
            next.body = unsealed
        }
        next.received = value["received"]?.intValue ?? 0
        return next
    }
}
