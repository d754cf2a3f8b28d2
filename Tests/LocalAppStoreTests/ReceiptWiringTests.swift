import Foundation
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

/// The local store's receipts and signed transactions, checked by the engine's own verifiers
/// against the root the store exports.
@Suite(.timeLimit(.minutes(10)))
struct ReceiptWiringTests {
    let directory: TemporaryDirectory
    let clock = ManualClock(start: Date())

    init() throws { directory = try TemporaryDirectory() }

    @Test func purchasesCarryVerifiableSignedTransactionsAndTheReceiptListsThem() async throws {
        let backend = try makeStore(directory, clock: clock)
        _ = try await backend.receipts.receiptIssuer()  // makes the chain and exports the root on first use
        let root = try Data(contentsOf: backend.receipts.rootCertificateURL)
        let jws = try SignedTransactionVerifier(
            configuration: .init(
                trustedRoots: [root], bundleID: backend.configuration.bundleID, environments: [.sandbox]))
        let device = try backend.receipts.deviceIdentifier()
        let receiptVerifier = try AppReceiptVerifier(
            configuration: .init(
                trustedRoots: [root], bundleID: backend.configuration.bundleID,
                appVersion: backend.configuration.appVersion,
                deviceIdentifier: withUnsafeBytes(of: device.uuid) { Array($0) }))

        // The engine verifies every purchase against the receipt before delivering it.
        let store = Store(
            backend: backend, ledger: try FileLedger(path: directory.url.appendingPathComponent("ledger.jsonl").path),
            configuration: StoreConfiguration(
                verifier: receiptVerifier, notificationCenter: NotificationCenter(), clock: clock))
        await store.start()
        let bought = await store.purchase(TestCatalog.pro)
        let transaction = try #require(bought.transaction)
        #expect(bought.state == "purchased", "\(bought)")
        #expect(await jws.verify(transaction, receipt: nil) == .valid)

        let receipt = try #require(await backend.appReceipt())
        #expect(await receiptVerifier.verify(transaction, receipt: receipt) == .valid)
        #expect(try Data(contentsOf: backend.receipts.receiptFileURL) == receipt, "written into the state directory")

        // Another transaction's ID is not in the receipt: verification says so.
        let forged = StoreCore.Transaction(
            transactionID: "999", productID: transaction.productID, productType: transaction.productType,
            payment: transaction.payment, state: .purchased, purchaseDate: transaction.purchaseDate)
        guard case .invalid = await receiptVerifier.verify(forged, receipt: receipt) else {
            Issue.record("a transaction missing from the receipt verified")
            return
        }

        // A refund shows in the next receipt as a cancellation.
        try await backend.transactionManager.refund(transactionID: transaction.transactionID)
        let refreshed = try await store.refreshReceipt()
        guard case .invalid = await receiptVerifier.verify(transaction, receipt: refreshed) else {
            Issue.record("a refunded purchase still verified")
            return
        }
    }
}
