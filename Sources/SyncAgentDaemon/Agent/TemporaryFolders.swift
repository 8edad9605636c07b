import Foundation
import Store

#if canImport(Glibc)
import Glibc
#endif

/// Folders made from a `mkdtemp` template (the socket's `.sa-XXXXXX`, the
/// demo's `sync-agent-demo.XXXXXX`) that a process killed before it could
/// remove its own leaves behind, for the next start to clean.
package enum TemporaryFolders {
    /// The folders in `base` named from `template` (its `X`s made unique)
    /// whose last change is more than `age` seconds before `now`; a younger
    /// one may be another process's, starting beside this one.
    package static func older(
        than age: TimeInterval, in base: String, template: String, now: Date = SystemSources.now()
    ) -> [String] {
        let prefix = String(template.prefix { $0 != "X" })
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.count == template.count }.map { base + "/" + $0 }.filter {
            var info = stat()
            return lstat($0, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
                && now.timeIntervalSince1970 - TimeInterval(info.st_mtim.tv_sec) > age
        }
    }
}
