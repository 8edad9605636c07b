import Foundation
import Store

#if canImport(Glibc)
import Glibc
#endif

/// Per-resource locks in a file beside the database (`<database>.lock`), so
/// that two `sync-agent refresh` processes never sync one resource at the same
/// time: the second waits, then reuses the first one's result
/// (docs/cli.md#refresh).
///
/// Each resource locks one byte of the file, chosen by a hash of its name, with
/// Linux open-file-description locks (`F_OFD_SETLK`): the kernel releases them
/// when the holder exits, even by SIGKILL, so a crash never leaves a stale
/// lock. Byte 0 is reserved for the agent itself.
///
/// Thread-safety: `Sendable`; each ``acquire(_:)`` opens its own description.
package struct RefreshLock: Sendable {
    /// The lock file's path.
    package let path: String

    /// How often a waiting acquire tries again.
    static let pollInterval: Duration = .milliseconds(20)

    /// The lock file beside `database`.
    package init(database: String) {
        path = ByteLock.path(beside: database)
    }

    /// A held lock; ``release()`` it when the sync is recorded.
    package final class Held: Sendable {
        private let descriptor: Int32
        /// Whether another process held the lock when it was asked for.
        package let waited: Bool

        init(descriptor: Int32, waited: Bool) {
            self.descriptor = descriptor
            self.waited = waited
        }

        /// Releases the lock.
        package func release() {
            close(descriptor)
        }
    }

    /// Takes the lock of `resource`, waiting while another process holds it.
    ///
    /// - Throws: `CancellationError` if the task is cancelled while waiting, or
    ///   ``Failure`` if the lock file cannot be opened.
    package func acquire(_ resource: String) async throws -> Held {
        try await acquire(resource, clock: ContinuousClock())
    }

    /// Takes the lock of `resource`, trying again every ``pollInterval`` of `clock`.
    package func acquire<C: Clock<Duration>>(_ resource: String, clock: C) async throws -> Held {
        let descriptor = try openFile()
        var waited = false
        while true {
            switch Self.lock(descriptor, byte: Self.byte(for: resource)) {
            case .acquired:
                return Held(descriptor: descriptor, waited: waited)
            case .busy:
                waited = true
                do {
                    try await clock.sleep(for: Self.pollInterval)
                } catch {
                    close(descriptor)
                    throw error
                }
            case .failed(let code):
                close(descriptor)
                throw Failure(message: "cannot lock \(path): \(String(cString: strerror(code)))")
            }
        }
    }

    /// Takes the lock of `resource` if no process holds it: `nil` if one does.
    ///
    /// - Throws: ``Failure`` if the lock file cannot be opened or locked.
    package func tryAcquire(_ resource: String) throws(Failure) -> Held? {
        let descriptor = try openFile()
        switch Self.lock(descriptor, byte: Self.byte(for: resource)) {
        case .acquired:
            return Held(descriptor: descriptor, waited: false)
        case .busy:
            close(descriptor)
            return nil
        case .failed(let code):
            close(descriptor)
            throw Failure(message: "cannot lock \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Opens the lock file, for a lock of its own.
    private func openFile() throws(Failure) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard descriptor >= 0 else {
            let code = errno
            throw Failure(
                message: "cannot open the lock file \(path): \(String(cString: strerror(code)))",
                isTransient: [EMFILE, ENFILE, ENOMEM].contains(code))
        }
        return descriptor
    }

    /// A lock file that cannot be used.
    package struct Failure: Error, CustomStringConvertible {
        /// What went wrong.
        package var message: String
        /// Whether it passes by itself: no file descriptor or memory left.
        package var isTransient = false
        /// The message.
        package var description: String { message }
    }

    /// Tries once to lock one byte for writing.
    package static func lock(_ descriptor: Int32, byte: Int) -> ByteLock.Attempt {
        ByteLock.tryLock(descriptor, byte: byte)
    }

    /// The byte of `resource`: 1 + a 30-bit FNV-1a hash of its name.
    static func byte(for resource: String) -> Int {
        var hash: UInt32 = 2_166_136_261
        for byte in resource.utf8 {
            hash = (hash ^ UInt32(byte)) &* 16_777_619
        }
        return 1 + Int(hash & 0x3FFF_FFFF)
    }
}
