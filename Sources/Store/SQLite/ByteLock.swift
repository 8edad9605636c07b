#if canImport(Glibc)
import Glibc
#endif

/// One byte of the lock file beside the database (`<database>.lock`), locked
/// for writing with a Linux open-file-description lock (`F_OFD_SETLK`): the
/// kernel releases it when its holder closes the file or exits, even by
/// SIGKILL, so a crash never leaves a stale lock. The agent takes byte 0,
/// `refresh` one byte per resource, and opening the database byte 2³¹.
public enum ByteLock {
    /// How one try went.
    public enum Attempt: Equatable, Sendable {
        case acquired, busy
        case failed(Int32)
    }

    /// The lock file beside `database`.
    public static func path(beside database: String) -> String {
        database + ".lock"
    }

    /// `F_OFD_SETLK` from `<fcntl.h>`, which Swift's Glibc module does not export.
    private static let setLockCommand: Int32 = 37

    /// Tries once to lock `byte` of the open file `descriptor` for writing.
    public static func tryLock(_ descriptor: Int32, byte: Int) -> Attempt {
        var request = flock()
        request.l_type = Int16(F_WRLCK)
        request.l_whence = Int16(SEEK_SET)
        request.l_start = off_t(byte)
        request.l_len = 1
        request.l_pid = 0
        let result = withUnsafeMutablePointer(to: &request) { fcntl(descriptor, setLockCommand, $0) }
        if result == 0 { return .acquired }
        if errno == EAGAIN || errno == EACCES { return .busy }
        return .failed(errno)
    }
}
