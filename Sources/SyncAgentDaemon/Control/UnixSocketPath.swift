import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// What is at the status socket's path before the agent binds it
/// (docs/api.md#who-may-connect): nothing, a live agent, a stale socket left by
/// a crash, or something else.
package enum UnixSocketPath {
    /// What a path holds.
    enum Occupant: Equatable {
        /// Nothing: the path is free.
        case none
        /// A socket that accepts connections: another agent is running.
        case live
        /// A socket nobody listens on: left by a crash, safe to replace.
        case stale
        /// A file that is not a socket.
        case notSocket
    }

    /// Looks at `path`, connecting to it if it is a socket.
    static func occupant(of path: String) -> Occupant {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .none }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return .notSocket }
        return connects(to: path) ? .live : .stale
    }

    /// Whether a stream connection to the socket at `path` succeeds.
    package static func connects(to path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard var address = address(of: path) else { return false }
        let result = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    /// The `sockaddr_un` of `path`, or `nil` when the path is too long for one.
    static func address(of path: String) -> sockaddr_un? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        return address
    }

    /// The longest path a Unix socket can have (`sun_path` less its NUL).
    package static let maxLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
}
