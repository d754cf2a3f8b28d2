import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The journal's `storekit` records (used nonces, offer codes, refund requests) survive
/// compaction: a nonce stays spent, a code redeemed, a request decided.
@Suite struct StoreKitRecordCompactionTests {
    @Test func storeKitRecordsSurviveCompactionInTheirLastVersion() throws {
        let dir = try TemporaryDirectory()
        let journal = try JournalHistoryTests.open(dir, slack: 8)
        let nonce = UsedOfferNonce(
            keyID: "KEY", nonce: "0b8e0c1e-0000-4000-8000-000000000001", timestamp: 1, transactionID: "7")
        var code = OfferCode(
            code: "ABCDEFGHJKLM", productID: "p", offerID: "o", issuedAt: Date(timeIntervalSince1970: 0))
        var request = RefundRequest(
            id: "r1", transactionID: "7", originalTransactionID: "7", productID: "p", accountID: "a",
            requestedAt: Date(timeIntervalSince1970: 0))
        _ = try journal.transact { _ throws(LocalAppStoreError) in
            (
                [
                    StoreKitRecord(usedNonce: nonce), StoreKitRecord(offerCode: code),
                    StoreKitRecord(refundRequest: request),
                ].map(JournalRecord.make), ()
            )
        }
        code.redeemedAt = Date(timeIntervalSince1970: 5)
        request.status = .declined
        _ = try journal.transact { _ throws(LocalAppStoreError) in
            ([StoreKitRecord(offerCode: code), StoreKitRecord(refundRequest: request)].map(JournalRecord.make), ())
        }
        // Enough purchases to compact several times.
        _ = try JournalHistoryTests.purchase(journal, count: 60, finished: { _ in true })
        let reopened = try JournalHistoryTests.open(dir, slack: 8)
        let records = reopened.state.storeKit
        #expect(records.usedNonces[StoreKitRecords.nonceKey(keyID: "KEY", nonce: nonce.nonce)] == nonce)
        #expect(records.orderedOfferCodes == [code])
        #expect(records.orderedRefundRequests == [request])
        #expect(
            try String(contentsOf: dir.journal, encoding: .utf8).split(separator: "\n").count < 30, "it was compacted")
    }
}
