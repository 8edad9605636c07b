import Foundation
import Testing

@testable import Store

/// Opening an existing database for reading: a file that is not there is
/// "nothing synced yet"; a file out of reach is an error that says why.
@Suite(.timeLimit(.minutes(1))) struct OpeningTests {
    /// The error of opening `path` read-only, if any.
    func openingError(_ path: String) -> StoreError? {
        do throws(StoreError) {
            _ = try SyncStore(path: path, mode: .readOnly)
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
