import Store

extension ExactTime {
    /// The time `seconds` after 1970, for tests: a literal out of range is a test's mistake.
    static func at(_ seconds: Int64, nanoseconds: Int32 = 0) -> ExactTime {
        guard let time = ExactTime(seconds: seconds, nanoseconds: nanoseconds) else {
            preconditionFailure("\(seconds) is no time between the years 1 and 9999")
        }
        return time
    }
}
