import Foundation
import StoreCore
import StoreTesting
import TestSupport
import Testing

@testable import LocalAppStore

@Suite(.timeLimit(.minutes(10))) struct SettingsTests {
    @Test func settingsAreListedInOrderWithValuesAndDescriptions() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir, latency: 0)
        let rows = try await store.settings.all()
        #expect(rows.map(\.name) == LocalStoreSettings.names)
        #expect(
            rows.map(\.value) == [
                "0", "off", "off", "on", "off", "off", "off", "off", "1500000", "off", "real-time", "off", "off",
                "Sandbox", "1000000000", "http://127.0.0.1:8490", "off", "off", "production", "5000", "off", "700",
            ])
        #expect(rows.map(\.shownValue) == rows.map { $0.name == "time-rate" ? "real-time (0)" : $0.value })
        #expect(
            rows.allSatisfy { !$0.help.isEmpty && !$0.label.isEmpty && $0.description.hasPrefix($0.synopsis + ": ") })
    }

    @Test func aNewStoreStartsWithTheCatalogsSettingsAndThePeopleLatencyByDefault() async throws {
        let dir = try TemporaryDirectory()
        let catalog = try TestCatalog.load(
            settings: """
                "_askToBuyEnabled" : true, "_failTransactionsEnabled" : true, "_locale" : "en_US",
                "_storeKitErrors" : [
                  { "current" : { "index" : 2, "type" : "generic" }, "enabled" : true, "name" : "Load Products" },
                  { "current" : null, "enabled" : false, "name" : "Purchase" },
                  { "current" : { "index" : 2, "type" : "purchase" }, "enabled" : true, "name" : "App Store Sync" }
                ]
                """)
        let store = try LocalAppStore(
            configuration: LocalAppStoreConfiguration(
                catalog: catalog, stateDirectory: dir.stateDirectory, clock: ManualClock()))
        let settings = try await store.settings.current()
        #expect(settings.latencyMilliseconds == LocalStoreSettings.defaultLatencyMilliseconds)
        #expect(settings.askToBuy)
        #expect(settings.failPurchases == .unknown)
        #expect(settings.failLoadProducts == .network)
        #expect(settings.failRestore == .notAllowed)
        #expect(settings.failRefreshReceipt == nil)
    }

    @Test func changedSettingsPersistAndWinOverTheCatalogOnTheNextStart() async throws {
        let dir = try TemporaryDirectory()
        do {
            let store = try makeStore(dir)
            try await store.settings.set(name: "latency", value: "250")
            try await store.settings.set(name: "ask-to-buy", value: "on")
            try await store.settings.set(name: "payments-allowed", value: "off")
            try await store.settings.set(name: "fail-restore", value: "system")
            try await store.settings.set(name: "fail-refresh-receipt", value: "on")
        }
        let catalog = try TestCatalog.load(settings: #""_askToBuyEnabled" : false"#)
        let store = try makeStore(dir, catalog: catalog, latency: 0)
        let values = Dictionary(uniqueKeysWithValues: try await store.settings.all().map { ($0.name, $0.value) })
        #expect(values["latency"] == "250")
        #expect(values["ask-to-buy"] == "on")
        #expect(values["payments-allowed"] == "off")
        #expect(values["fail-restore"] == "system")
        #expect(values["fail-refresh-receipt"] == "network")
        #expect(values["fail-purchases"] == "off")
    }

    @Test func anUnknownSettingNamesTheKnownOnes() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        await #expect(throws: LocalAppStoreError.unknownSetting(name: "ask-to-by", known: LocalStoreSettings.names)) {
            try await store.settings.set(name: "ask-to-by", value: "on")
        }
        let message = LocalAppStoreError.unknownSetting(name: "ask-to-by", known: LocalStoreSettings.names).description
        #expect(message.contains("ask-to-by"))
        #expect(message.contains("ask-to-buy"))
    }

    @Test(arguments: [
        ("latency", "fast", "milliseconds"), ("latency", "-5", "milliseconds"), ("ask-to-buy", "maybe", "on or off"),
        ("fail-purchases", "boom", "network"), ("payments-allowed", "", "on or off"),
    ])
    func aBadValueNamesTheSettingAndTheAcceptedValues(name: String, value: String, hint: String) async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        do {
            try await store.settings.set(name: name, value: value)
            Issue.record("\(name)=\(value) was accepted")
        } catch {
            guard case .invalidSettingValue(let badName, let badValue, let accepted) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(badName == name)
            #expect(badValue == value)
            #expect(accepted.contains(hint))
            #expect(error.description.contains(name))
        }
        #expect(try await store.settings.current() == LocalStoreSettings(latencyMilliseconds: 0))
    }

    @Test func paymentsNotAllowedRefusesPayments() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        #expect(await store.canMakePayments())
        try await store.settings.set(name: "payments-allowed", value: "off")
        #expect(await !store.canMakePayments())
        await #expect(throws: StoreError.paymentNotAllowed) {
            try await store.add(Payment(productID: TestCatalog.coins))
        }
        #expect(try await store.transactionManager.history().isEmpty)
    }

    @Test func failPurchasesFailsTheTransactionWithTheChosenError() async throws {
        var shop = try await Shop(settings: [("fail-purchases", "on")])
        let store = shop.store
        let failed = try await shop.buy(TestCatalog.coins)
        #expect(failed.state == .failed)
        #expect(failed.error?.code == StoreError.unknown("").code)
        try await store.settings.set(name: "fail-purchases", value: "not-available")
        let unavailable = try await shop.buy(TestCatalog.coins)
        #expect(unavailable.error == .productNotAvailable(productID: TestCatalog.coins))
        try await store.settings.set(name: "fail-purchases", value: "off")
        #expect(try await shop.buy(TestCatalog.coins).state == .purchased)
        #expect(try await store.transactionManager.charges().count == 1)
    }

    @Test func failLoadProductsRestoreAndRefreshThrowTheChosenErrors() async throws {
        let dir = try TemporaryDirectory()
        let store = try makeStore(dir)
        try await store.settings.set(name: "fail-load-products", value: "network")
        await #expect(throws: StoreError.self) { try await store.products(identifiers: [TestCatalog.coins]) }
        do {
            _ = try await store.products(identifiers: [TestCatalog.coins])
        } catch {
            #expect(error.code == 7)
        }
        try await store.settings.set(name: "fail-load-products", value: "off")
        #expect(try await store.products(identifiers: [TestCatalog.coins]).products.count == 1)

        try await store.settings.set(name: "fail-restore", value: "cancelled")
        await #expect(throws: StoreError.paymentCancelled) {
            try await store.restoreCompletedTransactions(applicationUsername: nil)
        }
        try await store.settings.set(name: "fail-restore", value: "off")
        #expect(try await store.restoreCompletedTransactions(applicationUsername: nil).isEmpty)

        try await store.settings.set(name: "fail-refresh-receipt", value: "client-invalid")
        await #expect(throws: StoreError.clientInvalid) { try await store.refreshReceipt() }
        try await store.settings.set(name: "fail-refresh-receipt", value: "off")
        let receipt = try await store.refreshReceipt()
        #expect(receipt.count > 0, "with the error off, a refresh issues a receipt")
        #expect(await store.appReceipt() != nil, "the store issues a receipt on demand")
    }

    @Test func xcodeErrorChoicesMapToStoreKitLikeErrors() {
        #expect(LocalStoreSettings.simulatedError(for: nil) == .unknown)
        #expect(LocalStoreSettings.simulatedError(for: .null) == .unknown)
        #expect(
            LocalStoreSettings.simulatedError(for: .object(["type": .string("generic"), "index": .number("1")]))
                == .cancelled)
        #expect(
            LocalStoreSettings.simulatedError(for: .object(["type": .string("generic"), "index": .number("3")]))
                == .system)
        #expect(
            LocalStoreSettings.simulatedError(for: .object(["type": .string("purchase"), "index": .number("1")]))
                == .notAvailable)
        #expect(
            LocalStoreSettings.simulatedError(for: .object(["type": .string("purchase"), "index": .number("99")]))
                == .unknown)
        #expect(LocalStoreSettings.simulatedError(for: .string("network")) == .network)
    }

    @Test func settingsWrittenByANewerVersionStillDecode() throws {
        let json = #"{"askToBuy":true,"futureSetting":"x","failPurchases":"offer-expired"}"#
        let settings = try JSONDecoder().decode(LocalStoreSettings.self, from: Data(json.utf8))
        #expect(settings.askToBuy)
        #expect(settings.latencyMilliseconds == LocalStoreSettings.defaultLatencyMilliseconds)
        #expect(settings.failPurchases?.rawValue == "offer-expired")
        #expect(settings.failPurchases?.storeError() == .unknown("simulated by the local store's settings"))
    }
}
