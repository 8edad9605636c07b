import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The files a configuration's secrets were read from (`${credential:…}` and
/// `${file:…}`), each with its ``Stamp`` as it was just before the read:
/// what tells, with one `stat` per file and no read, that a secret may have
/// changed (docs/configuration.md#substitution-and-secrets).
///
/// A file rewritten in place gets new modification and change times; one
/// replaced by a rename (or a symbolic link switched to another, as
/// Kubernetes does with its secrets) is another inode. A file changed twice
/// within one tick of the file system's clock, keeping its size, looks
/// unchanged after the first change: rotations are not that quick.
///
/// Thread-safety: a `Sendable` value.
package struct SecretFiles: Sendable, Hashable {
    /// What `stat` tells of a file (following links): which file it is, and which version.
    package struct Stamp: Sendable, Hashable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        /// The modification and change times, in nanoseconds since 1970.
        var modified: Int64
        var changed: Int64

        /// The stamp of the file at `path`, or `nil` if it cannot be found.
        package init?(at path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
        }
    }

    /// Per absolute path, its stamp just before it was first read (`nil`: it was not found then).
    package private(set) var stamps: [String: Stamp?] = [:]

    /// No files.
    package init() {}

    /// Stamps `path` before it is read: a change during the read then shows
    /// at the next check. A file read twice keeps its first stamp.
    mutating func record(_ path: String) {
        guard stamps.index(forKey: path) == nil else { return }
        stamps[path] = .some(Stamp(at: path))
    }

    /// The same files with the stamps they have now: one `stat` each, no read.
    package func restamped() -> SecretFiles {
        var now = SecretFiles()
        for path in stamps.keys { now.stamps[path] = .some(Stamp(at: path)) }
        return now
    }

    /// The paths whose stamps differ in `other`, sorted.
    package func paths(differingFrom other: SecretFiles) -> [String] {
        Set(stamps.keys).union(other.stamps.keys).filter { stamps[$0] != other.stamps[$0] }.sorted()
    }
}
