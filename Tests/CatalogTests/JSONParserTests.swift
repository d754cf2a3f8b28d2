import Foundation
import Testing

@testable import Catalog

@Suite struct JSONParserTests {
    func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8)).value
    }

    @Test func scalarsKeepTheirKindAndText() throws {
        #expect(try parse("true") == .bool(true))
        #expect(try parse(" false ") == .bool(false))
        #expect(try parse("null") == .null)
        #expect(try parse("1") == .number("1"))
        #expect(try parse("-0.10e+5") == .number("-0.10e+5"))
        #expect(try parse(#""a\"b\\c\/d\n\u00e9\ud83d\ude00""#) == .string("a\"b\\c/d\né😀"))
        #expect(try parse("\"日本語\"") == .string("日本語"))
    }

    @Test func containersAndRootKeyOrder() throws {
        let document = try JSONParser.parse(Array(#"{"z":[1,{"y":null}],"a":{},"m":[]}"#.utf8))
        #expect(document.rootKeyOrder == ["z", "a", "m"])
        #expect(document.value["z"] == .array([.number("1"), .object(["y": .null])]))
        #expect(document.value["a"] == .object([:]))
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array("[]".utf8)).value == .array([]))
    }

    @Test(arguments: [
        "01", "1.", "-", "+1", ".5", "1e", "tru", "nul", "[1,]", "{\"a\"}", "{\"a\":1,}", "\"\u{1}\"", "\"\\x\"",
        "\"\\u12\"", "'a'", "[1 2]",
    ])
    func rejectsInvalidJSON(_ text: String) throws {
        #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test func rejectsOverlongAndSurrogateUTF8() throws {
        for bytes: [UInt8] in [[0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0xFF]] {
            #expect(throws: JSONParser.SyntaxError.self) { try JSONParser.parse([0x22] + bytes + [0x22]) }
        }
    }

    @Test func errorPositionCountsCharactersNotBytes() throws {
        do {
            _ = try JSONParser.parse(Array("[\"é\", x]".utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.line == 1)
            #expect(error.column == 7)
        }
    }
}
