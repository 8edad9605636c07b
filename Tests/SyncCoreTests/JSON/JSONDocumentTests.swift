import Testing

@testable import SyncCore

@Suite(.timeLimit(.minutes(1))) struct JSONDocumentTests {
    func document(_ text: String) throws -> JSONDocument {
        try JSONDocument(validating: Array(text.utf8))
    }

    @Test(arguments: [
        #"{}"#, #"[]"#, #"0"#, #"-0.5e+10"#, #""a\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00""#,
        #" {"a": [1, {"b": null}], "c": true} "#,
        #"{"a":"é日本🙂"}"#, #"[false,true,null,1E3,2.5e-3]"#,
    ])
    func acceptsValidJSON(_ text: String) throws {
        _ = try document(text)
    }

    @Test(arguments: [
        ("", "the text is empty at byte 0"),
        ("{", "the text ends early: expected a member name in double quotes at byte 1"),
        (#"{"a":1,}"#, "expected a member name in double quotes at byte 7"),
        ("[1,]", "unexpected character ']', expected a value at byte 3"),
        ("01", "a number must not start with 0 at byte 1"),
        ("1.", "the text ends early: expected a digit after '.' at byte 2"),
        ("tru", "expected true at byte 0"),
        (#""a"#, "the text ends early: unterminated string at byte 2"),
        ("\"a\u{01}\"", "control character 0x1 in a string at byte 2"),
        (#""\x""#, "invalid escape \\'x' at byte 2"),
        (#""\u12G4""#, "expected four hexadecimal digits after \\u at byte 5"),
        ("{} {}", "unexpected text after the JSON value at byte 3"),
        ("// no\n{}", "unexpected character '/', expected a value at byte 0"),
        ("NaN", "unexpected character 'N', expected a value at byte 0"),
    ])
    func refusesInvalidJSONAndSaysWhere(_ text: String, _ message: String) {
        #expect(throws: JSONSyntaxError.self) { try document(text) }
        do {
            _ = try document(text)
        } catch let error as JSONSyntaxError {
            #expect(error.description == message)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func refusesInvalidUTF8() {
        #expect(throws: JSONSyntaxError.self) { try JSONDocument(validating: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONDocument(validating: [0x22, 0xED, 0xA0, 0x80, 0x22]) }
        #expect(throws: JSONSyntaxError.self) { try JSONDocument(validating: [0x22, 0xC0, 0xAF, 0x22]) }
    }

    @Test func refusesNestingDeeperThanTheLimit() throws {
        let deep = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
        #expect(throws: JSONSyntaxError.self) { try document(deep) }
        let fine = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        _ = try document(fine)
    }

    @Test func findsValuesByPointer() throws {
        let doc = try document(#"{"data": [{"id": 1}, {"id": "x", "a/b": {"m~n": 5}}], "next": null}"#)
        let second = try #require(doc.span(at: try JSONPointer("/data/1")))
        #expect(doc.string(at: try #require(doc.span(at: try JSONPointer("/id"), in: second))) == "x")
        #expect(doc.text(of: try #require(doc.span(at: try JSONPointer("/data/1/a~1b/m~0n")))) == "5")
        #expect(doc.kind(of: try #require(doc.span(at: try JSONPointer("/next")))) == .null)
        #expect(doc.span(at: try JSONPointer("/data/2")) == nil)
        #expect(doc.span(at: try JSONPointer("/data/01")) == nil)
        #expect(doc.span(at: try JSONPointer("/missing")) == nil)
        #expect(doc.span(at: .root) == doc.root)
    }

    @Test func walksArraysAndObjectsInOrder() throws {
        let doc = try document(#"[ 1 , "two" , [3] , {"four": 4} ]"#)
        var texts: [String] = []
        doc.forEachElement(of: doc.root) { element in
            texts.append(doc.text(of: element))
            return true
        }
        #expect(texts == ["1", #""two""#, "[3]", #"{"four": 4}"#])
        let object = try document(#"{"b": 1, "a\u0041": 2}"#)
        #expect(object.members(of: object.root).map(\.name) == ["b", "aA"])
        #expect(object.member(named: "aA", in: object.root).map(object.text(of:)) == "2")
    }

    @Test func compactsAValueWithoutTouchingItsStrings() throws {
        let doc = try document("{ \"a\" : [ 1 ,\n 2 ] ,\t\"b\" : \"x  y\\\" z\" }")
        #expect(doc.compactText(of: doc.root) == #"{"a":[1,2],"b":"x  y\" z"}"#)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let doc = try document(#""\u00e9\ud83d\ude00\n\"\ud800""#)
        #expect(doc.string(at: doc.root) == "é😀\n\"\u{FFFD}")
    }

    @Test func reportsTheLineAndColumnOfAnError() {
        let bytes = Array("{\n  \"a\": 1,\n  \"b\" 2\n}".utf8)
        do {
            _ = try JSONDocument(validating: bytes)
            Issue.record("expected an error")
        } catch {
            #expect(error.location(in: bytes) == (line: 3, column: 7))
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct JSONPointerEscapeTests {
    /// Found by the `pointer` fuzz target (fuzz/regressions/pointer): a "~" or "/" with a
    /// combining mark after it is one character, and was written unescaped.
    @Test func tokensAreEscapedScalarByScalar() throws {
        let tokens = ["a~\u{301}b", "c/\u{34D}", "~0"]
        let pointer = JSONPointer(tokens: tokens)
        #expect(pointer.description == "/a~0\u{301}b/c~1\u{34D}/~00")
        #expect(try JSONPointer(pointer.description).tokens == tokens)
    }
}

@Suite(.timeLimit(.minutes(1))) struct JSONValueTests {
    @Test func parsesIntoOrderedValues() throws {
        let value = try JSONValue(parsing: Array(#"{"z": 1, "a": [true, null, "s", 2.5]}"#.utf8))
        #expect(value == ["z": 1, "a": [true, nil, "s", .number("2.5")]])
        #expect(value["a"]?.value(at: try JSONPointer("/3"))?.doubleValue == 2.5)
        #expect(value["z"]?.intValue == 1)
    }

    @Test func serializesCompactlyAndPretty() {
        let value: JSONValue = ["name": "a\"b\n", "list": [1, true, nil], "empty": [:], "none": []]
        #expect(value.serialized() == #"{"name":"a\"b\n","list":[1,true,null],"empty":{},"none":[]}"#)
        #expect(
            value.serialized(pretty: true)
                == "{\n  \"name\": \"a\\\"b\\n\",\n  \"list\": [\n    1,\n    true,\n    null\n  ],\n  \"empty\": {},\n  \"none\": []\n}"
        )
    }

    @Test func escapesControlCharacters() {
        #expect(JSONValue.string("\u{01}\t").serialized() == #""\u0001\t""#)
    }

    @Test func roundTripsThroughTheParser() throws {
        let value: JSONValue = ["a": [1, ["b": "é😀"]], "c": .number("-1.5e3")]
        #expect(try JSONValue(parsing: Array(value.serialized().utf8)) == value)
    }

    @Test func numbersFromDoubles() {
        #expect(JSONValue.number(3.0) == .number("3"))
        #expect(JSONValue.number(0.25) == .number("0.25"))
        #expect(JSONValue.number(Double.nan) == .null)
    }
}

@Suite(.timeLimit(.minutes(1))) struct JSONPointerTests {
    @Test func parsesTokensWithEscapes() throws {
        #expect(try JSONPointer("").tokens == [])
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPointer("/a~1b/c~0d/0").tokens == ["a/b", "c~d", "0"])
        #expect(try JSONPointer("/data").description == "/data")
    }

    @Test func refusesMalformedPointers() {
        #expect(throws: JSONPointer.Problem.self) { try JSONPointer("data") }
        #expect(throws: JSONPointer.Problem.self) { try JSONPointer("/a~2") }
        #expect(throws: JSONPointer.Problem.self) { try JSONPointer("/a~") }
    }
}
