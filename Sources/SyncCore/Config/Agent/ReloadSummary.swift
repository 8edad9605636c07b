/// What a reload changed: the resources added, removed and changed, by name.
package struct ReloadSummary: Sendable, Hashable, Codable, CustomStringConvertible {
    package var added: [String] = []
    package var removed: [String] = []
    package var changed: [String] = []

    package init() {}

    /// Whether it changed nothing.
    package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// `1 added (orders), 1 removed (users), 0 changed`, or `nothing changed`.
    package var description: String {
        guard !isEmpty else { return "nothing changed" }
        return [("added", added), ("removed", removed), ("changed", changed)].map { verb, names in
            "\(names.count) \(verb)" + (names.isEmpty ? "" : " (\(names.joined(separator: ", ")))")
        }.joined(separator: ", ")
    }
}
