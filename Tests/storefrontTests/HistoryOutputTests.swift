import Foundation
import LocalAppStore
import StoreCore
import TestSupport
import Testing

@testable import storefront

/// `history` and `history --json` print, byte for byte, what they printed before the listing
/// was made to cost what its rows cost (issue 13): the baselines were recorded by the build
/// before it (the vault read item by item, `JSONDecoder`, Foundation's date format), over a
/// ledger seeded with fixed dates.
@Suite struct HistoryOutputTests {
    static let catalog = Repository.root.appendingPathComponent("Catalogs/Demo.storekit").path
    static let now = Date(timeIntervalSince1970: 1_795_000_000.437)

    /// `count` transactions of the Demo catalog's products, as a long-lived account gathers them
    /// (the bench's mix: each non-consumable once, a renewing subscription, consumables), with
    /// dates on whole and fractional seconds; one restored, one refunded after recording.
    static func seed(_ data: URL, count: Int = 300) async throws {
        let nonConsumables = [
            "com.storefront.demo.levelpack.forest", "com.storefront.demo.stickers.cats",
            "com.storefront.demo.removeads",
        ]
        let consumables = [
            "com.storefront.demo.coins.100", "com.storefront.demo.coins.550", "com.storefront.demo.hints.5",
        ]
        let subscription = "com.storefront.demo.premium.basic.monthly"
        var transactions: [StoreCore.Transaction] = []
        var firstRenewal: String?
        for index in 0..<count {
            let date = now.addingTimeInterval(-Double(count - index) * 30.25)
            let id = "seed-\(index)"
            if index < nonConsumables.count {
                transactions.append(
                    StoreCore.Transaction(
                        transactionID: id, productID: nonConsumables[index], productType: .nonConsumable,
                        payment: Payment(productID: nonConsumables[index]), state: index == 1 ? .restored : .purchased,
                        purchaseDate: date, price: Decimal(string: "2.99"), currencyCode: "USD", storefront: "USA"))
            } else if index % 10 == 7 {
                if firstRenewal == nil { firstRenewal = id }
                transactions.append(
                    StoreCore.Transaction(
                        transactionID: id, originalTransactionID: firstRenewal, productID: subscription,
                        productType: .autoRenewable,
                        payment: Payment(productID: subscription), state: .purchased, purchaseDate: date,
                        expiresDate: date.addingTimeInterval(300), webOrderLineItemID: String(1_000_000 + index),
                        price: Decimal(string: "4.99"), currencyCode: "USD", storefront: "USA",
                        subscriptionGroupID: "49EF0713"))
            } else {
                let product = consumables[index % consumables.count]
                transactions.append(
                    StoreCore.Transaction(
                        transactionID: id, productID: product, productType: .consumable,
                        payment: Payment(productID: product, quantity: index % 4 + 1), state: .purchased,
                        purchaseDate: date,
                        price: Decimal(string: "0.99"), currencyCode: "USD", storefront: "USA"))
            }
        }
        let context = CommandContext(
            environment: [:], currentDirectory: data.deletingLastPathComponent().path, output: BufferedOutput())
        let selection = try CatalogSelection.load(
            GlobalOptions(catalog: catalog, dataDirectory: data.path), context: context)
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: selection.catalog,
                stateDirectory: LocalAppStoreConfiguration.stateDirectory(inDataDirectory: data),
                initialLatencyMilliseconds: 0
            ).syncing(false))
        let imported = try await store.transactionManager.importHistory(transactions)
        let ledger = try VaultLedger.open(inDataDirectory: data, environment: [:])
        try ledger.recordAll(imported)
        var refunded = imported[40]
        refunded.revocationDate = now.addingTimeInterval(-60)
        refunded.revocationReason = 0
        try ledger.update(refunded)
    }

    static func run(_ arguments: [String], data: URL) async -> (status: Int32, output: BufferedOutput) {
        let output = BufferedOutput()
        let status = await StorefrontCLI().run(
            ["--catalog", catalog, "--data-dir", data.path] + arguments,
            context: CommandContext(
                environment: [:], currentDirectory: data.deletingLastPathComponent().path, output: output))
        return (status, output)
    }

    @Test func historyAndItsJSONPrintWhatTheyPrintedBefore() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-history-output")
        let data = scratch.url("data")
        try await Self.seed(data)
        let table = await Self.run(["history"], data: data)
        #expect(table.status == 0, "\(table.output.standardError)")
        #expect(table.output.standardOutput.contains("refunded"))
        #expect(table.output.standardOutput.contains("restored"))
        try Snapshot.check(table.output.standardOutput, named: "history-table")
        let json = await Self.run(["history", "--json"], data: data)
        #expect(json.status == 0, "\(json.output.standardError)")
        try Snapshot.check(json.output.standardOutput, named: "history-json")
    }

    /// Past 1,024 records the vault has an index, and a listing reads the records it names in
    /// file order: the same bytes again (their FNV-1a digests, recorded from the build before).
    @Test func aLedgerWithAnIndexPrintsWhatItPrintedBefore() async throws {
        let scratch = try TemporaryDirectory(prefix: "sf-history-indexed")
        let data = scratch.url("data")
        try await Self.seed(data, count: 1_100)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("vault.sfv.idx").path))
        let table = await Self.run(["history"], data: data)
        #expect(table.status == 0, "\(table.output.standardError)")
        #expect(table.output.standardOutput.utf8.count == Self.tableBytes)
        #expect(Self.fnv1a(table.output.standardOutput) == Self.tableDigest)
        let json = await Self.run(["history", "--json"], data: data)
        #expect(json.status == 0, "\(json.output.standardError)")
        #expect(json.output.standardOutput.utf8.count == Self.jsonBytes)
        #expect(Self.fnv1a(json.output.standardOutput) == Self.jsonDigest)
    }

    // Recorded from `storefront history` over this seed (the JSON since transactions carry `ownershipType`).
    static let tableBytes = 162_256
    static let tableDigest: UInt64 = 13_203_728_809_657_164_347
    static let jsonBytes = 492_422
    static let jsonDigest: UInt64 = 5_047_505_885_006_911_643

    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }
}
