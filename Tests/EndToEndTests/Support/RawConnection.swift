import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A client connection to a Unix socket (or a TCP port), driven byte by byte: for clients
/// that misbehave (connect and send nothing, ask for events and never read).
final class RawConnection: Sendable {
    let descriptor: Int32

    /// Connects to `path`; `receiveBuffer`, if set, shrinks the socket's receive buffer first.
    init(path: String, receiveBuffer: Int32? = nil) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(what: "socket") }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            for (index, byte) in path.utf8.enumerated() { bytes[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(what: "connect")
        }
    }

    /// Connects to `127.0.0.1:port` over TCP.
    init(tcpPort port: Int) throws {
        guard let descriptor = connectedLoopbackSocket(port: port) else { throw Failure(what: "connect") }
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    struct Failure: Error, CustomStringConvertible {
        var what: String
        var code = errno
        var description: String { "\(what): \(String(cString: strerror(code)))" }
    }

    /// The connections among `connections` that the server closed at once, as
    /// it does past its cap, once it has closed one (or none after `timeout`).
    static func closedAtOnce(
        among connections: [RawConnection], timeout: Duration = .seconds(5)
    ) async throws -> [RawConnection] {
        var closed: [RawConnection] = []
        _ = try await eventually(timeout: timeout) {
            closed = connections.filter { $0.read(for: .zero).closed }
            return !closed.isEmpty
        }
        return closed
    }

    /// Sends `text`.
    func send(_ text: String) {
        _ = Array(text.utf8).withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// What the peer has sent so far, and whether it has closed the connection.
    private let received = Mutex<(data: [UInt8], closed: Bool)>(([], false))

    /// Reads what the peer sends for at most `timeout` (looking at least
    /// once), until it closes the connection; returns everything it has sent
    /// on this connection so far, and whether it has closed it.
    @discardableResult
    func read(for timeout: Duration) -> (text: String, closed: Bool) {
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 65536)
        while !received.withLock(\.closed) {
            let left = deadline - ContinuousClock.now
            let milliseconds = Int32(max(0, min(50, left / .milliseconds(1))))
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, milliseconds) > 0 {
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
                received.withLock { received in
                    if count > 0 { received.data += buffer[0..<count] } else { received.closed = true }
                }
            } else if left <= .zero {
                break
            }
        }
        return received.withLock { (String(decoding: $0.data, as: UTF8.self), $0.closed) }
    }
}

/// The open files and resident memory of a running process, from `/proc`.
enum ProcessFigures {
    /// How many files process `pid` has open.
    static func openFiles(_ pid: Int32) -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }

    /// How many connections a Unix socket bound in `folder` has accepted and
    /// not closed, from `/proc/net/unix` (an accepted socket carries the path
    /// its listener was bound at, state 03: connected; the agent binds in a
    /// folder of its own beside the socket's final path): unlike a count of
    /// open files, no poll's or refresh's own files are in it.
    static func acceptedConnections(in folder: String) -> Int {
        // Read to its end: the file says it is empty, and one read gives a page of it.
        let bytes = (try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/net/unix")).readToEnd()) ?? Data()
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst().count { line in
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            return fields.count >= 8 && fields[5] == "03" && fields[7].hasPrefix(folder + "/")
        }
    }

    /// The lowest descriptor number process `pid` has free: the one its next
    /// open file takes. A limit on open files at that number leaves it none.
    static func lowestFreeDescriptor(_ pid: Int32) -> Int {
        let open = Set(
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).compactMap { Int($0) })
        return (0...).first { !open.contains($0) } ?? 0
    }

    /// The lowest of ``lowestFreeDescriptor(_:)`` sampled every 20 ms for
    /// `span`: a file open for a moment (a poll's socket) is not counted as
    /// one the process keeps.
    static func lowestFreeDescriptor(_ pid: Int32, over span: Duration) async throws -> Int {
        let end = ContinuousClock.now + span
        var lowest = lowestFreeDescriptor(pid)
        while ContinuousClock.now < end {
            try await Task.sleep(for: .milliseconds(20))
            lowest = min(lowest, lowestFreeDescriptor(pid))
        }
        return lowest
    }

    /// Process `pid`'s resident memory, in KiB.
    static func residentKiB(_ pid: Int32) -> Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    /// The CPU time process `pid` has used, user and system, in seconds.
    static func cpuSeconds(_ pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // The fields after the command name, which is in parentheses.
        guard let end = stat.lastIndex(of: ")") else { return -1 }
        let fields = stat[stat.index(after: end)...].split(separator: " ")
        // utime and stime are fields 14 and 15 of the line: 12 and 13 after the name.
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

/// A TCP socket connected to `127.0.0.1:port`, closed on exec; `nil` (with
/// `errno` saying why) when nothing accepts there.
func connectedLoopbackSocket(port: Int, address host: String = "127.0.0.1") -> Int32? {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard descriptor >= 0 else { return nil }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr(host)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    guard connected == 0 else {
        let code = errno
        close(descriptor)
        errno = code
        return nil
    }
    return descriptor
}
