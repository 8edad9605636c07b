import Foundation
import TestUpstream

/// A database written by a release, kept as text in a folder of `Tests/Fixtures/upgrade`
/// (docs/testing.md#upgrades): the configuration it was made with (`config.json`) and the
/// `sqlite3 .dump` of the database that release wrote (`sqlite.sql`), against the test
/// upstream in a state that every run rebuilds the same.
///
/// Its URLs name the host ``host``, which resolves nowhere: the agent reaches it through
/// the test upstream as its HTTP proxy (`http_proxy`), so that the URLs, and the
/// fingerprints made of them, do not depend on the port the upstream listens on.
struct UpgradeFixture: Sendable {
    /// The release that wrote the database, such as `0.1.0`.
    let version: String

    /// `Tests/Fixtures/upgrade`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/upgrade")

    /// The host the configuration's URLs name.
    static let host = "upstream.fixture.test"
    /// The origin the upstream's links name.
    static let origin = "http://\(host)"
    /// The value of `${FIXTURE_TOKEN}`, the secret the configuration sends.
    static let token = "fixture-secret-0001"
    /// When every collection last changed, as its pages' `Last-Modified` say: the same in
    /// every run, so that a stored `Last-Modified` is the upstream's own.
    static let modified = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
    /// `modified` as an HTTP date.
    static let lastModified = "Thu, 01 Jan 2026 00:00:00 GMT"

    /// The collections the configuration reads, and their sizes.
    static let collections = [
        "items": 60, "listed": 30, "linked": 30, "events": 30, "inventory": 30, "graph-users": 30, "people": 3,
        "owned": 20, "journal": 40,
    ]
    /// The journal's items that change after the first sync, each at a time of its own,
    /// before the sync that is cut off at its third page.
    static let journalChanges = Array(1...16)

    var folder: URL { Self.root.appendingPathComponent("release-\(version)") }
    var configPath: String { folder.appendingPathComponent("config.json").path }
    var dumpPath: String { folder.appendingPathComponent("sqlite.sql").path }

    /// The configuration it was made with.
    func config() throws -> String {
        try String(contentsOfFile: configPath, encoding: .utf8)
    }

    /// The test upstream as the fixture was made against, before its first sync.
    static func startUpstream() async throws -> TestUpstream {
        let upstream = try await TestUpstream.start(collections: collections)
        pinModified(upstream)
        return upstream
    }

    /// The changes made between the fixture's first sync and the one cut off.
    static func changeTheJournal(_ upstream: TestUpstream) {
        for id in journalChanges { upstream.changeItems("journal", ids: [id]) }
        pinModified(upstream)
    }

    /// The test upstream in the state the fixture's last sync left it.
    static func startUpstreamAsLeft() async throws -> TestUpstream {
        let upstream = try await startUpstream()
        changeTheJournal(upstream)
        return upstream
    }

    private static func pinModified(_ upstream: TestUpstream) {
        for name in collections.keys { upstream.setModified(name, to: modified) }
    }

    /// The environment an agent of the fixture runs in: the upstream as its proxy, and the secret.
    static func environment(_ upstream: TestUpstream) -> [String: String] {
        ["http_proxy": upstream.baseURL, "FIXTURE_TOKEN": token]
    }

    /// Loads the dump into a new database file at `path`, with the `sqlite3` shell.
    func load(into path: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", path]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: dumpPath))
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let problem = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Workspace.QueryFailed(message: String(decoding: problem, as: UTF8.self))
        }
    }

    /// The `sqlite3 .dump` of the database at `path`.
    static func dump(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", path, ".dump"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Workspace.QueryFailed(message: "sqlite3 .dump failed") }
        return String(decoding: data, as: UTF8.self)
    }
}
