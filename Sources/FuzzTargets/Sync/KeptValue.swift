import Store

/// A kept value as the target compares it: a time as an instant, a token as its exact text.
enum KeptValue: Hashable, CustomStringConvertible {
    /// An instant, in nanoseconds since 1970.
    case time(Int128)
    /// A time the store keeps as a `Date` (seconds since 1970, a `Double`), which
    /// cannot hold every nanosecond: it matches the instant it is the nearest
    /// `Double` to (``matches(_:)``). When kept times are exact, ``init(_:)`` reads
    /// them as ``time(_:)``.
    case date(Double)
    case token(String)
    /// A time the target cannot read as an instant.
    case unreadable(String)

    init(_ state: SinceState) {
        switch state {
        case .token(let text): self = .token(text)
        case .time(let date):
            let seconds = date.timeIntervalSince1970
            self = seconds.isFinite && abs(seconds) < 1e15 ? .date(seconds) : .unreadable("\(date)")
        }
    }

    /// The instant, to the nanosecond (the nearest one, for a ``date(_:)``).
    var time: Int128? {
        switch self {
        case .time(let value): return value
        case .date(let seconds):
            let whole = seconds.rounded(.down)
            return Int128(whole) * 1_000_000_000 + Int128(((seconds - whole) * 1e9).rounded())
        case .token, .unreadable: return nil
        }
    }

    /// How far, in nanoseconds, ``time`` may be from the instant kept: two of a
    /// `Date`'s last bits (it counts from 2001, and is read from 1970).
    var slack: Int128 {
        guard case .date(let seconds) = self else { return 0 }
        return Int128((Self.unit(seconds) * 2e9).rounded(.up))
    }

    /// The last bit of a `Date` at `seconds` since 1970.
    private static func unit(_ seconds: Double) -> Double {
        (abs(seconds) + 978_307_200).ulp
    }

    /// Whether this value (read from the store) is `served` (computed from what was served).
    func matches(_ served: KeptValue) -> Bool {
        if case .date(let seconds) = self, case .time(let instant) = served {
            return abs(seconds - Double(instant) / 1e9) <= 2 * Self.unit(seconds)
        }
        return self == served
    }

    /// Whether `kept` (from the store) is `served`, both possibly nothing.
    static func same(_ kept: KeptValue?, _ served: KeptValue?) -> Bool {
        switch (kept, served) {
        case (nil, nil): true
        case (let kept?, let served?): kept.matches(served)
        default: false
        }
    }

    var description: String {
        switch self {
        case .time(let value): ISO8601Text.text(value)
        case .date(let seconds): "\(time.map(ISO8601Text.text) ?? String(seconds)) (a Date, to about \(slack) ns)"
        case .token(let text): ServedValue.quoted(text)
        case .unreadable(let text): "an unreadable time (\(text))"
        }
    }
}
