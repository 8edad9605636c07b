/// An object's members while they are read: each member taken is marked, and
/// ``finish(_:known:)`` reports the others as unknown keys.
final class ObjectFields {
    let path: String
    let members: [JSONValue.Member]
    private var taken = Set<String>()

    init(path: String, members: [JSONValue.Member]) {
        self.path = path
        self.members = members
    }

    static func path(_ parent: String, _ name: String) -> String {
        let plain = name.unicodeScalars.allSatisfy {
            ($0.isASCIILetterOrDigit || $0 == "_" || $0 == "-")
        }
        let key = plain && !name.isEmpty ? name : "\"\(name)\""
        return parent.isEmpty ? key : "\(parent).\(key)"
    }

    /// The path of member `name`.
    func path(_ name: String) -> String { Self.path(path, name) }

    /// The value of member `name`, if present (`null` counts as absent).
    func take(_ name: String) -> JSONValue? {
        taken.insert(name)
        guard let value = members.first(where: { $0.name == name })?.value, value != .null else { return nil }
        return value
    }

    /// Whether member `name` is present (and not `null`).
    func has(_ name: String) -> Bool {
        members.contains { $0.name == name && $0.value != .null }
    }

    /// Whether member `name` has been taken.
    func wasTaken(_ name: String) -> Bool { taken.contains(name) }

    /// Takes every member in order and hands it to `read` with its path: the
    /// walk of an object whose keys are names people choose (`auths`, `headers`,
    /// `query`, `extraParams`), not keys of the configuration. A member whose
    /// name `isValid` refuses is reported as `problem` and not read.
    func takeEach(
        _ reader: ConfigReader, named isValid: (String) -> Bool = { _ in true }, else problem: String = "",
        _ read: (_ member: JSONValue.Member, _ path: String) -> Void
    ) {
        for member in members {
            let memberPath = path(member.name)
            _ = take(member.name)
            guard isValid(member.name) else {
                reader.report(memberPath, problem)
                continue
            }
            read(member, memberPath)
        }
    }

    /// Sets `target` from member `key`, when present and valid (`read` reports a problem otherwise).
    func assign<T>(_ target: inout T, _ key: String, _ read: (JSONValue, String) -> T?) {
        if let value = take(key), let parsed = read(value, path(key)) { target = parsed }
    }

    /// Reports every member that was not taken and is not in `known`.
    func finish(_ reader: ConfigReader, known: [String] = []) {
        var reported = Set<String>()
        for member in members where !taken.contains(member.name) && !known.contains(member.name) {
            guard reported.insert(member.name).inserted else { continue }
            let candidates = Array(taken) + known
            if let suggestion = Self.closest(to: member.name, in: candidates) {
                reader.report(path(member.name), "unknown key (did you mean \"\(suggestion)\"?)")
            } else {
                reader.report(path(member.name), "unknown key")
            }
        }
    }

    /// The candidate within two edits of `name` (ignoring case), if any.
    private static func closest(to name: String, in candidates: [String]) -> String? {
        // A name far longer than any key is no typo of one: no suggestion, in constant time.
        guard name.utf8.count <= 64 else { return nil }
        let scored = candidates.map { ($0, distance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 else { return nil }
        return best.0
    }

    private static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(1, a.count) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(1, b.count) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
