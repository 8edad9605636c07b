/// Percent-encoding as the agent writes it into URLs: every byte except RFC
/// 3986's unreserved ASCII characters (`A–Z a–z 0–9 - . _ ~`).
package enum PercentEncoding {
    /// Whether `byte` is one of RFC 3986's unreserved characters.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// `text` with every byte outside the unreserved characters percent-encoded
    /// (UTF-8, upper-case hexadecimal digits).
    package static func encode(_ text: String) -> String {
        let utf8 = text.utf8
        guard !utf8.allSatisfy(isUnreserved) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count * 3)
        for byte in utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
