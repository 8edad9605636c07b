import Foundation
import Testing

@testable import SyncAgentCLI
@testable import SyncAgentDaemon

/// The demo's temporary folders: one left by a demo killed before it could
/// remove it is removed by the next demo; a running demo's is not.
@Suite struct DemoFilesTests {
    @Test func foldersOfDemosThatDiedAreRemovedAndRunningOrYoungOnesKept() throws {
        let base = NSTemporaryDirectory() + "demo-files-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let dead = base + "/sync-agent-demo.AbC123"
        let running = base + "/sync-agent-demo.DeF456"
        let young = base + "/sync-agent-demo.GhI789"
        let other = base + "/sync-agent-demo-notours"
        for folder in [dead, running, young, other] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: folder + "/demo.db", contents: Data())
        }
        let lock = try AgentLock.acquire(database: running + "/demo.db")
        defer { lock.release() }
        let hourAgo = Date().addingTimeInterval(-3600)
        for folder in [dead, running, other] {
            try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: folder)
        }

        #expect(DemoFiles.removeStale(in: base) == [dead])
        for folder in [running, young, other] { #expect(FileManager.default.fileExists(atPath: folder)) }
    }
}
