import Foundation

/// `NO_PROXY` (docs/configuration.md#proxies): the hosts a request reaches
/// without its proxy, matched as curl matches them.
///
/// Entries are separated by commas (or spaces). `*` alone matches every host.
/// A name matches itself and its subdomains (`example.com` and `.example.com`
/// match `example.com` and `api.example.com`, not `badexample.com`); an IP
/// address matches only itself, and `10.0.0.0/8` a whole network. An entry
/// with a port (`example.com:8443`, `[::1]:8080`) matches that port only.
/// Case does not matter.
package struct NoProxy: Sendable, Hashable {
    private enum Pattern: Hashable {
        case name(String)
        case network(address: [UInt8], bits: Int)
    }

    private struct Entry: Hashable {
        var pattern: Pattern
        var port: Int?
    }

    private let everything: Bool
    private let entries: [Entry]

    /// Reads a `NO_PROXY` value; entries it cannot read match nothing.
    package init(_ text: String) {
        // Split by bytes, not characters: a comma and a combining mark after it are one character.
        let tokens = text.utf8.split(whereSeparator: { $0 == UInt8(ascii: ",") || $0 == 0x20 || $0 == 0x09 })
            .map { String(decoding: $0, as: UTF8.self) }
        everything = tokens.contains("*")
        entries = tokens.compactMap(Self.entry)
    }

    /// Whether a request to `host` on `port` goes without the proxy.
    package func matches(host: String, port: Int) -> Bool {
        if everything { return true }
        var host = host.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix(".") { host.removeLast() }
        let address = Self.address(host)
        return entries.contains { entry in
            if let wanted = entry.port, wanted != port { return false }
            switch entry.pattern {
            case .name(let name):
                return address == nil && (host == name || host.hasSuffix("." + name))
            case .network(let network, let bits):
                guard let address, address.count == network.count else { return false }
                return Self.prefix(address, bits) == Self.prefix(network, bits)
            }
        }
    }

    private static func entry(_ token: String) -> Entry? {
        var text = token.lowercased()
        var port: Int?
        // A port follows the last colon of a name or IPv4 address, or the bracket of an IPv6 one.
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            port = Int(text[text.index(after: colon)...])
            guard port != nil else { return nil }
            text = String(text[..<colon])
        }
        var bits: Int?
        if let slash = text.firstIndex(of: "/") {
            bits = Int(text[text.index(after: slash)...])
            text = String(text[..<slash])
        }
        if let address = address(text) {
            let width = address.count * 8
            let length = bits ?? width
            guard (0...width).contains(length) else { return nil }
            return Entry(pattern: .network(address: address, bits: length), port: port)
        }
        guard bits == nil else { return nil }
        while text.hasPrefix(".") { text.removeFirst() }
        if text.hasSuffix(".") { text.removeLast() }
        return text.isEmpty ? nil : Entry(pattern: .name(text), port: port)
    }

    /// The bytes of an IPv4 or IPv6 address, or `nil` for a name.
    private static func address(_ text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The first `bits` bits of `address`, the rest zeroed.
    private static func prefix(_ address: [UInt8], _ bits: Int) -> [UInt8] {
        address.enumerated().map { index, byte in
            let kept = min(max(bits - index * 8, 0), 8)
            return kept == 0 ? 0 : byte & ~UInt8(0xFF >> kept)
        }
    }
}
