import Foundation
import Testing

@testable import Catalog

/// The tape the parser builds and reads in place: word-at-a-time string scanning at every
/// alignment, duplicate keys in small and large objects, keys compared as Swift compares strings.
@Suite struct JSONTapeTests {
    func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Array(text.utf8)).value
    }

    @Test func everySpecialByteIsFoundAtEveryOffsetOfAWord() throws {
        for prefix in 0..<20 {
            let run = String(repeating: "a", count: prefix)
            #expect(try parse("\"\(run)\"") == .string(run))
            #expect(try parse("\"\(run)\\n\(run)\"") == .string(run + "\n" + run))
            #expect(try parse("\"\(run)é\(run)\"") == .string(run + "é" + run))
            #expect(try parse("\"\(run)\\u00e9\"") == .string(run + "é"))
            #expect(throws: JSONParser.SyntaxError.self) { try parse("\"\(run)\u{1}\(run)\"") }
            #expect(throws: JSONParser.SyntaxError.self) {
                try JSONParser.parse([0x22] + Array(run.utf8) + [0xFF, 0x22])
            }
            #expect(throws: JSONParser.SyntaxError.self) { try parse("\"\(run)") }
        }
    }

    @Test func byteValuesAroundTheSpecialOnesArePlainText() throws {
        // 0x20 (space), 0x21, 0x23 and 0x5B/0x5D sit beside '"', '\\' and the control range.
        let text = " !#[]~\u{7F}"
        #expect(try parse("\"\(text)\(text)\(text)\"") == .string(text + text + text))
    }

    @Test func duplicateKeysAreFoundInSmallAndLargeObjects() throws {
        for size in [2, 16, 17, 40] {
            let members = (0..<size).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
            #expect(try parse("{\(members)}")["k\(size - 1)"] == .number("\(size - 1)"))
            do throws(JSONParser.SyntaxError) {
                _ = try JSONParser.parse(Array("{\(members),\"k1\":0}".utf8))
                Issue.record("expected a duplicate in \(size) members")
            } catch {
                #expect(error.message == #"duplicate member name "k1""#)
            }
        }
    }

    @Test func keysCompareAsStringsNotAsBytes() throws {
        #expect(throws: JSONParser.SyntaxError.self) { try parse(#"{"\u0061":1,"a":2}"#) }
        #expect(throws: JSONParser.SyntaxError.self) { try parse("{\"é\":1,\"e\u{301}\":2}") }
        let many = (0..<20).map { "\"k\($0)\":0" }.joined(separator: ",")
        #expect(throws: JSONParser.SyntaxError.self) { try parse("{\(many),\"\\u0061\":1,\"a\":2}") }
    }

    @Test func membersAreFoundByNameWhateverTheirSpelling() throws {
        let escapedKey = BadCatalogTests.catalog(
            product: #"{"product\u0049D":"a","type":"Consumable","displayPrice":"0.99"}"#)
        let catalog = try StoreKitConfiguration.decode(data: Data(escapedKey.utf8), file: "E.storekit")
        #expect(catalog.products.map(\.id) == ["a"])
    }

    @Test func theTapeStepsOverWholeSubtrees() throws {
        let bytes = Array(#"{"a":[1,[2,{"b":3}],"x"],"c":{"d":null},"e":true}"#.utf8)
        let tape = try bytes.withUnsafeBufferPointer { buffer in try JSONParser.tape(buffer) }
        let summary: [String] = bytes.withUnsafeBufferPointer { buffer in
            tape.withRoot(over: buffer) { root in
                root.members.map { key, value in "\(key.string ?? "?"):\(value.typeDescription):\(value.count)" }
            }
        }
        #expect(summary == ["a:an array:3", "c:an object:1", "e:a boolean:0"])
    }
}
