/// A fuzz target: a property of one of the agent's hand-written parsers that must
/// hold for every input (docs/testing.md#fuzzing).
///
/// `scripts/fuzz` runs a target under libFuzzer, which searches for an input that
/// breaks the property; `FuzzTests` replays each target's corpus and regression
/// inputs (`fuzz/corpus/NAME`, `fuzz/regressions/NAME`) as ordinary tests.
///
/// Thread-safety: `Sendable`; a target's `check` may be called from any thread,
/// one input at a time.
package struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` takes, also the name of its corpus folder.
    package let name: String
    /// The property, as one sentence for `scripts/fuzz --list`.
    package let property: String
    /// Checks the property on one input.
    package let check: @Sendable (_ input: [UInt8]) throws(PropertyViolation) -> Void

    package init(
        name: String, property: String, check: @escaping @Sendable (_ input: [UInt8]) throws(PropertyViolation) -> Void
    ) {
        self.name = name
        self.property = property
        self.check = check
    }

    /// Every target, in the order `scripts/fuzz --list` shows them.
    package static let all: [FuzzTarget] = [
        json, link, retryAfter, rateLimit, noProxy, durations, pointer, placeholders, config, control, sync,
    ]

    /// The target called `name`.
    package static func named(_ name: String) -> FuzzTarget? {
        all.first { $0.name == name }
    }
}

/// An input for which a target's property does not hold.
package struct PropertyViolation: Error, Sendable, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// Fails with `message` unless `condition` holds.
func require(_ condition: Bool, _ message: @autoclosure () -> String) throws(PropertyViolation) {
    if !condition { throw PropertyViolation(message()) }
}

/// The input as text for a message: printable ASCII as is, other bytes as `\xNN`, at most 200 bytes.
func shown(_ bytes: some Collection<UInt8>) -> String {
    var text = ""
    for byte in bytes.prefix(200) {
        if byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") {
            text.append(Character(Unicode.Scalar(byte)))
        } else {
            text += "\\x" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
        }
    }
    return bytes.count > 200 ? text + "… (\(bytes.count) bytes)" : text
}
