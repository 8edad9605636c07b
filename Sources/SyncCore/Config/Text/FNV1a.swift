/// FNV-1a, 64 bits: a fast fingerprint of text that stays the same from run
/// to run (Swift's `Hasher` does not), for what the database keeps.
enum FNV1a {
    /// The fingerprint of `text`, in hexadecimal.
    static func hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
