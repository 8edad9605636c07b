/// Reads RFC 8288 `Link` headers: `<https://…?page=3>; rel="next", <…>; rel="last"`.
package enum LinkHeader {
    /// The target of the first link whose relation types include `relation`.
    package static func target(_ values: [String], relation: String) -> String? {
        let wanted = relation.lowercased()
        for value in values {
            for link in split(Substring(value), at: ",") {
                guard let open = link.firstIndex(of: "<"), let close = link.firstIndex(of: ">"), open < close else {
                    continue
                }
                let target = String(link[link.index(after: open)..<close])
                for parameter in split(link[link.index(after: close)...], at: ";") {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "rel" else { continue }
                    var types = pair[1].trimmingSpaces()
                    if types.hasPrefix("\""), types.hasSuffix("\""), types.count >= 2 {
                        types = String(types.dropFirst().dropLast())
                    }
                    if types.lowercased().split(separator: " ").contains(Substring(wanted)) {
                        return target
                    }
                }
            }
        }
        return nil
    }

    /// Splits text at each `separator` outside `<…>` and quoted strings (where a
    /// backslash escapes the next character).
    private static func split(_ value: Substring, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inTarget = false
        var inQuotes = false
        var escaped = false
        for index in value.indices {
            let character = value[index]
            if inQuotes {
                if escaped {
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    inQuotes = false
                }
                continue
            }
            switch character {
            case "<": inTarget = true
            case ">": inTarget = false
            case "\"" where !inTarget: inQuotes = true
            case separator where !inTarget:
                parts.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
        }
        parts.append(value[start...])
        return parts
    }
}
