/// A number as JSON writes it (RFC 8259 §6), read exactly: its sign, its
/// digits and its power of ten, with no floating point on the way.
///
/// Numbers from answers become counts, offsets and times through it, so a
/// value of any size is either converted exactly or found not to fit; never
/// rounded through a `Double`, never trapped on (docs/architecture.md#decisions-taken-on-purpose).
package struct DecimalNumber: Sendable, Hashable {
    /// Whether the value is below zero (`-0` is not).
    package let negative: Bool
    /// The digits of the significand, most significant first, without leading
    /// or trailing zeros: none for zero.
    package let digits: [UInt8]
    /// The power of ten the digits are multiplied by. Exponents beyond a
    /// billion in size are held as a billion: such a number is beyond every
    /// range this type converts to, or indistinguishable from zero.
    package let exponent: Int

    private static let exponentLimit = 1_000_000_000

    /// Reads `text`, a number in JSON's grammar (`-12.5e3`); `nil` for anything else.
    package init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < bytes.count && bytes[at] >= 0x30 && bytes[at] <= 0x39 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") {
            negative = true
            index += 1
        }
        guard isDigit(index) else { return nil }
        var significand: [UInt8] = []
        var fractionDigits = 0
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            // No leading zeros: `01` is not a JSON number.
            if isDigit(index) { return nil }
        } else {
            while isDigit(index) {
                significand.append(bytes[index] - 0x30)
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                significand.append(bytes[index] - 0x30)
                fractionDigits += 1
                index += 1
            }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            guard isDigit(index) else { return nil }
            while isDigit(index) {
                exponent = min(exponent * 10 + Int(bytes[index] - 0x30), Self.exponentLimit)
                index += 1
            }
            if exponentNegative { exponent = -exponent }
        }
        guard index == bytes.count else { return nil }
        // Leading zeros (of `0.05`) and trailing ones (of `1.500`, `100`) carry no digit.
        let leading = significand.prefix { $0 == 0 }.count
        significand.removeFirst(leading)
        var trailing = 0
        while let last = significand.last, last == 0 {
            significand.removeLast()
            trailing += 1
        }
        self.negative = negative && !significand.isEmpty
        digits = significand
        let scale = exponent - fractionDigits + trailing
        self.exponent = significand.isEmpty ? 0 : max(-Self.exponentLimit, min(Self.exponentLimit, scale))
    }

    /// Whether the value is zero.
    package var isZero: Bool { digits.isEmpty }

    /// Whether the value is a whole number (`1e3` is; `1.5` is not).
    package var isInteger: Bool { exponent >= 0 }

    /// The value as an integer of type `T`, when it is a whole number that fits.
    package func integer<T: FixedWidthInteger>(as type: T.Type = T.self) -> T? {
        guard isInteger, let scaled = scaled(byPowerOfTen: 0) else { return nil }
        return T(exactly: scaled)
    }

    /// The value times 10^`power`, rounded toward negative infinity; `nil` when
    /// that does not fit an `Int128` (about 1.7 × 10^38).
    package func scaled(byPowerOfTen power: Int) -> Int128? {
        guard !digits.isEmpty else { return 0 }
        let shift = exponent + power
        // 39 digits may not fit; 38 always do.
        guard digits.count + max(0, shift) <= 38 else { return nil }
        var value: Int128 = 0
        let kept = shift >= 0 ? digits.count : max(0, digits.count + shift)
        for digit in digits.prefix(kept) { value = value * 10 + Int128(digit) }
        if shift > 0 {
            for _ in 0..<shift { value *= 10 }
        }
        // Digits dropped below the units: toward negative infinity, a negative value goes one lower.
        let dropped = kept < digits.count
        return negative ? -value - (dropped ? 1 : 0) : value
    }
}

extension JSONValue {
    /// The value as a message shows it: JSON text, at most `limit` characters
    /// (then `…`), so that a message names a value of any size.
    package func shown(limit: Int = 40) -> String {
        let text = serialized()
        return text.count > limit ? String(text.prefix(limit)) + "…" : text
    }
}

extension String {
    /// The text as a message quotes it: in quotes, at most `limit` characters
    /// (then `…`), control characters escaped.
    package func shownQuoted(limit: Int = 40) -> String {
        JSONValue.string(self).shown(limit: limit + 2)
    }
}
