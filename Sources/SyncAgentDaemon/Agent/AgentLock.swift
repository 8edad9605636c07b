import Foundation
import SyncCore
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One running agent per database: `sync-agent run` holds byte 0 of the lock
/// file beside the database (``RefreshLock`` keeps the other bytes for
/// resources) for as long as it runs. The kernel releases the lock when the
/// process exits, even by SIGKILL, so a crash never blocks a restart.
///
/// Thread-safety: `Sendable`; the descriptor is behind a `Mutex` and closed once.
package final class AgentLock: Sendable {
    private let descriptor: Mutex<Int32?>

    private init(descriptor: Int32) {
        self.descriptor = Mutex(descriptor)
    }

    /// Why the lock could not be taken.
    enum Failure: Error {
        /// Another process holds it: an agent runs on this database.
        case held
        /// The lock file cannot be used.
        case unusable(String)
    }

    /// Takes the lock of the database's agent, without waiting.
    static func acquire(database: String) throws(Failure) -> AgentLock {
        let path = RefreshLock(database: database).path
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard descriptor >= 0 else {
            throw .unusable("cannot open the lock file \(path): \(String(cString: strerror(errno)))")
        }
        switch RefreshLock.lock(descriptor, byte: 0) {
        case .acquired:
            return AgentLock(descriptor: descriptor)
        case .busy:
            close(descriptor)
            throw .held
        case .failed(let code):
            close(descriptor)
            throw .unusable("cannot lock \(path): \(String(cString: strerror(code)))")
        }
    }

    /// Whether an agent runs on `database` now: its lock is held.
    package static func isHeld(database: String) -> Bool {
        do {
            try acquire(database: database).release()
            return false
        } catch {
            if case .held = error { return true }
            return false
        }
    }

    /// Releases the lock (once; later calls do nothing).
    func release() {
        let descriptor = self.descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
        if let descriptor { close(descriptor) }
    }
}
