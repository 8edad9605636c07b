import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The kernel's link and route changes, from an rtnetlink socket: one element
/// per burst of messages (taking a link down deletes several routes at once).
/// The messages are not parsed: a change is a reason to read ``RouteTable``
/// again and to probe.
enum RouteEvents {
    /// `NETLINK_ROUTE` from `<linux/netlink.h>`, which Swift's Glibc module does not export.
    private static let netlinkRoute: Int32 = 0
    /// `RTMGRP_LINK | RTMGRP_IPV4_IFADDR | RTMGRP_IPV4_ROUTE | RTMGRP_IPV6_IFADDR | RTMGRP_IPV6_ROUTE`.
    private static let groups: UInt32 = 0x1 | 0x10 | 0x40 | 0x100 | 0x400

    /// The changes, or `nil` with the reason when the kernel refuses the socket.
    static func stream() -> Result<AsyncStream<Void>, SocketFailure> {
        let descriptor = socket(AF_NETLINK, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), netlinkRoute)
        guard descriptor >= 0 else { return .failure(SocketFailure(call: "socket", code: errno)) }
        // `struct sockaddr_nl { sa_family_t nl_family; unsigned short nl_pad; __u32 nl_pid; __u32 nl_groups; }`,
        // written field by field so that no Swift layout is assumed.
        var address = [UInt8](repeating: 0, count: 12)
        address.withUnsafeMutableBytes { bytes in
            bytes.storeBytes(of: sa_family_t(AF_NETLINK), toByteOffset: 0, as: sa_family_t.self)
            bytes.storeBytes(of: groups, toByteOffset: 8, as: UInt32.self)
        }
        let bound = address.withUnsafeBytes { bytes in
            bind(descriptor, bytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(bytes.count))
        }
        guard bound == 0, fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK) == 0 else {
            let failure = SocketFailure(call: "bind", code: errno)
            close(descriptor)
            return .failure(failure)
        }
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let source = DispatchSource.makeReadSource(
            fileDescriptor: descriptor, queue: DispatchQueue(label: "sync-agent.route-events"))
        source.setEventHandler {
            // Drain the burst, then report it once.
            var buffer = [UInt8](repeating: 0, count: 16 * 1024)
            while buffer.withUnsafeMutableBytes({ recv(descriptor, $0.baseAddress, $0.count, 0) }) > 0 {}
            continuation.yield()
        }
        source.setCancelHandler { close(descriptor) }
        let reference = SourceReference(source: source)
        continuation.onTermination = { _ in reference.source.cancel() }
        source.resume()
        return .success(stream)
    }

    /// A system call that failed.
    struct SocketFailure: Error, CustomStringConvertible {
        var call: String
        var code: Int32

        var description: String { "\(call): \(String(cString: strerror(code)))" }
    }
}

/// The read source of a route-event stream, cancelled when the stream ends.
private struct SourceReference {
    let source: any DispatchSourceRead
}

// Dispatch sources may be cancelled from any thread; nothing else is done with it.
extension SourceReference: @unchecked Sendable {}
