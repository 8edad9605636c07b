import Store

/// A kept value as the target compares it: a time as an instant, a token as its exact text.
enum KeptValue: Hashable, CustomStringConvertible {
    /// An instant, in nanoseconds since 1970.
    case time(Int128)
    case token(String)

    /// The value the store keeps: a kept time is exact (``ExactTime``), so it is
    /// its instant to the nanosecond, never a near one.
    init(_ state: SinceState) {
        switch state {
        case .token(let text): self = .token(text)
        case .time(let time): self = .time(time.nanosecondsSinceEpoch)
        }
    }

    /// The instant, to the nanosecond.
    var time: Int128? {
        if case .time(let value) = self { value } else { nil }
    }

    /// Whether `kept` (from the store) is `served`, both possibly nothing.
    static func same(_ kept: KeptValue?, _ served: KeptValue?) -> Bool {
        kept == served
    }

    var description: String {
        switch self {
        case .time(let value): ISO8601Text.text(value)
        case .token(let text): ServedValue.quoted(text)
        }
    }
}
