/// Reads RFC 8288 `Link` headers: `<https://…?page=3>; rel="next", <…>; rel="last"`.
enum LinkHeader {
    /// The target of the first link whose relation types include `relation`.
    static func target(_ values: [String], relation: String) -> String? {
        for value in values {
            for link in split(value) {
                guard let open = link.firstIndex(of: "<"), let close = link.firstIndex(of: ">"), open < close else {
                    continue
                }
                let target = String(link[link.index(after: open)..<close])
                let parameters = link[link.index(after: close)...].split(separator: ";")
                for parameter in parameters {
                    let pair = parameter.split(separator: "=", maxSplits: 1)
                    guard pair.count == 2, pair[0].trimmingSpaces().lowercased() == "rel" else { continue }
                    var types = pair[1].trimmingSpaces()
                    if types.hasPrefix("\""), types.hasSuffix("\""), types.count >= 2 {
                        types = String(types.dropFirst().dropLast())
                    }
                    if types.lowercased().split(separator: " ").contains(Substring(relation.lowercased())) {
                        return target
                    }
                }
            }
        }
        return nil
    }

    /// Splits a header value into links at the commas outside `<…>` and quotes.
    private static func split(_ value: String) -> [Substring] {
        var links: [Substring] = []
        var start = value.startIndex
        var inTarget = false
        var inQuotes = false
        for index in value.indices {
            switch value[index] {
            case "<" where !inQuotes: inTarget = true
            case ">" where !inQuotes: inTarget = false
            case "\"" where !inTarget: inQuotes.toggle()
            case "," where !inTarget && !inQuotes:
                links.append(value[start..<index])
                start = value.index(after: index)
            default: break
            }
        }
        links.append(value[start...])
        return links
    }
}
