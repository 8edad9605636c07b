#if canImport(Glibc)
import Glibc
#endif

/// The process's limit on open files (docs/systemd.md#what-the-unit-does):
/// the agent raises its soft limit to the hard one at start, so that sockets,
/// the database and idle clients don't run out at 1,024 (the usual soft
/// default) when the system allows far more.
enum FileLimit {
    /// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the soft
    /// limit in force afterwards.
    @discardableResult
    static func raise() -> UInt64 {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { return UInt64(raised.rlim_cur) }
        }
        return UInt64(limit.rlim_cur)
    }
}
