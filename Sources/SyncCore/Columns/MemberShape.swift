/// What ``ColumnInference`` has seen of the members of one kind of object
/// (the records, a nested object, a list's elements): each member's tally,
/// in the order the members were first seen.
struct ObjectShape: Sendable {
    /// The members seen.
    private(set) var members: [MemberShape] = []
    /// Each member's position in `members`, by name.
    private var positions: [String: Int] = [:]

    /// Tallies the members of one object. `visit` is a number no other object
    /// had, so that a name repeated in one object counts once (the first).
    mutating func add(
        _ object: [JSONValue.Member], depth: Int, inList: Bool, visit: Int, visits: inout Int,
        budget: inout ColumnBudget
    ) {
        for member in object {
            let position: Int
            if let known = positions[member.name] {
                position = known
            } else {
                guard budget.take() else { continue }
                position = members.count
                positions[member.name] = position
                members.append(MemberShape(name: member.name))
            }
            guard members[position].lastVisit != visit else { continue }
            members[position].lastVisit = visit
            members[position].add(member.value, depth: depth, inList: inList, visits: &visits, budget: &budget)
        }
    }

    /// How many members it tracks, nested ones included.
    var tracked: Int {
        members.reduce(0) { $0 + 1 + $1.nested.tracked }
    }
}

/// How many more members a table may track: each one costs memory however
/// many records there are, and a table has at most ``ColumnInference/maxMembers``.
struct ColumnBudget: Sendable {
    /// The members it may still track.
    var remaining = ColumnInference.maxMembers
    /// Whether a member was refused.
    private(set) var overflowed = false

    /// Takes one; `false` when none is left.
    mutating func take() -> Bool {
        guard remaining > 0 else {
            overflowed = true
            return false
        }
        remaining -= 1
        return true
    }
}

/// The tally of one member over every object that had it: the kinds of its
/// values and, for objects and arrays of objects, the shape of what they hold.
struct MemberShape: Sendable {
    /// The member's name.
    let name: String
    /// The number of the last object it was counted in.
    var lastVisit = -1
    /// How many times it was null, a string, a number, a boolean, an object, an array.
    private(set) var nulls = 0
    private(set) var strings = 0
    private(set) var numbers = 0
    private(set) var booleans = 0
    private(set) var objects = 0
    private(set) var arrays = 0
    /// Whether every string was an ISO 8601 date-time.
    private(set) var allDateTimes = true
    /// Whether every number was whole and within 64 bits.
    private(set) var allWhole = true
    /// The members of its objects, while they are flattened.
    private(set) var nested = ObjectShape()
    /// Whether its objects held too many different members to flatten.
    private(set) var tooWide = false
    /// The elements of its arrays: in all, objects, nulls and other values.
    private(set) var elements = 0
    private(set) var objectElements = 0
    private(set) var nullElements = 0
    private(set) var otherElements = 0
    /// The members of its arrays' objects, while it may be a nested list, and
    /// how many more that list's table may track.
    private(set) var elementShape = ObjectShape()
    private(set) var elementBudget = ColumnBudget()

    init(name: String) {
        self.name = name
    }

    /// How many times it was present and not null.
    var present: Int { strings + numbers + booleans + objects + arrays }

    /// Each kind of value it held (null aside), with how many times.
    var kinds: [(kind: ValueKind, count: Int)] {
        [(.string, strings), (.number, numbers), (.boolean, booleans), (.object, objects), (.array, arrays)]
            .filter { $0.count > 0 }
    }

    /// A kind of JSON value other than null.
    enum ValueKind: String, Sendable, CustomStringConvertible {
        case string = "a string"
        case number = "a number"
        case boolean = "a boolean"
        case object = "an object"
        case array = "an array"

        /// The kind as a note names it: `a string`.
        var description: String { rawValue }
    }

    /// Tallies one value of the member, `depth` members below the table's object.
    mutating func add(_ value: JSONValue, depth: Int, inList: Bool, visits: inout Int, budget: inout ColumnBudget) {
        switch value {
        case .null:
            nulls += 1
        case .string(let text):
            strings += 1
            if allDateTimes, !DateTimeText.isDateTime(text) { allDateTimes = false }
        case .number(let text):
            numbers += 1
            if allWhole, !Self.isWhole(text) { allWhole = false }
        case .bool:
            booleans += 1
        case .object(let members):
            objects += 1
            guard depth < ColumnInference.maxDepth, !tooWide, arrays + strings + numbers + booleans == 0 else { break }
            visits += 1
            nested.add(members, depth: depth + 1, inList: inList, visit: visits, visits: &visits, budget: &budget)
            if nested.members.count > ColumnInference.maxWidth {
                tooWide = true
                forgetNested(&budget)
            }
        case .array(let values):
            arrays += 1
            elements += values.count
            for value in values {
                switch value {
                case .object: objectElements += 1
                case .null: nullElements += 1
                default: otherElements += 1
                }
            }
            guard !inList, otherElements == 0, objects + strings + numbers + booleans == 0 else { break }
            for case .object(let members) in values {
                visits += 1
                elementShape.add(
                    members, depth: 1, inList: true, visit: visits, visits: &visits, budget: &elementBudget)
            }
        }
        // Of two kinds it is JSON, and so is an array holding more than objects: what they held is not needed.
        if kindCount > 1 { forgetNested(&budget) }
        if kindCount > 1 || otherElements > 0, !elementShape.members.isEmpty { elementShape = ObjectShape() }
    }

    /// How many kinds of values (other than null) it held.
    var kindCount: Int {
        (strings > 0 ? 1 : 0) + (numbers > 0 ? 1 : 0) + (booleans > 0 ? 1 : 0) + (objects > 0 ? 1 : 0)
            + (arrays > 0 ? 1 : 0)
    }

    /// Stops tracking the members of its objects, giving their cost back.
    private mutating func forgetNested(_ budget: inout ColumnBudget) {
        guard !nested.members.isEmpty else { return }
        budget.remaining += nested.tracked
        nested = ObjectShape()
    }

    /// Whether a number's text is whole within 64 bits, as an `integer` column takes it: `3`, `3.0`, `3e2`.
    static func isWhole(_ text: String) -> Bool {
        if Int64(text) != nil { return true }
        guard let value = Double(text), value.isFinite, value == value.rounded() else { return false }
        return value >= -9.223_372_036_854_775_808e18 && value < 9.223_372_036_854_775_808e18
    }
}
