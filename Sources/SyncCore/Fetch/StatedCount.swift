/// A count an API states (a walk's total, docs/configuration.md#numbers-an-answer-carries),
/// read exactly: a whole number of any size in the body (`42`, `4.2e1`), or the
/// digits of a header. A count the agent cannot hold (past `Int.max`) is not
/// ignored and not clamped: it is ``tooLarge``, which ends the sync naming it.
enum StatedCount: Equatable {
    /// A count the agent holds.
    case count(Int)
    /// A whole number of zero or more, too large for the agent to count to.
    case tooLarge
    /// Not a count of items: negative, a fraction, or not a number.
    case notACount

    /// The count a value of the body states.
    init(_ value: JSONValue) {
        guard case .number(let text) = value, let number = DecimalNumber(text), number.isInteger,
            !number.negative
        else {
            self = .notACount
            return
        }
        self = number.integer(as: Int.self).map(StatedCount.count) ?? .tooLarge
    }

    /// The count a header states: its digits, spaces around them allowed.
    init(header text: some StringProtocol) {
        let digits = text.utf8.drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
            .reversed().drop { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.reversed()
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            self = .notACount
            return
        }
        let significant = digits.drop { $0 == UInt8(ascii: "0") }
        // 18 digits always fit an Int; more may not.
        guard significant.count <= 19 else {
            self = .tooLarge
            return
        }
        var value = 0
        for digit in significant {
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, carry) = times.addingReportingOverflow(Int(digit - UInt8(ascii: "0")))
            guard !overflow, !carry else {
                self = .tooLarge
                return
            }
            value = sum
        }
        self = .count(value)
    }

    /// The count, when the agent holds it.
    var value: Int? {
        if case .count(let value) = self { value } else { nil }
    }
}
