import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// The store's receipt helpers over a real LocalAppStore: buy, finish, write the receipt,
/// verify it with the engine's verifier against the exported root.
@Suite struct LocalAppStoreReceiptTests {
    @Test func receiptAfterPurchasesVerifiesForEachTransaction() async throws {
        let rig = try EngineRig()
        let store = try rig.store()
        var events = EventReader(await store.events())
        let coins = try await buy(store, &events, TestCatalog.coins)
        let pro = try await buy(store, &events, TestCatalog.pro)
        try await store.finish(transactionID: pro.transactionID)
        rig.clock.advance(by: 60)

        let data = try await store.receipts.writeAppReceipt()
        #expect(store.receipts.storedAppReceipt() == data)
        let device = try store.receipts.deviceIdentifier()
        #expect(try store.receipts.deviceIdentifier() == device)
        let verifier = try AppReceiptVerifier(
            configuration: .init(
                trustedRoots: [try Data(contentsOf: store.receipts.rootCertificateURL)],
                bundleID: store.configuration.bundleID,
                appVersion: store.configuration.appVersion,
                deviceIdentifier: withUnsafeBytes(of: device.uuid) { Array($0) }))
        #expect(await verifier.verify(coins, receipt: data) == .valid)
        #expect(await verifier.verify(pro, receipt: data) == .valid)
        guard case .valid(let receipt, _) = verifier.check(data, transactionID: coins.transactionID) else {
            Issue.record("invalid")
            return
        }
        #expect(receipt.creationDate == rig.clock.now)

        // Once the consumable is finished, the next receipt drops it.
        try await store.finish(transactionID: coins.transactionID)
        let next = try await store.receipts.writeAppReceipt()
        guard case .invalid(.transactionNotInReceipt) = verifier.check(next, transactionID: coins.transactionID) else {
            Issue.record("a finished consumable must drop out")
            return
        }
        #expect(await verifier.verify(pro, receipt: next) == .valid)
    }
}
