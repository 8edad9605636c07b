import Foundation
import Streams

/// Reads configuration values while collecting every problem, so one run of
/// `validate` reports them all instead of stopping at the first.
///
/// Thread-safety: not `Sendable`; used by one load.
final class ConfigReader {
    private(set) var problems: [ConfigProblem] = []

    /// The key of notes for people, ignored wherever it appears.
    static let commentKey = "$comment"

    func report(_ path: String, _ message: String) {
        problems.append(ConfigProblem(path.isEmpty ? "(root)" : path, message))
    }

    /// The members of an object, or `nil` (and a problem) if `value` is not one.
    ///
    /// A member named `$comment` (JSON Schema's convention) is a note for
    /// people: it is dropped here, so any object of the configuration may hold one.
    func object(_ value: JSONValue, at path: String) -> ObjectFields? {
        guard case .object(let all) = value else {
            report(path, "must be an object, not \(value.kindDescription)")
            return nil
        }
        let members = all.filter { $0.name != ConfigReader.commentKey }
        var seen = Set<String>()
        for member in members where !seen.insert(member.name).inserted {
            report(ObjectFields.path(path, member.name), "appears twice in the same object")
        }
        return ObjectFields(path: path, members: members)
    }

    func string(_ value: JSONValue, at path: String) -> String? {
        guard case .string(let text) = value else {
            report(path, "must be a string, not \(value.kindDescription)")
            return nil
        }
        return text
    }

    func boolean(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            report(path, "must be true or false, not \(value.kindDescription)")
            return nil
        }
        return flag
    }

    func integer(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        guard let number = value.intValue else {
            report(
                path,
                value.doubleValue == nil ? "must be an integer, not \(value.kindDescription)" : "must be an integer")
            return nil
        }
        guard range.contains(number) else {
            report(path, "must be between \(range.lowerBound) and \(range.upperBound)")
            return nil
        }
        return number
    }

    func number(_ value: JSONValue, at path: String, in range: ClosedRange<Double>) -> Double? {
        guard let number = value.doubleValue else {
            report(path, "must be a number, not \(value.kindDescription)")
            return nil
        }
        guard range.contains(number) else {
            report(path, "must be between \(Self.show(range.lowerBound)) and \(Self.show(range.upperBound))")
            return nil
        }
        return number
    }

    func duration(_ value: JSONValue, at path: String, atLeast minimum: Duration) -> Duration? {
        let duration: Duration?
        switch value {
        case .string(let text): duration = DurationText.parse(text)
        case .number: duration = value.doubleValue.flatMap { $0 >= 0 ? DurationText.parse(String($0)) : nil }
        default: duration = nil
        }
        guard let duration else {
            report(
                path,
                "must be a duration such as \"500ms\", \"30s\", \"5m\" or \"1m30s\", or a number of seconds, "
                    + "at most 365d")
            return nil
        }
        guard duration >= minimum else {
            report(path, "must be at least \(DurationText.format(minimum))")
            return nil
        }
        return duration
    }

    func byteSize(_ value: JSONValue, at path: String, in range: ClosedRange<Int>) -> Int? {
        let size: Int?
        switch value {
        case .string(let text): size = ByteSizeText.parse(text)
        case .number: size = value.intValue
        default: size = nil
        }
        guard let size else {
            report(path, "must be a size such as \"32MiB\" or \"512KiB\", or a number of bytes")
            return nil
        }
        guard range.contains(size) else {
            report(
                path,
                "must be between \(ByteSizeText.format(range.lowerBound)) and \(ByteSizeText.format(range.upperBound))")
            return nil
        }
        return size
    }

    func pointer(_ value: JSONValue, at path: String) -> JSONPointer? {
        guard let text = string(value, at: path) else { return nil }
        do {
            return try JSONPointer(text)
        } catch {
            report(path, "\(error)")
            return nil
        }
    }

    private static func show(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}

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
