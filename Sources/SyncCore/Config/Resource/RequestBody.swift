/// A request body and its media type.
package struct RequestBody: Sendable, Hashable {
    /// The bytes sent, as text.
    package var text: String
    /// The `Content-Type` sent unless the headers set one.
    package var contentType: String
}

extension RequestBody {
    /// The media type of a JSON body: the one a body written as JSON is sent with.
    package static let jsonType = "application/json"

    /// The body as JSON, when it is JSON.
    package var json: JSONValue? {
        guard contentType.hasPrefix(Self.jsonType) else { return nil }
        return try? JSONValue(parsing: Array(text.utf8))
    }
}

extension JSONValue {
    /// Calls `body` with each string in the value and its path (`body.variables.query`, `body.ids[2]`).
    func forEachString(at path: String, _ body: (String, String) -> Void) {
        switch self {
        case .string(let text): body(text, path)
        case .array(let elements):
            for (index, element) in elements.enumerated() { element.forEachString(at: "\(path)[\(index)]", body) }
        case .object(let members):
            for member in members { member.value.forEachString(at: ObjectFields.path(path, member.name), body) }
        default: break
        }
    }

    /// The value with each string replaced by `transform`'s value for it and its path.
    func mappingStrings(at path: String, _ transform: (String, String) -> JSONValue) -> JSONValue {
        switch self {
        case .string(let text): transform(text, path)
        case .array(let elements):
            .array(elements.enumerated().map { $1.mappingStrings(at: "\(path)[\($0)]", transform) })
        case .object(let members):
            .object(
                members.map {
                    JSONValue.Member($0.name, $0.value.mappingStrings(at: ObjectFields.path(path, $0.name), transform))
                })
        default: self
        }
    }
}
