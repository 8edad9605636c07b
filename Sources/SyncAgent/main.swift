import Logging
import SyncAgentCLI
import SyncAgentDaemon

#if canImport(Glibc)
import Glibc
#endif

#if DEBUG
// Test builds only: SYNC_AGENT_TEST_CRASH=1 crashes the process on purpose, so that a
// test can see the runtime's backtrace reach the journal (docs/systemd.md#crashes).
// Release builds, which `scripts/release` packages, have no such hook.
if let reason = getenv("SYNC_AGENT_TEST_CRASH").map({ String(cString: $0) }), !reason.isEmpty {
    TestCrash.fire(reason)
}

enum TestCrash {
    @inline(never) static func fire(_ reason: String) -> Never {
        let pages = [reason]
        // An index past the end: the runtime traps, as it would on a real bug.
        _ = pages[pages.count + Int(reason.utf8.count)]
        fatalError("unreachable")
    }
}
#endif

LoggingSystem.bootstrap { label in LineLogHandler(label: label) }
await SyncAgentCommand.execute()
