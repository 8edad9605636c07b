import Foundation

/// Percent-encoding as the agent writes it into URLs: every byte except RFC
/// 3986's unreserved ASCII characters (`A–Z a–z 0–9 - . _ ~`).
package enum PercentEncoding {
    /// RFC 3986's unreserved characters, ASCII only.
    static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `text` with every byte outside ``unreserved`` percent-encoded.
    package static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }
}
