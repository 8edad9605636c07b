import Foundation

/// An answer whose `Content-Length` says its body is larger than
/// `maxResponseSize` (docs/configuration.md#failures-and-retries): refused
/// before its body is read, however many digits the header has.
struct ContentLengthTooLarge: Error {
    /// The header's value, as the server sent it.
    var stated: String
    var maxBytes: Int

    /// The value as a message shows it: at most 40 characters, then `…`.
    var shown: String {
        let trimmed = stated.trimmingCharacters(in: .whitespaces)
        return trimmed.count > 40 ? String(trimmed.prefix(40)) + "…" : trimmed
    }
}
