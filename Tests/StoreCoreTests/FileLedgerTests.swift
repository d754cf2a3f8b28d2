import Foundation
import TestSupport
import Testing

@testable import StoreCore

@Suite struct FileLedgerTests {
    let dir: TemporaryDirectory
    var path: String { dir.path("ledger.jsonl") }
    init() throws { dir = try TemporaryDirectory() }

    func coins(_ id: String, quantity: Int = 1) -> Transaction {
        Transaction(
            transactionID: id, productID: "coins", productType: .consumable,
            payment: Payment(productID: "coins", quantity: quantity), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1))
    }

    @Test func recordIsIdempotentByTransactionID() throws {
        let ledger = try FileLedger(path: path)
        #expect(try ledger.record(coins("1", quantity: 5)))
        #expect(try ledger.record(coins("1", quantity: 5)) == false)
        #expect(try ledger.balance(of: "coins") == 5)
        #expect(try FileLedger(path: path).transactions().map(\.transactionID) == ["1"])
    }

    @Test func consumeRefusesMoreThanTheBalance() throws {
        let ledger = try FileLedger(path: path)
        _ = try ledger.record(coins("1", quantity: 2))
        #expect(try ledger.consume(productID: "coins", quantity: 1) == 1)
        #expect(throws: LedgerError.insufficientBalance(productID: "coins", balance: 1, requested: 2)) {
            try ledger.consume(productID: "coins", quantity: 2)
        }
        #expect(try FileLedger(path: path).balance(of: "coins") == 1)
    }

    @Test func twoHandlesOnOneFileSeeEachOthersWrites() throws {
        let a = try FileLedger(path: path)
        let b = try FileLedger(path: path)
        _ = try a.record(coins("1"))
        #expect(try b.record(coins("1")) == false, "b catches up before deciding")
        _ = try b.record(coins("2"))
        _ = try a.consume(productID: "coins", quantity: 2)
        #expect(try b.balance(of: "coins") == 0)
        #expect(try a.transactions().count == 2)
    }

    @Test func aTornLastLineIsIgnoredThenCutByTheNextWriter() throws {
        _ = try FileLedger(path: path).record(coins("1"))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        handle.seekToEndOfFile()
        handle.write(Data(#"{"record":{"_0":{"transactionID":"2""#.utf8))
        try handle.close()

        let reopened = try FileLedger(path: path)
        #expect(try reopened.transactions().map(\.transactionID) == ["1"])
        #expect(try reopened.record(coins("3")))
        #expect(try FileLedger(path: path).transactions().map(\.transactionID) == ["1", "3"])
    }

    @Test func aDamagedCompleteLineIsACorruptionErrorNamingTheFile() throws {
        try Data("not json\n".utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try FileLedger(path: path)
        } throws: { error in
            guard case LedgerError.corrupt(let p, _) = error else { return false }
            return p == path
        }
    }

    @Test func unverifiedOrdersAreKeptUntilRemoved() throws {
        let ledger = try FileLedger(path: path)
        let order = UnverifiedOrder(transaction: coins("5"), receipt: Data([1, 2]), lastFailure: "down", attempts: 1)
        try ledger.saveUnverifiedOrder(order)
        #expect(try FileLedger(path: path).unverifiedOrders() == [order])
        try ledger.removeUnverifiedOrder(transactionID: "5")
        #expect(try FileLedger(path: path).unverifiedOrders().isEmpty)
    }
}

@Suite struct TransactionCodingTests {
    @Test func aTransactionWrittenBeforeTheSubscriptionFieldsStillDecodes() throws {
        let old =
            #"{"transactionID":"7","productID":"coins","productType":"consumable","payment":{"productID":"coins","quantity":1,"orderData":{},"requestID":"r"},"state":"purchased","purchaseDate":0}"#
        let t = try JSONDecoder().decode(Transaction.self, from: Data(old.utf8))
        #expect(t.isUpgraded == false)
        #expect(t.originalTransactionID == "7")
        #expect(t.originalPurchaseDate == t.purchaseDate)
        let again = try JSONDecoder().decode(Transaction.self, from: JSONEncoder().encode(t))
        #expect(again == t)
    }
}
