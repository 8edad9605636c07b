import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The systemd notify protocol (sd_notify(3)) without libsystemd: each
/// message, such as `READY=1`, is one datagram to the Unix socket named by
/// `$NOTIFY_SOCKET` (a path, or `@name` in the abstract namespace).
///
/// Thread-safety: `Sendable`; each ``send(_:)`` uses a socket of its own.
struct SystemdNotifier: Sendable {
    /// The socket's address: a path, or `@name`.
    let address: String

    /// The notifier systemd asked for, or `nil` when not run by systemd with `Type=notify`.
    init?(environment: [String: String]) {
        guard let address = environment["NOTIFY_SOCKET"], !address.isEmpty else { return nil }
        self.address = address
    }

    /// How often to send `WATCHDOG=1`: half of `$WATCHDOG_USEC`, when the
    /// watchdog is on and meant for this process (`$WATCHDOG_PID` unset or ours).
    static func watchdogInterval(environment: [String: String], pid: Int32 = getpid()) -> Duration? {
        guard let text = environment["WATCHDOG_USEC"], let microseconds = Int64(text), microseconds > 0 else {
            return nil
        }
        if let owner = environment["WATCHDOG_PID"], Int32(owner) != pid { return nil }
        return .microseconds(microseconds / 2)
    }

    /// Sends `state` (one or more `KEY=value` lines); failures are ignored,
    /// as sd_notify's are: the agent works the same without a listener.
    @discardableResult
    func send(_ state: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var path = Array(address.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: socketAddress.sun_path)
        guard path.count < capacity else { return false }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { bytes in
            bytes.copyBytes(from: path)
        }
        // An abstract name is exactly its bytes; a path ends at its NUL.
        let length = MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1)
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                sendto(descriptor, message, message.count, Int32(MSG_NOSIGNAL), address, socklen_t(length))
            }
        }
        return sent == message.count
    }
}
