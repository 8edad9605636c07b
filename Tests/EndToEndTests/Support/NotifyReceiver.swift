import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for systemd's notify socket: a Unix datagram socket (a path
/// or an `@abstract` name) that keeps every message the agent sends.
final class NotifyReceiver: Sendable {
    struct Message: Sendable {
        var text: String
        var at: ContinuousClock.Instant
    }

    /// The value for `$NOTIFY_SOCKET`.
    let address: String
    private let descriptor: Int32
    private let received = Mutex<[Message]>([])
    private let closed = Atomic<Bool>(false)

    init(address: String) throws {
        self.address = address
        descriptor = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        var path = Array(address.utf8)
        if path.first == UInt8(ascii: "@") { path[0] = 0 }
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: path) }
        let length = MemoryLayout<sa_family_t>.size + path.count + (path.first == 0 ? 0 : 1)
        let bound = withUnsafePointer(to: &socketAddress) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(length)) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
        var timeout = timeval(tv_sec: 0, tv_usec: 50_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let thread = Thread { [self] in self.receive() }
        thread.start()
    }

    deinit {
        closed.store(true, ordering: .sequentiallyConsistent)
        close(descriptor)
        if !address.hasPrefix("@") { unlink(address) }
    }

    private func receive() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !closed.load(ordering: .sequentiallyConsistent) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { continue }
            // A datagram holds one or more `KEY=value` lines, as sd_notify(3) says.
            let now = ContinuousClock.now
            let lines = String(decoding: buffer[0..<count], as: UTF8.self).split(separator: "\n")
            received.withLock { $0 += lines.map { Message(text: String($0), at: now) } }
        }
    }

    /// Every line of every message so far, in order.
    var messages: [Message] { received.withLock { $0 } }

    /// How many lines were exactly `text` (such as `READY=1`).
    func count(_ text: String) -> Int {
        messages.count { $0.text == text }
    }
}
