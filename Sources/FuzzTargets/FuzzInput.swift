/// Structured values drawn from a fuzzer's bytes, for targets that build valid
/// inputs (a date, a list of links) and check that the parser reads them back.
///
/// When the bytes run out, every draw gives its smallest value, so any input,
/// the empty one too, gives a value.
struct FuzzInput {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
    }

    /// Whether every byte has been drawn.
    var isEmpty: Bool { bytes.isEmpty }

    /// The next byte, or 0.
    mutating func byte() -> UInt8 {
        bytes.popFirst() ?? 0
    }

    /// A number in `range`, from as many bytes as the range needs.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        let span = UInt64(range.upperBound - range.lowerBound)
        guard span > 0 else { return range.lowerBound }
        var value: UInt64 = 0
        var covered: UInt64 = 0
        while covered < span {
            value = value << 8 | UInt64(byte())
            covered = covered << 8 | 0xFF
        }
        return range.lowerBound + Int(span == UInt64.max ? value : value % (span + 1))
    }

    mutating func bool() -> Bool {
        byte() & 1 == 1
    }

    /// One of `options`, which must not be empty.
    mutating func pick<T>(_ options: [T]) -> T {
        options[int(in: 0...(options.count - 1))]
    }

    /// A text of at most `maximum` pieces taken from `pieces` (characters, or longer bits).
    mutating func text(upTo maximum: Int, from pieces: [String]) -> String {
        let count = int(in: 0...maximum)
        return (0..<count).map { _ in pick(pieces) }.joined()
    }

    /// A text of at most `maximum` bytes decoded as UTF-8 (invalid bytes become U+FFFD).
    mutating func anyText(upTo maximum: Int) -> String {
        let count = int(in: 0...maximum)
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return String(decoding: taken, as: UTF8.self)
    }

    /// The bytes not drawn yet, as UTF-8 text.
    mutating func rest() -> String {
        defer { bytes = [] }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Array where Element == String {
    /// Letters, digits and the characters of URLs that need no escape.
    static let urlCharacters = "abcXYZ019-._~:/?#[]@!$&'()*+,;=%".map(String.init)
    /// Every printable ASCII character.
    static let printable = (0x20...0x7E).map { String(Character(Unicode.Scalar(UInt8($0)))) }
}
