import SyncCore

extension FuzzTarget {
    /// `Link` headers (RFC 8288), which `link` pagination follows.
    static let link = FuzzTarget(
        name: "link",
        property: "a Link header written by RFC 8288 is read back (the first link of each relation), "
            + "and any target read from other bytes is one of their <…> and reads back alone"
    ) { input throws(PropertyViolation) in
        // Any bytes: what is read is a target that the text holds between < and >.
        let raw = String(decoding: input, as: UTF8.self)
        for relation in ["next", "last", "prev"] {
            guard let target = LinkHeader.target([raw], relation: relation) else { continue }
            try require(
                raw.contains("<" + target + ">") && !target.contains(">"),
                "rel=\(relation) reads \"\(target)\", not a <…> of \(shown(input))")
            let alone = "<\(target)>; rel=\"\(relation)\""
            let again = LinkHeader.target([alone], relation: relation)
            try require(again == target, "\(alone) reads back as \(again ?? "nothing")")
        }

        // Links written as RFC 8288 writes them, with parameters that hold commas,
        // semicolons and the word rel inside their quotes.
        var draw = FuzzInput(input)
        var links: [(target: String, relations: [String], text: String)] = []
        for _ in 0..<draw.int(in: 1...4) {
            let target = "https://api.example/" + draw.text(upTo: 24, from: .urlCharacters)
            var relations: [String] = []
            for _ in 0..<draw.int(in: 1...3) {
                relations.append(
                    draw.pick(["next", "last", "prev", "first", "Next", "LAST", "next-page", "alternate"]))
            }
            var parameters: [String] = []
            let quoted = draw.bool() || relations.count > 1
            parameters.append(
                draw.pick(["rel", "REL", "Rel"]) + "="
                    + (quoted ? "\"" + relations.joined(separator: " ") + "\"" : relations[0]))
            for _ in 0..<draw.int(in: 0...2) {
                let title = draw.text(
                    upTo: 16, from: "ab ,;=rel<>'".map(String.init) + ["next", " rel=next", ";rel=\"next\""])
                let name = draw.pick(["title", "type", "hreflang", "anchor"])
                parameters.insert(
                    "\(name)=\"\(title.replacingOccurrences(of: "\"", with: ""))\"",
                    at: draw.int(in: 0...parameters.count))
            }
            let separator = draw.pick([";", "; ", " ;", " ; "])
            links.append((target, relations, "<\(target)>" + separator + parameters.joined(separator: separator)))
        }
        let header = links.map(\.text).joined(separator: draw.pick([",", ", ", " , "]))
        for relation in ["next", "last", "prev", "first"] {
            let expected = links.first { $0.relations.contains { $0.lowercased() == relation } }?.target
            let read = LinkHeader.target([header], relation: relation)
            try require(
                read == expected,
                "rel=\(relation) of \(header) reads \(read ?? "nothing"), not \(expected ?? "nothing")")
        }
    }
}
