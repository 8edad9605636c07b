import Foundation
import Testing

@testable import SyncAgentDaemon
@testable import SyncCore

#if canImport(Glibc)
import Glibc
#endif

/// What keeps one agent per database and lets a restart after a crash work:
/// the lock file and the socket's path.
@Suite final class AgentFilesTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "sync-agent-files-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func privateFoldersLeftByACrashAreRemovedAndYoungOnesKept() throws {
        let old = folder + "/.sa-AbC123"
        let young = folder + "/.sa-XyZ789"
        let other = folder + "/.sa-notours-at-all"
        for path in [old, young, other] {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        }
        let socketDescriptor = try bindSocket(at: old + "/s", listen: false)
        close(socketDescriptor)
        let hourAgo = Date().addingTimeInterval(-3600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: old)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: other)

        #expect(StatusServer.removeStalePrivateFolders(in: folder) == [old])
        #expect(!FileManager.default.fileExists(atPath: old))
        #expect(FileManager.default.fileExists(atPath: young))
        #expect(FileManager.default.fileExists(atPath: other))
    }

    /// A Unix stream socket bound at `path`; listening if `listen`.
    func bindSocket(at path: String, listen shouldListen: Bool) throws -> Int32 {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = try #require(UnixSocketPath.address(of: path))
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        try #require(bound == 0)
        if shouldListen { try #require(listen(descriptor, 1) == 0) }
        return descriptor
    }

    @Test func aSecondAgentCannotTakeTheLockUntilTheFirstReleasesIt() throws {
        let database = folder + "/sync-agent.db"
        let first = try AgentLock.acquire(database: database)
        #expect(throws: AgentLock.Failure.self) { try AgentLock.acquire(database: database) }
        do {
            _ = try AgentLock.acquire(database: database)
        } catch .held {
            // Expected: the first agent holds it.
        } catch {
            Issue.record("expected .held, got \(error)")
        }
        first.release()
        let second = try AgentLock.acquire(database: database)
        second.release()
    }

    @Test func tellsALiveSocketFromAStaleOneAndFromAFile() throws {
        let live = folder + "/live.sock"
        let stale = folder + "/stale.sock"
        let file = folder + "/file"
        let listening = try bindSocket(at: live, listen: true)
        defer { close(listening) }
        // A socket whose process is gone: bound, then closed without unlinking.
        close(try bindSocket(at: stale, listen: false))
        _ = FileManager.default.createFile(atPath: file, contents: Data())

        #expect(UnixSocketPath.occupant(of: live) == .live)
        #expect(UnixSocketPath.occupant(of: stale) == .stale)
        #expect(UnixSocketPath.occupant(of: file) == .notSocket)
        #expect(UnixSocketPath.occupant(of: folder + "/none.sock") == .none)
    }

    @Test func prepareRefusesALiveSocketAndAcceptsAStaleOne() throws {
        let live = folder + "/live.sock"
        let listening = try bindSocket(at: live, listen: true)
        defer { close(listening) }
        let stale = folder + "/stale.sock"
        close(try bindSocket(at: stale, listen: false))

        #expect(throws: StatusServer.Failure.self) { try StatusServer.prepare(path: live) }
        try StatusServer.prepare(path: stale)
        try StatusServer.prepare(path: folder + "/new.sock")
    }

    /// `/tmp/ddd…/name`, its folder `length` bytes long.
    static func path(inFolderOfLength length: Int, named name: String) -> String {
        "/tmp/" + String(repeating: "d", count: length - 5) + "/" + name
    }

    @Test func aSocketFitsOnlyWhenItsPrivateBindPathFitsToo() {
        let limit = UnixSocketPath.maxLength
        #expect(StatusServer.fits("/run/sync-agent/sync-agent.sock"))
        // The private path is the folder plus "/.sa-XXXXXX/s": 13 bytes.
        #expect(StatusServer.fits(Self.path(inFolderOfLength: limit - 13, named: "a.sock")))
        #expect(!StatusServer.fits(Self.path(inFolderOfLength: limit - 12, named: "a.sock")))
        #expect(!StatusServer.fits(Self.path(inFolderOfLength: 20, named: String(repeating: "n", count: limit))))
    }

    @Test func prepareExplainsWhatIsInTheWay() {
        let file = folder + "/file"
        _ = FileManager.default.createFile(atPath: file, contents: Data())
        let cases = [
            (file, "is not a socket"),
            (folder + "/missing/agent.sock", "does not exist"),
            (folder + "/" + String(repeating: "s", count: 120) + ".sock", "long"),
            // It fits, but not the private path it would be bound at first.
            (Self.path(inFolderOfLength: 98, named: "a.sock"), "too long"),
        ]
        for (path, words) in cases {
            do {
                try StatusServer.prepare(path: path)
                Issue.record("prepare accepted \(path)")
            } catch {
                #expect(error.description.contains(words), "\(error.description)")
            }
        }
    }
}
