import Foundation

/// The kernel's routing tables as `/proc/self/net/route` (IPv4) and
/// `/proc/self/net/ipv6_route` (IPv6) show them, read for one fact: whether the
/// machine has a default route. Without one, nothing beyond the local networks
/// can be reached, and the agent counts itself offline
/// (docs/configuration.md#connectivity).
struct RouteTable: Sendable, Hashable {
    /// Whether some table has a usable default route.
    var hasDefaultRoute: Bool

    /// `RTF_UP`: the route is usable.
    private static let up: UInt32 = 0x1
    /// `RTF_REJECT`: the route answers "unreachable" (IPv6 keeps one on `lo`).
    private static let reject: UInt32 = 0x200

    /// Reads the tables of this machine (of the process's network namespace).
    static func current() -> RouteTable {
        let ipv4 = (try? String(contentsOfFile: "/proc/self/net/route", encoding: .utf8)) ?? ""
        let ipv6 = (try? String(contentsOfFile: "/proc/self/net/ipv6_route", encoding: .utf8)) ?? ""
        return RouteTable(ipv4: ipv4, ipv6: ipv6)
    }

    /// Parses the two files' text.
    init(ipv4: String, ipv6: String) {
        hasDefaultRoute = Self.hasIPv4Default(ipv4) || Self.hasIPv6Default(ipv6)
    }

    /// `Iface Destination Gateway Flags RefCnt Use Metric Mask …`, a header line first.
    private static func hasIPv4Default(_ text: String) -> Bool {
        text.split(separator: "\n").dropFirst().contains { line in
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 8, let flags = UInt32(fields[3], radix: 16) else { return false }
            return fields[1] == "00000000" && fields[7] == "00000000" && usable(flags)
        }
    }

    /// `destination prefix source prefix next-hop metric refcount use flags iface`, no header.
    private static func hasIPv6Default(_ text: String) -> Bool {
        text.split(separator: "\n").contains { line in
            let fields = line.split(whereSeparator: \.isWhitespace)
            guard fields.count >= 10, let flags = UInt32(fields[8], radix: 16) else { return false }
            return fields[0].allSatisfy { $0 == "0" } && fields[1] == "00" && fields[9] != "lo" && usable(flags)
        }
    }

    private static func usable(_ flags: UInt32) -> Bool {
        flags & up != 0 && flags & reject == 0
    }
}
