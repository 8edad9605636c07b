extension RequestBody {
    /// A resource's `body`, for POST: a string sent as text, else JSON, its
    /// strings' references filled.
    static func load(
        _ value: JSONValue?, at path: String, method: HTTPMethod, in context: ConfigContext
    ) -> RequestBody? {
        let reader = context.reader
        guard let value else { return nil }
        guard method == .post else {
            reader.report(path, "needs \"method\": \"POST\"")
            return nil
        }
        if case .string(let raw) = value {
            return context.substitute(raw, at: path).map {
                RequestBody(text: $0, contentType: "text/plain; charset=utf-8")
            }
        }
        guard let filled = substituteStrings(in: value, at: path, context: context) else { return nil }
        return RequestBody(text: filled.serialized(), contentType: jsonType)
    }

    /// `value` with every string's references filled.
    private static func substituteStrings(in value: JSONValue, at path: String, context: ConfigContext) -> JSONValue? {
        switch value {
        case .string(let text): return context.substitute(text, at: path).map { .string($0) }
        case .array(let elements):
            var filled: [JSONValue] = []
            for (index, element) in elements.enumerated() {
                guard let value = substituteStrings(in: element, at: "\(path)[\(index)]", context: context) else {
                    return nil
                }
                filled.append(value)
            }
            return .array(filled)
        case .object(let members):
            var filled: [JSONValue.Member] = []
            for member in members {
                guard
                    let value = substituteStrings(
                        in: member.value, at: ObjectFields.path(path, member.name), context: context)
                else { return nil }
                filled.append(JSONValue.Member(member.name, value))
            }
            return .object(filled)
        default: return value
        }
    }
}
