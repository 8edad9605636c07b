import Foundation
import Testing

@testable import Store

/// Opening an existing database for reading: a file that is not there is
/// "nothing synced yet"; a file out of reach is an error that says why.
@Suite(.timeLimit(.minutes(1))) struct OpeningTests {
    /// The error of opening `path` read-only, if any.
    func openingError(_ path: String) -> StoreError? {
        do throws(StoreError) {
            _ = try SQLiteStore(path: path, mode: .readOnly)
            return nil
        } catch {
            return error
        }
    }

    @Test func aMissingFileIsMissingAndAnUnreachableOneIsAnError() throws {
        let fixture = try StoreFixture()
        #expect(openingError(fixture.folder + "/none.db")?.kind == .missing)
        // A path through a regular file cannot be reached (as root, this
        // stands in for a folder the user may not enter).
        let file = fixture.folder + "/test.db"
        let unreachable = openingError(file + "/inner.db")
        #expect(unreachable?.kind == .open)
        #expect(unreachable?.message.contains("Not a directory") == true, "\(String(describing: unreachable))")
        #expect(openingError(file) == nil)
    }
}

/// The file behind an open store: deleted or replaced under it, damaged.
@Suite(.timeLimit(.minutes(1))) struct FileHealthTests {
    /// `count` records of about 200 bytes each.
    func records(_ count: Int) -> [(String, String)] {
        (0..<count).map { ("\($0)", #"{"id": \#($0), "text": "\#(String(repeating: "x", count: 180))"}"#) }
    }

    @Test func aCommitIntoADeletedFileFailsAsAPassingCondition() async throws {
        let fixture = try StoreFixture()
        try await fixture.sync("users", records(3))
        #expect(fixture.store.isInPlace)
        try FileManager.default.removeItem(atPath: fixture.sqlite.path)
        #expect(!fixture.store.isInPlace)
        await #expect {
            try await fixture.sync("users", records(4))
        } throws: { error in
            let error = error as? StoreError
            return error?.isTransient == true && error?.message.contains("was deleted or replaced") == true
        }
    }

    @Test func aClosedStoreLeavesNoWALBehind() async throws {
        // Reads open reader connections: closed last, a reader cannot remove
        // the WAL, and the next opening would find one.
        let fixture = try StoreFixture()
        try await fixture.sync("users", records(200))
        _ = try await fixture.store.records(of: "users", limit: 10)
        #expect(fixture.sqlite.quickCheck(within: .seconds(10)) == .sound)
        let path = fixture.sqlite.path
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))

        await fixture.store.close()

        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: path + "-shm"))
        let reopened = try SQLiteStore(path: path, mode: .readOnly)
        #expect(try await reopened.records(of: "users", limit: 1000).count == 200)
    }

    @Test func aSoundFileChecksSoundAndADamagedOneNamesTheDamage() async throws {
        let fixture = try StoreFixture()
        try await fixture.sync("users", records(2000))
        #expect(fixture.sqlite.quickCheck(within: .seconds(10)) == .sound)
        _ = try fixture.query("PRAGMA wal_checkpoint(TRUNCATE)")
        await fixture.store.close()
        try Self.damage(fixture.sqlite.path)

        let reopened = try SQLiteStore(path: fixture.sqlite.path)
        guard case .corrupt(let finding) = reopened.quickCheck(within: .seconds(10)) else {
            Issue.record("the damage went unnoticed")
            return
        }
        #expect(!finding.isEmpty)
    }

    @Test func movingAsideTakesTheWALAndSharedMemoryFilesAlong() throws {
        let folder = NSTemporaryDirectory() + "aside-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/a.db"
        for suffix in ["", "-wal", "-shm"] {
            _ = FileManager.default.createFile(atPath: path + suffix, contents: Data(suffix.utf8))
        }
        let aside = try SQLiteStore.moveAside(path, at: Date(timeIntervalSince1970: 1_795_000_000))
        #expect(aside == path + ".corrupt-2026-11-18T110640.000Z")
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: path + suffix))
            #expect(FileManager.default.contents(atPath: aside + suffix) == Data(suffix.utf8))
        }
    }

    /// Overwrites pages in the second half of the database at `path` with
    /// noise, leaving its header and schema intact.
    static func damage(_ path: String) throws {
        let file = try #require(FileHandle(forUpdatingAtPath: path))
        defer { try? file.close() }
        let size = try file.seekToEnd()
        let pageSize: UInt64 = 4096
        var page = size / pageSize / 2
        while page < size / pageSize - 1 {
            try file.seek(toOffset: page * pageSize)
            try file.write(contentsOf: Data(repeating: 0xA5, count: Int(pageSize)))
            page += 3
        }
    }
}
