import Foundation
import Testing

@testable import Catalog

/// `JSONTapeDecoder` reads what `JSONEncoder` (default strategies) writes as `JSONDecoder` does:
/// every container and scalar, the types Foundation's coders treat specially, and errors that
/// name the value at fault.
@Suite struct JSONTapeDecoderTests {
    enum Color: String, Codable, Hashable { case red, green }

    struct Inner: Codable, Hashable {
        var name: String
        var tags: [String]
        var maybe: Int?
    }

    struct Everything: Codable, Hashable {
        var bool: Bool
        var string: String
        var double: Double
        var float: Float
        var int: Int
        var int8: Int8
        var int16: Int16
        var int32: Int32
        var int64: Int64
        var uint: UInt
        var uint8: UInt8
        var uint16: UInt16
        var uint32: UInt32
        var uint64: UInt64
        var date: Date
        var data: Data
        var url: URL
        var price: Decimal
        var refund: Decimal
        var large: Decimal
        var color: Color
        var inner: Inner
        var list: [Inner]
        var byName: [String: Inner]
        var byNumber: [Int: String]
        var nested: [[Int?]]
        var absent: String?
        var null: String?
    }

    static let sample = Everything(
        bool: true, string: "é \"quoted\" \\ / \u{1} \n 🎉", double: 786_000_123.456_789, float: -1.5, int: Int.min,
        int8: Int8.min, int16: Int16.max, int32: -7, int64: Int64.max, uint: UInt.max, uint8: UInt8.max,
        uint16: 0, uint32: UInt32.max, uint64: UInt64.max, date: Date(timeIntervalSinceReferenceDate: 812_345_678.25),
        data: Data([0, 1, 2, 254, 255]), url: URL(string: "https://example.com/a?b=c")!,
        price: Decimal(string: "0.99")!, refund: Decimal(string: "-12.5")!,
        large: Decimal(string: "123456789012345678901234567")!, color: .green,
        inner: Inner(name: "x", tags: [], maybe: nil),
        list: [Inner(name: "a", tags: ["1", "2"], maybe: 3), Inner(name: "b", tags: [], maybe: nil)],
        byName: ["k": Inner(name: "v", tags: ["t"], maybe: 0)], byNumber: [3: "three", -1: "minus one"],
        nested: [[1, nil, 3], []], absent: nil, null: nil)

    func decode<T: Decodable>(_ type: T.Type, _ text: String) throws(JSONTapeDecoder.Failure) -> T {
        try JSONTapeDecoder.decode(type, from: Array(text.utf8)[...])
    }

    @Test func itReadsWhatJSONEncoderWritesAsJSONDecoderDoes() throws {
        let text = try JSONEncoder().encode(Self.sample)
        let foundation = try JSONDecoder().decode(Everything.self, from: text)
        let tape = try JSONTapeDecoder.decode(Everything.self, from: Array(text)[...])
        #expect(tape == foundation)
        #expect(tape == Self.sample)
        #expect(tape.date.timeIntervalSinceReferenceDate == 812_345_678.25)
        #expect(tape.data == Data([0, 1, 2, 254, 255]))
        #expect(tape.price.description == "0.99")
        #expect(tape.refund.description == "-12.5")
        #expect(tape.large.description == "123456789012345678901234567")
        #expect(tape.byNumber[-1] == "minus one")
        #expect(tape.nested == [[1, nil, 3], []])
        // Written back, it is the same text.
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        #expect(try encoder.encode(tape) == encoder.encode(foundation))
    }

    @Test func membersNoKeyAsksForAreIgnored() throws {
        let inner = try decode(Inner.self, #"{"name":"n","tags":["a"],"future":{"x":[1,2]},"maybe":null}"#)
        #expect(inner == Inner(name: "n", tags: ["a"], maybe: nil))
    }

    @Test func aWrongTypeNamesItsPath() {
        #expect(
            throws: JSONTapeDecoder.Failure(path: "$.list[1].tags[0]", problem: "expected a string, found a number")
        ) {
            try decode(
                [String: [Inner]].self, #"{"list":[{"name":"a","tags":[]},{"name":"b","tags":[7]}]}"#
            )["list"]
        }
        #expect(throws: JSONTapeDecoder.Failure(path: "$.name", problem: "expected a string, found null")) {
            try decode(Inner.self, #"{"name":null,"tags":[]}"#)
        }
    }

    @Test func aMissingMemberIsNamed() {
        #expect(throws: JSONTapeDecoder.Failure(path: "$", problem: "missing member \"tags\"")) {
            try decode(Inner.self, #"{"name":"n"}"#)
        }
    }

    @Test func numbersOutOfRangeOrNotWholeAreRefused() {
        #expect(throws: JSONTapeDecoder.Failure(path: "$[0]", problem: "the number 256 does not fit UInt8")) {
            try decode([UInt8].self, "[256]")
        }
        #expect(throws: JSONTapeDecoder.Failure(path: "$[0]", problem: "the number -1 does not fit UInt64")) {
            try decode([UInt64].self, "[-1]")
        }
        #expect(throws: JSONTapeDecoder.Failure(path: "$[0]", problem: "the number 1.5 does not fit Int")) {
            try decode([Int].self, "[1.5]")
        }
        #expect(throws: JSONTapeDecoder.Failure.self) { try decode([Int64].self, "[9223372036854775808]") }
        #expect((try? decode([Int64].self, "[-9223372036854775808]")) == [Int64.min])
    }

    @Test func anUnknownRawValueIsNamedWithItsPath() throws {
        do {
            _ = try decode(Inner.self, #"{"name":"n","tags":[]}"#)
            _ = try decode([String: Color].self, #"{"c":"blue"}"#)
            Issue.record("decoded an unknown color")
        } catch {
            #expect(error.path == "$.c")
        }
    }

    @Test func textThatIsNotJSONSaysWhere() {
        do {
            _ = try decode(Inner.self, "{\"name\":\n\"n\",}")
            Issue.record("decoded broken JSON")
        } catch {
            #expect(error.path == "$")
            #expect(error.problem.contains("line 2"))
        }
    }

    @Test func stringsLongerThanTheCatalogsLimitReadWhenTheCallerAllowsThem() throws {
        let long = String(repeating: "a", count: JSONParser.maximumStringBytes + 1)
        let text = Array(#"{"name":"\#(long)","tags":[]}"#.utf8)[...]
        #expect(throws: JSONTapeDecoder.Failure.self) { try JSONTapeDecoder.decode(Inner.self, from: text) }
        let inner = try JSONTapeDecoder.decode(Inner.self, from: text, maximumStringBytes: 1 << 30)
        #expect(inner.name.utf8.count == long.utf8.count)
    }
}
