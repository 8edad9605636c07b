import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Serializes opening the database between processes: creating the file,
/// switching it to WAL and migrating it happen under an exclusive
/// ``ByteLock`` on byte 2³¹ (past the bytes `refresh` locks per resource), so
/// any number of processes opening one database at once all succeed
/// (docs/cli.md#refresh).
struct OpeningLock {
    /// The byte it locks.
    static let byte = 1 << 31
    /// How long opening waits for another process to finish opening.
    static let timeout: Duration = .seconds(30)

    private let descriptor: Int32

    /// Takes the lock beside `database`, waiting up to ``timeout`` for another
    /// process to finish opening it.
    static func acquire(beside database: String) throws(StoreError) -> OpeningLock {
        let path = ByteLock.path(beside: database)
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard descriptor >= 0 else {
            throw StoreError(.open, "Cannot open the lock file \(path): \(String(cString: strerror(errno))).")
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            let reason: String
            switch ByteLock.tryLock(descriptor, byte: byte) {
            case .acquired:
                return OpeningLock(descriptor: descriptor)
            case .busy where ContinuousClock.now < deadline:
                usleep(5_000)
                continue
            case .busy:
                reason = "another process has been opening it for 30 s"
            case .failed(let code):
                reason = String(cString: strerror(code))
            }
            close(descriptor)
            throw StoreError(.open, "Cannot open the database \(database): \(reason).")
        }
    }

    /// Releases the lock.
    func release() {
        close(descriptor)
    }
}
