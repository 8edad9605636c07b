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

    /// Member `key` of `fields` as the case of `Choice` its text names: `nil`
    /// when it is absent, not a string, or names no case (reported as `problem`,
    /// such as `must be "basic" or "body"`).
    func choice<Choice: RawRepresentable<String>>(
        _ fields: ObjectFields, _ key: String, else problem: String
    ) -> Choice? {
        guard let value = fields.take(key), let text = string(value, at: fields.path(key)) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            report(fields.path(key), problem)
            return nil
        }
        return choice
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
