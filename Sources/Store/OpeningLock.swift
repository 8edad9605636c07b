import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Serializes opening the database between processes: creating the file,
/// switching it to WAL and migrating it happen under an exclusive lock on one
/// byte of the lock file beside it (`<database>.lock`, byte 2³¹, past the
/// bytes `refresh` locks per resource), so any number of processes opening one
/// database at once all succeed (docs/schema.md#the-sqlite-database).
///
/// The lock is a Linux open-file-description lock: the kernel releases it when
/// its holder exits, even by SIGKILL.
struct OpeningLock {
    /// The byte it locks.
    static let byte: off_t = 1 << 31
    /// How long opening waits for another process to finish opening.
    static let timeout: Duration = .seconds(30)

    private let descriptor: Int32

    /// `F_OFD_SETLK` from `<fcntl.h>`, which Swift's Glibc module does not export.
    private static let setLockCommand: Int32 = 37

    /// Takes the lock beside `database`, waiting up to ``timeout`` for another
    /// process to finish opening it.
    static func acquire(beside database: String) throws(StoreError) -> OpeningLock {
        let path = database + ".lock"
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o660)
        guard descriptor >= 0 else {
            throw StoreError(.open, "Cannot open the lock file \(path): \(String(cString: strerror(errno))).")
        }
        let deadline = ContinuousClock.now + timeout
        while true {
            var request = flock()
            request.l_type = Int16(F_WRLCK)
            request.l_whence = Int16(SEEK_SET)
            request.l_start = byte
            request.l_len = 1
            let result = withUnsafeMutablePointer(to: &request) { fcntl(descriptor, setLockCommand, $0) }
            if result == 0 { return OpeningLock(descriptor: descriptor) }
            let code = errno
            guard code == EAGAIN || code == EACCES, ContinuousClock.now < deadline else {
                close(descriptor)
                let reason =
                    code == EAGAIN || code == EACCES
                    ? "another process has been opening it for 30 s" : String(cString: strerror(code))
                throw StoreError(.open, "Cannot open the database \(database): \(reason).")
            }
            usleep(5_000)
        }
    }

    /// Releases the lock.
    func release() {
        close(descriptor)
    }
}
