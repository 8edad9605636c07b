import Foundation
import Testing

@testable import SyncCore

/// The stamps of the files secrets are read from
/// (docs/configuration.md#substitution-and-secrets).
@Suite(.timeLimit(.minutes(1))) struct SecretFilesTests {
    let folder = NSTemporaryDirectory() + "secret-files-" + UUID().uuidString
    var token: String { folder + "/token" }

    init() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try write("first-token\n", to: token)
    }

    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        // Written an hour ago, as a secret rotated now was: a file system's
        // clock ticks every few milliseconds, and a test is quicker.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: path)
    }

    /// The files a substitution of `text` stamped.
    func filesRead(_ text: String) throws -> SecretFiles {
        var substitution = Substitution(
            environment: ["CREDENTIALS_DIRECTORY": folder, "API_TOKEN": "env-token"], folder: folder)
        _ = try substitution.apply(text)
        return substitution.files
    }

    @Test func everyFileReadIsStampedAndEnvironmentValuesAreNot() throws {
        let files = try filesRead("${credential:token} ${file:token} ${file:\(token)} ${API_TOKEN}")
        #expect(Array(files.stamps.keys) == [token])
        #expect(files.stamps[token] == .some(SecretFiles.Stamp(at: token)))
        #expect(try filesRead("${API_TOKEN}").stamps.isEmpty)
    }

    @Test func unchangedFilesKeepTheirStamps() throws {
        let files = try filesRead("${file:token}")
        // Only `stat` is asked: the file is not read.
        #expect(files.restamped() == files)
        #expect(files.paths(differingFrom: files.restamped()).isEmpty)
    }

    @Test func aRewriteInPlaceChangesTheStamp() throws {
        let files = try filesRead("${file:token}")
        // Same length, same inode: only the times tell.
        let handle = try #require(FileHandle(forWritingAtPath: token))
        try handle.write(contentsOf: Data("other-token".utf8))
        try handle.close()
        #expect(try String(contentsOfFile: token, encoding: .utf8) == "other-token\n")
        #expect(files.restamped().paths(differingFrom: files) == [token])
    }

    @Test func aReplacementByRenameChangesTheStamp() throws {
        let files = try filesRead("${file:token}")
        try write("other-token\n", to: token + ".new")
        #expect(rename(token + ".new", token) == 0)
        #expect(files.restamped().paths(differingFrom: files) == [token])
    }

    @Test func aRemovedFileChangesTheStamp() throws {
        let files = try filesRead("${file:token}")
        try FileManager.default.removeItem(atPath: token)
        let now = files.restamped()
        #expect(now.paths(differingFrom: files) == [token])
        #expect(now.stamps[token] == .some(nil))
    }
}
