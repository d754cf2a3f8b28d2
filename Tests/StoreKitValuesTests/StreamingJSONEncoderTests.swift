import Foundation
import StoreKitValues
import Testing

/// `StreamingJSONEncoder` writes what `JSONEncoder` with its default options writes, value for
/// value, with each object's members in the order they were encoded.
@Suite struct StreamingJSONEncoderTests {
    enum Choice: Codable, Equatable {
        case pair(Int, String)
        case labelled(amount: Double?)
        case bare
    }

    struct Inner: Codable, Equatable {
        var date: Date
        var url: URL
        var price: Decimal
        var data: Data
        var ratio: Float
    }

    struct Everything: Codable, Equatable {
        var int = -42
        var text = "a/b \u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}\u{2028} é 😀 \"q\" \\"
        var missing: Int? = nil
        var present: String? = "here"
        var integers: [Int] = [0, 1, -2, Int.min, Int.max]
        var unsigned: UInt64 = .max
        var small: [Int8] = [-128, 127]
        var doubles: [Double] = [0, -0.0, 1, 0.1, 1e16, 1e-7, 1.5e300, 786_000_123.456, 4_500_000_000_000_000]
        var byName: [String: [Double]] = ["k/1": [1, 2.5], "": []]
        var byNumber: [Int: String] = [3: "three", -1: "minus one"]
        var choices: [Choice] = [.pair(3, "x"), .labelled(amount: nil), .labelled(amount: 2.5), .bare]
        var inner = Inner(
            date: Date(timeIntervalSinceReferenceDate: 786_000_123.456), url: URL(string: "https://x.test/a?b=c")!,
            price: Decimal(string: "0.99")!, data: Data([0, 1, 2, 250, 255]), ratio: 0.1)
        var flags = [true, false]
        var nested: [[String: Int?]] = [["a": nil, "b": 2], [:]]
        var none: [Choice] = []
    }

    func sameJSON(_ streamed: [UInt8], _ foundation: Data) throws -> Bool {
        /// Written again with sorted keys by `JSONSerialization`.
        func canonical(_ data: Data) throws -> Data {
            try JSONSerialization.data(
                withJSONObject: JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed),
                options: [.sortedKeys, .fragmentsAllowed])
        }
        return try canonical(Data(streamed)) == canonical(foundation)
    }

    @Test func writesWhatJSONEncoderWrites() throws {
        let value = Everything()
        let streamed = try StreamingJSONEncoder().encode(value)
        let foundation = try JSONEncoder().encode(value)
        #expect(try sameJSON(streamed, foundation))
        // The same bytes, only ordered differently: every escape and number as Foundation writes it.
        #expect(streamed.count == foundation.count)
        #expect(streamed.sorted() == Array(foundation).sorted())
        #expect(try JSONDecoder().decode(Everything.self, from: Data(streamed)) == value)
    }

    @Test func membersComeInTheOrderTheyAreEncoded() throws {
        let text = String(decoding: try StreamingJSONEncoder().encode(Everything()), as: UTF8.self)
        #expect(text.hasPrefix(#"{"int":-42,"text":"a\/b \u0001\b\t\n\f\r\u001f"#))
        #expect(text.contains(#","present":"here","integers":[0,1,-2,-9223372036854775808,9223372036854775807],"#))
        #expect(text.contains(#""doubles":[0,-0,1,0.1,1e+16,1e-07,1.5e+300,786000123.456,4500000000000000]"#))
        #expect(
            text.contains(
                #""choices":[{"pair":{"_0":3,"_1":"x"}},{"labelled":{}},{"labelled":{"amount":2.5}},{"bare":{}}]"#))
        #expect(
            text.contains(
                #""inner":{"date":786000123.456,"url":"https:\/\/x.test\/a?b=c","price":0.99,"data":"AAEC+v8=","ratio":0.1}"#
            ))
        #expect(
            text.hasSuffix(#""flags":[true,false],"nested":[{"a":null,"b":2},{}],"none":[]}"#)
                || text.hasSuffix(#""flags":[true,false],"nested":[{"b":2,"a":null},{}],"none":[]}"#))
    }

    @Test(arguments: [
        "", "plain", "/", "\"", "\\", "\u{0}", "\u{7}", "\u{B}", "\u{1F}", "\u{7F}", "é", "\u{FFFF}", "😀",
        "tab\there/and\\back\"quote\"\n",
    ])
    func stringsAreEscapedAsFoundationEscapesThem(_ text: String) throws {
        #expect(try StreamingJSONEncoder().encode(text) == Array(JSONEncoder().encode(text)))
        #expect(try StreamingJSONEncoder().encode([text: text]) == Array(JSONEncoder().encode([text: text])))
    }

    @Test func anEscapeAnywhereInALongStringIsFound() throws {
        // The writer passes over eight bytes at a time: each escape at each offset of a block.
        let withoutSlashes = JSONEncoder()
        withoutSlashes.outputFormatting = [.withoutEscapingSlashes]
        for special in ["\u{0}", "\u{1F}", "\"", "\\", "/", "\n", "é", "\u{7F}"] {
            for offset in 0..<20 {
                let text = String(repeating: "a", count: offset) + special + String(repeating: "b", count: 23 - offset)
                #expect(try StreamingJSONEncoder().encode(text) == Array(JSONEncoder().encode(text)))
                #expect(
                    try StreamingJSONEncoder(escapesSlashes: false).encode(text)
                        == Array(withoutSlashes.encode(text)))
            }
        }
    }

    @Test(arguments: [
        0.0, -0.0, 1, -3, 0.1, 1.0 / 3, 1e15 + 0.5, 9_007_199_254_740_992, 1e22, .leastNonzeroMagnitude, 123_456.789,
    ])
    func numbersAreWrittenAsFoundationWritesThem(_ number: Double) throws {
        #expect(try StreamingJSONEncoder().encode(number) == Array(JSONEncoder().encode(number)))
        #expect(try StreamingJSONEncoder().encode(Float(number)) == Array(JSONEncoder().encode(Float(number))))
        let date = Date(timeIntervalSinceReferenceDate: number)
        #expect(try StreamingJSONEncoder().encode(date) == Array(JSONEncoder().encode(date)))
    }

    @Test func aNonFiniteNumberIsRefusedWithItsPath() throws {
        struct Holder: Encodable { var values: [String: Double] }
        var bytes: [UInt8] = Array("kept".utf8)
        do {
            try StreamingJSONEncoder().append(Holder(values: ["ratio": .nan]), to: &bytes)
            Issue.record("a NaN was encoded")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["values", "ratio"])
        }
        #expect(bytes == Array("kept".utf8))
    }

    @Test func aContainerWrittenAfterALaterOneIsRefused() throws {
        struct OutOfOrder: Encodable {
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: AnyKey.self)
                var first = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("first"))
                var second = outer.nestedContainer(keyedBy: AnyKey.self, forKey: AnyKey("second"))
                try second.encode(2, forKey: AnyKey("x"))
                try first.encode(1, forKey: AnyKey("x"))
            }
        }
        #expect(throws: EncodingError.self) { try StreamingJSONEncoder().encode(OutOfOrder()) }
    }

    @Test func nestedContainersInOrderAreWritten() throws {
        struct InOrder: Encodable {
            func encode(to encoder: any Encoder) throws {
                var outer = encoder.container(keyedBy: AnyKey.self)
                var list = outer.nestedUnkeyedContainer(forKey: AnyKey("list"))
                try list.encode(1)
                var object = list.nestedContainer(keyedBy: AnyKey.self)
                try object.encode("v", forKey: AnyKey("k"))
                try list.encodeNil()
                try outer.encode(true, forKey: AnyKey("after"))
            }
        }
        let text = String(decoding: try StreamingJSONEncoder().encode(InOrder()), as: UTF8.self)
        #expect(text == #"{"list":[1,{"k":"v"},null],"after":true}"#)
    }

    @Test func sortedKeysComeInTheOrderFoundationSortsThem() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        let sorting = StreamingJSONEncoder(sortsKeys: true)
        // Every object sorted, nested ones and those inside arrays too, by the keys' UTF-8 bytes.
        let value = Everything()
        #expect(try sorting.encode(value) == Array(foundation.encode(value)))
        let keys: [String: [String: Int]] = [
            "b": ["9": 1, "10": 2, "B": 3, "a": 4, "é": 5, "_": 6, "Z": 7, "aa": 8, "a/b": 9], "a": [:], "": ["x": 0],
        ]
        #expect(try sorting.encode(keys) == Array(foundation.encode(keys)))
        #expect(try sorting.encode([keys, [:]]) == Array(foundation.encode([keys, [:]])))
    }

    @Test func slashesAndDatesAsTheOptionsSay() throws {
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.withoutEscapingSlashes]
        let text = ["a/b": "c/d \\ \"e\""]
        #expect(
            try StreamingJSONEncoder(escapesSlashes: false).encode(text) == Array(foundation.encode(text)))
        let milliseconds = StreamingJSONEncoder(
            dateEncoding: .integer { Int64(exactly: $0.timeIntervalSince1970 * 1000) })
        #expect(try milliseconds.encode(["d": Date(timeIntervalSince1970: 1.5)]) == Array(#"{"d":1500}"#.utf8))
        do {
            _ = try milliseconds.encode(["d": Date(timeIntervalSince1970: 0.0001)])
            Issue.record("a date the conversion refused was written")
        } catch EncodingError.invalidValue(_, let context) {
            #expect(context.codingPath.map(\.stringValue) == ["d"])
        }
    }

    /// `value` through its own `encode(to:)`, not the stream's shortcut for its type.
    struct Synthesized<Value: Encodable>: Encodable {
        let value: Value
        func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
    }

    static func everyMemberSet() -> Transaction {
        let payment = Payment(
            productID: "com.example/pro", quantity: 3, applicationUsername: "user \"1\"",
            orderData: ["order": "A/1", "note": "\u{1}"], offerID: "promo", requestID: "REQ-1",
            appAccountToken: UUID(uuidString: "7E3FB20B-4CDB-47CC-936D-99D65F608138"),
            promotionalOffer: PromotionalOffer(
                offerID: "promo", keyID: "KEY", nonce: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!,
                signature: Data([1, 2, 250]), timestamp: 1_767_225_600_000),
            offerCode: "CODE", winBackOfferID: "winback", billingPlanType: .monthly)
        return Transaction(
            transactionID: "2000000000000042", originalTransactionID: "2000000000000001", productID: "com.example/pro",
            productType: .autoRenewable, payment: payment, state: .purchased,
            purchaseDate: Date(timeIntervalSinceReferenceDate: 786_000_123.456),
            originalPurchaseDate: Date(timeIntervalSinceReferenceDate: 700_000_000),
            expiresDate: Date(timeIntervalSinceReferenceDate: 788_592_123.5),
            revocationDate: Date(timeIntervalSinceReferenceDate: 786_100_000), revocationReason: 1,
            webOrderLineItemID: "2000000000000050", price: Decimal(string: "12.990"), currencyCode: "USD",
            storefront: "USA", signedTransaction: String(repeating: "eyJhbGciOiJFUzI1NiJ9.", count: 40) + "sig",
            error: .systemError("disk \"full\"\n"), subscriptionGroupID: "21345678", isUpgraded: true,
            offerType: .promotional, offerID: "promo", ownershipType: .familyShared, billingPlanType: .monthly,
            commitmentInfo: Transaction.CommitmentInfo(
                billingPeriodNumber: 2, totalBillingPeriods: 12, price: Decimal(string: "119.88")!,
                expirationDate: Date(timeIntervalSinceReferenceDate: 800_000_000)))
    }

    @Test func transactionsAndPaymentsAreWrittenAsTheirOwnEncodingWritesThem() throws {
        let full = Self.everyMemberSet()
        let bare = Transaction(
            transactionID: "1", productID: "coins", productType: .consumable, payment: Payment(productID: "coins"),
            state: .purchasing, purchaseDate: Date(timeIntervalSinceReferenceDate: 0))
        for transaction in [full, bare] {
            let streamed = try StreamingJSONEncoder().encode(transaction)
            #expect(streamed == (try StreamingJSONEncoder().encode(Synthesized(value: transaction))))
            #expect(try sameJSON(streamed, JSONEncoder().encode(transaction)))
            #expect(try JSONDecoder().decode(Transaction.self, from: Data(streamed)) == transaction)
            let payment = transaction.payment
            #expect(
                try StreamingJSONEncoder().encode(payment)
                    == (try StreamingJSONEncoder().encode(Synthesized(value: payment))))
        }
        // Inside another value too, where the shortcut is taken for a member.
        let entries = ["a": full]
        #expect(try sameJSON(StreamingJSONEncoder().encode(entries), JSONEncoder().encode(entries)))
        // A member added to either type must be written by `JSONStream`'s shortcut as well.
        #expect(Mirror(reflecting: full).children.count == 24, "Transaction's members changed: see JSONStream.write")
        #expect(
            Mirror(reflecting: full.payment).children.count == 11, "Payment's members changed: see JSONStream.write")
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
