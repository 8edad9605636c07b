import Foundation
import Testing

@testable import SyncCore

@Suite struct PercentEncodingTests {
    @Test func encodesEveryByteButTheUnreservedOnesAsFoundationDoes() {
        let unreserved = CharacterSet(
            charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")
        let texts = [
            "", "plain-text_1.0~", "a b", "x=1&y=2", "100%", "/path?q#frag", "é", "日本", "😀", "+;,:@!$'()*",
            "2024-01-01T00:00:00Z",
        ]
        for text in texts {
            #expect(PercentEncoding.encode(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
        }
        #expect(PercentEncoding.encode("a b/é") == "a%20b%2F%C3%A9")
    }
}
