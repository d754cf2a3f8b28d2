import Foundation
import TestSupport
import Testing

@testable import StoreCore

/// What an app shows of an error (`error.localizedDescription`) is the error's own message,
/// which names a file once.
@Suite struct ErrorMessageTests {
    @Test func localizedDescriptionIsTheStoreErrorsMessage() {
        let error: any Error = StoreError.paymentNotAllowed
        #expect(error.localizedDescription == "Payments are not allowed on this device or account.")
        let failed: any Error = StoreError.productNotAvailable(productID: "com.example.pro")
        #expect(failed.localizedDescription == "The product com.example.pro is not available in this storefront.")
    }

    @Test func aLedgerErrorNamesTheVaultOnceAndIsItsLocalizedDescription() throws {
        let directory = try TemporaryDirectory()
        let data = directory.url.appendingPathComponent("data")
        _ = try VaultLedger.open(inDataDirectory: data, environment: ["STOREFRONT_PASSPHRASE": "correct horse"])
        // Locked with a passphrase, opened with the key file: the vault's message names its path.
        let error = try #require(
            #expect(throws: LedgerError.self) { try VaultLedger.open(inDataDirectory: data, environment: [:]) })
        let path = data.appendingPathComponent("vault.sfv").path
        #expect(error.description.components(separatedBy: path).count == 2, "the path once: \(error)")
        #expect((error as any Error).localizedDescription == error.description)
        let corrupt = LedgerError.corrupt(path: "/d/ledger.jsonl", reason: "unreadable entry at byte 7")
        #expect(corrupt.description == "/d/ledger.jsonl: the purchase ledger is damaged: unreadable entry at byte 7")
    }
}
