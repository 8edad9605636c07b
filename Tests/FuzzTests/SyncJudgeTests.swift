import Foundation
import SyncCore
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

    /// A failure names a value as JSON text cut to 40 characters (`shownQuoted`): a string
    /// of control characters shows its escapes, not its letters, which made 49 inputs look
    /// unnamed; a header the loopback upstream sends loses its control characters.
    @Test(arguments: [
        "\u{0C}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}nzg\u{0}\u{0}", "       1767225600", "", " ",
        "\u{FFFD}\u{4}\u{0}x",
        "<http://upstream.test/items?p=9>; rel=\"next\"", "113518922052419301", String(repeating: "x", count: 10_000),
    ])
    func aValueIsNamedAsAFailureShowsIt(_ text: String) {
        #expect(
            ServedValue.from(text).isNamed(in: "the item at \"/items/0\" has \(text.shownQuoted()) at \"/updated\""))
        #expect(!ServedValue.from(text).isNamed(in: "the item at \"/items/0\" has \"other\" at \"/updated\""))
    }

    /// A `Content-Length` is shown as it came, unquoted (found by the 20-minute run).
    @Test func aHeaderShownUnquotedIsNamed() {
        let length = ServedValue.from("00123423574759220")
        #expect(
            length.isNamed(in: "the response is larger than maxResponseSize: its Content-Length is 00123423574759220"))
        #expect(!length.isNamed(in: "the response is larger than maxResponseSize: its Content-Length is 9"))
        #expect(ServedValue.from("0000010379044").isNamed(in: "the API stated 10379044 items (X-Total-Count)"))
    }

    @Test func aHeaderOnTheWireHoldsNoControlCharacter() {
        #expect(LoopbackUpstream.onTheWire("9\u{1E}Zp\u{7F}tio\u{0}") == "9Zptio")
    }

    /// A request sent again at once, the same in all, is a retry whose answer the sync did not
    /// take; a capped walk's next window that sends `{since}` in a header differs only there,
    /// and its first window's answer counts (49 inputs lost it and blamed the agent).
    @Test func aRetryIsTheSameRequestHeadersAndAll() {
        func exchange(_ since: String) -> ScriptedUpstream.Exchange {
            ScriptedUpstream.Exchange(
                sync: 1, method: "GET", url: "http://upstream.test/items", headers: [("X-Since", since)], body: nil,
                answer: .end, bodyText: "{\"items\": []}")
        }
        let windows = [exchange("1970-01-01T00:00:00Z"), exchange("1970-01-01T01:53:09Z")]
        #expect(
            SyncJudge.taken(windows).map { $0.headers[0].value } == ["1970-01-01T00:00:00Z", "1970-01-01T01:53:09Z"])
        let retried = [exchange("1970-01-01T00:00:00Z"), exchange("1970-01-01T00:00:00Z")]
        #expect(SyncJudge.taken(retried).count == 1)
        // In-process, a 2xx page is never refused: the same request after it is the API's
        // cursor naming itself again (found by the 10-minute run).
        #expect(SyncJudge.taken(retried, wire: false).count == 2)
        // An expiry, though the full sync it starts asks the same first request.
        var expired = retried
        expired[0].answer.status = 410
        #expect(SyncJudge.taken(expired, expiredWhen: true).map(\.answer.status) == [410, 200])
        #expect(SyncJudge.taken(expired).map(\.answer.status) == [200])
    }
}
