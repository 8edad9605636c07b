import Foundation
import Testing

@testable import FuzzTargets

/// The `sync` target's own reading of what a sync sent (docs/testing.md#the-sync-target):
/// a judge that misreads a request blames the agent for its own mistake.
@Suite struct SyncJudgeTests {
    /// A token that starts with U+FEFF is sent whole, `%EF%BB%BF…`; Foundation's
    /// `queryItems` drops the mark, which made 13 inputs look like a token cut short.
    @Test func aSentQueryReadsBackByteForByte() {
        let url = "http://upstream.test/items?since=%EF%BB%BF1767225600&q=a%20b&empty=&bare&bad=%zz%4"
        let query = SyncJudge.query(of: url)
        #expect(query.map(\.name) == ["since", "q", "empty", "bare", "bad"])
        #expect(query.map(\.value) == ["\u{FEFF}1767225600", "a b", "", nil, "%zz%4"])
        #expect(Array(query[0].value?.unicodeScalars ?? "".unicodeScalars).first == "\u{FEFF}")
        #expect(SyncJudge.query(of: "http://upstream.test/items").isEmpty)
    }
}
