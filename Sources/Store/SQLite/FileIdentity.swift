import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A file's device and inode: what tells it from another file put at the
/// same path (the agent's database and socket are watched by it:
/// docs/systemd.md#what-the-unit-does).
public struct FileIdentity: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64

    /// The identity of the file at `path`, or `nil` if there is none; of the
    /// link itself rather than its target unless `followingLinks`.
    public init?(at path: String, followingLinks: Bool = true) {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
