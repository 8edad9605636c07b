import Foundation
import Testing

@testable import SyncCore

@Suite struct JSONValueEncoderTests {
    struct Sample: Encodable {
        var zebra = 1
        var note: String?
        var at = Date(timeIntervalSince1970: 1_795_000_000.5)
        var list = [1, 2]
        var nested = ["b": true]
    }

    @Test func keepsMemberOrderWritesNilAsNullAndDatesAsTimestamps() {
        let json = JSONValue(encoding: Sample()).serialized()
        #expect(
            json == #"{"zebra":1,"note":null,"at":"2026-11-18T11:06:40.500Z","list":[1,2],"nested":{"b":true}}"#)
    }

    /// Writes its own member, and its parent's part through a super encoder.
    struct Child: Encodable {
        enum Keys: String, CodingKey { case name }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode("child", forKey: .name)
            try Sample(zebra: 2, note: "x").encode(to: container.superEncoder())
        }
    }

    @Test func whatASuperEncoderWritesIsKept() {
        let json = JSONValue(encoding: Child())
        #expect(json["name"] == "child")
        #expect(json["super"]?["zebra"] == 2)
        #expect(json["super"]?["note"] == "x")
    }

    @Test func aSingleValueAndAnEmptyValueEncodeAsFoundationsDo() {
        #expect(JSONValue(encoding: "text") == "text")
        #expect(JSONValue(encoding: [String: Int]()) == .object([]))
        #expect(JSONValue(encoding: Int64(7)) == 7)
        #expect(JSONValue(encoding: [nil, 1] as [Int?]) == [nil, 1])
    }
}
