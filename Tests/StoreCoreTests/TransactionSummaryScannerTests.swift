import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// `TransactionSummaryScanner`: the summary a listing reads from a ledger's JSON is the one
/// `JSONDecoder` gives, the scan takes what the ledger writes, and anything outside its plain
/// subset goes to `JSONDecoder`, with its answer or its error.
@Suite struct TransactionSummaryScannerTests {
    static let start = Date(timeIntervalSince1970: 1_790_000_000.123_456)

    /// Transactions of every shape the ledger keeps.
    static var transactions: [Transaction] {
        let renewal = Transaction(
            transactionID: "2000000000000042", originalTransactionID: "2000000000000007",
            productID: "com.storefront.demo.premium.basic.monthly", productType: .autoRenewable,
            payment: Payment(
                productID: "com.storefront.demo.premium.basic.monthly", applicationUsername: "user/1",
                orderData: ["k": "v \"quoted\""]),
            state: .purchased, purchaseDate: start.addingTimeInterval(30.5), expiresDate: start.addingTimeInterval(330),
            webOrderLineItemID: "1000071", price: Decimal(string: "4.99"), currencyCode: "USD", storefront: "USA",
            signedTransaction: "eyJhbGciOiJFUzI1NiJ9." + String(repeating: "QUJDREVGR0hJSktMTU5PUA-_", count: 150)
                + ".c2ln",
            subscriptionGroupID: "49EF0713", offerType: .introductory, offerID: "intro/1")
        var refunded = Transaction(
            transactionID: "2000000000000043", productID: "com.storefront.demo.coins.100", productType: .consumable,
            payment: Payment(productID: "com.storefront.demo.coins.100", quantity: 7), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 0), price: Decimal(string: "0.99"))
        refunded.revocationDate = start.addingTimeInterval(86_400.75)
        refunded.revocationReason = 1
        let failed = Transaction(
            transactionID: "f-1", productID: "com.storefront.demo.removeads", productType: .nonConsumable,
            payment: Payment(productID: "com.storefront.demo.removeads"), state: .failed, purchaseDate: start,
            error: .paymentInvalid("card\ndeclined"))
        let restored = Transaction(
            transactionID: "r-1", originalTransactionID: "o-1", productID: "com.storefront.demo.lifetime",
            productType: .nonConsumable, payment: Payment(productID: "com.storefront.demo.lifetime"), state: .restored,
            purchaseDate: Date(timeIntervalSinceReferenceDate: -1.5), isUpgraded: true)
        return [renewal, refunded, failed, restored]
    }

    /// A monthly payment of a 12-month commitment: its place in it is left to `JSONDecoder`,
    /// and the summary carries it.
    @Test func aPaymentOfACommitmentIsDecodedWithItsPlaceInIt() throws {
        let commitment = Transaction.CommitmentInfo(
            billingPeriodNumber: 3, totalBillingPeriods: 12, price: Decimal(string: "95.88")!,
            expirationDate: Self.start.addingTimeInterval(31_536_000.5))
        let payment = Transaction(
            transactionID: "2000000000000044", originalTransactionID: "2000000000000040",
            productID: "com.storefront.demo.premium.pro.yearly", productType: .autoRenewable,
            payment: Payment(productID: "com.storefront.demo.premium.pro.yearly", billingPlanType: .monthly),
            state: .purchased, purchaseDate: Self.start, price: Decimal(string: "7.99"), billingPlanType: .monthly,
            commitmentInfo: commitment)
        let data = try JSONEncoder().encode(payment)
        #expect(Self.scanned(data) == nil)
        let summary = try TransactionSummaryScanner.decode(data, fallback: JSONDecoder())
        #expect(summary.commitmentInfo == commitment)
        #expect(summary == TransactionSummary(payment))
        #expect(try JSONDecoder().decode(Transaction.self, from: data).commitmentInfo == commitment)
    }

    static func decoded(_ data: Data) throws -> TransactionSummary {
        try JSONDecoder().decode(TransactionSummary.self, from: data)
    }

    static func scanned(_ data: Data) -> TransactionSummary? {
        data.withUnsafeBytes { TransactionSummaryScanner.scan($0) }
    }

    @Test func theScanTakesWhatTheLedgerWritesAndReadsWhatJSONDecoderReads() throws {
        for transaction in Self.transactions {
            let data = try JSONEncoder().encode(transaction)
            let scanned = try #require(Self.scanned(data), "\(String(decoding: data, as: UTF8.self))")
            #expect(scanned == (try Self.decoded(data)))
            #expect(scanned == TransactionSummary(transaction))
        }
    }

    /// Outside the plain subset the scan gives up, and `decode` answers as `JSONDecoder` does.
    @Test func outsideThePlainSubsetJSONDecoderAnswers() throws {
        let cases: [String] = [
            #"{"transactionID":"a\u0062","productID":"p","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1}"#,
            #"{"transactionID":"é","productID":"p","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1}"#,
            #"{"transactionID":"a","transactionID":"b","productID":"p","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1}"#,
            #"{"transactionID":"a","originalTransactionID":null,"productID":"p","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1}"#,
            #"{"transactionID":"a","productID":"p","productType":"consumable","payment":{"quantity":1.0},"state":"purchased","purchaseDate":1}"#,
            #"{"transactionID":"a","productID":"p","productType":"consumable","payment":{"quantity":2,"quantity":3},"state":"purchased","purchaseDate":1}"#,
            #"{"transactionID":"a","productID":"p","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1,"note":"\u00e9"}"#,
            #" {"transactionID":"a","productID":"p","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1e400}"#,
        ]
        for text in cases {
            let data = Data(text.utf8)
            #expect(Self.scanned(data) == nil, "\(text)")
            let expected = Result { try Self.decoded(data) }
            let actual = Result { try TransactionSummaryScanner.decode(data, fallback: JSONDecoder()) }
            switch (expected, actual) {
            case (.success(let a), .success(let b)): #expect(a == b, "\(text)")
            case (.failure, .failure): break
            default: Issue.record("JSONDecoder gave \(expected), decode gave \(actual) for \(text)")
            }
        }
    }

    @Test func whatTheScanTakesBesideTheLedgersOwnJSONItReadsAsJSONDecoderDoes() throws {
        let cases: [String] = [
            #"{ "payment" : { "x" : [1, -2.5e-3, true, false, null, {"y": "\"\\\/\b\f\n\r\t"}], "quantity" : 10 } , "state":"x","purchaseDate":-0.0,"productType":"t","productID":"p","transactionID":"t1","revocationDate":12.5 }"#,
            #"{"transactionID":"a","productID":"","productType":"","payment":{"quantity":-3},"state":"","purchaseDate":0,"extra":[]}"#,
        ]
        for text in cases {
            let data = Data(text.utf8)
            let scanned = try #require(Self.scanned(data), "\(text)")
            #expect(scanned == (try Self.decoded(data)), "\(text)")
        }
    }

    /// Damaged JSON: whatever the scan accepts, `JSONDecoder` reads the same; whatever it
    /// refuses, `decode` answers as `JSONDecoder` does (the same summary or an error).
    @Test func damagedJSONIsNeverReadOtherwiseThanJSONDecoderReadsIt() throws {
        var random = SeededGenerator(state: 13)
        var accepted = 0
        for transaction in Self.transactions {
            let original = [UInt8](try JSONEncoder().encode(transaction))
            for _ in 0..<400 {
                var bytes = original
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.remove(at: position)
                default: bytes.insert(Array(#"{}[]",:0e.-"\ "#.utf8)[Int(random.next() % 14)], at: position)
                }
                let data = Data(bytes)
                let expected = Result { try Self.decoded(data) }
                if let scanned = Self.scanned(data) {
                    accepted += 1
                    #expect((try? expected.get()) == scanned, "\(String(decoding: bytes, as: UTF8.self))")
                }
                let actual = Result { try TransactionSummaryScanner.decode(data, fallback: JSONDecoder()) }
                #expect((try? actual.get()) == (try? expected.get()), "\(String(decoding: bytes, as: UTF8.self))")
            }
        }
        #expect(accepted > 100, "the scan took \(accepted) damaged documents that still parse")
    }

    /// A byte that ends the plain run of a skipped string (a control character, one beyond
    /// ASCII, a quote, a backslash) at every position of a long one and of a short one: the
    /// scan's word steps land on it exactly, and it reads what `JSONDecoder` reads.
    @Test func everyByteThatEndsAPlainRunIsFoundWhereverItSits() throws {
        let head =
            #"{"transactionID":"t","productID":"p","productType":"c","payment":{"quantity":1},"state":"s","purchaseDate":1,"signed":""#
        for length in [5, 70] {
            for position in 0..<length {
                for special in [UInt8(0x01), 0x1F, 0x80, 0xC3, 0xFF, 0x22, 0x5C, 0x7F, 0x20] {
                    var body = [UInt8](repeating: UInt8(ascii: "A"), count: length)
                    body[position] = special
                    let data = Data(Array(head.utf8) + body + Array(#""}"#.utf8))
                    let expected = try? Self.decoded(data)
                    if let scanned = Self.scanned(data) {
                        #expect(scanned == expected, "byte \(special) at \(position) of \(length)")
                    } else {
                        #expect(
                            special != 0x7F && special != 0x20,
                            "a printable byte \(special) at \(position) needs no closer look")
                    }
                    let decoded = try? TransactionSummaryScanner.decode(data, fallback: JSONDecoder())
                    #expect(decoded == expected, "byte \(special) at \(position) of \(length)")
                }
            }
        }
    }

    /// Product IDs kept across a listing are reused only for the same bytes, past the number kept too.
    @Test func keptProductIDsAreReusedOnlyForTheSameBytes() throws {
        var strings = TransactionSummaryScanner.Strings()
        for round in 0..<2 {
            for product in 0..<40 {
                let id = "com.storefront.product.\(product)"
                let text =
                    #"{"transactionID":"2000000000000001","originalTransactionID":"2000000000000001","productID":"\#(id)","productType":"consumable","payment":{"quantity":1},"state":"purchased","purchaseDate":1}"#
                let summary = try Data(text.utf8).withUnsafeBytes {
                    try TransactionSummaryScanner.decode($0, fallback: JSONDecoder(), strings: &strings)
                }
                #expect(summary.productID == id, "round \(round)")
                #expect(summary.originalTransactionID == "2000000000000001")
            }
        }
    }
}
