import Foundation
import StoreCore
import Synchronization
import TestSupport
import Testing

@testable import LocalAppStore

/// Every failed purchase is broadcast once — to observers, `NotificationCenter` and `events()` —
/// naming the product the app asked for, whether the engine refused it (an unknown product, a
/// bad quantity), the store refused to queue it (payments off, a used nonce, a spent code) or
/// the store failed it later.
@Suite(.timeLimit(.minutes(10)))
struct FailureBroadcastTests {
    /// The failures one engine broadcast, each as "PRODUCT: ERROR CODE", by way of arrival.
    final class Failures: StoreObserver {
        private let heard = Mutex<(observer: [String], notifications: [String])>(([], []))
        var observer: [String] { heard.withLock { $0.observer } }
        var notifications: [String] { heard.withLock { $0.notifications } }

        func storePaymentTransactionFailed(_ transaction: Transaction, error: StoreError) {
            heard.withLock { $0.observer.append(Self.line(transaction, error)) }
        }

        func noteNotification(_ note: Notification) {
            let code = note.storeTransaction?.payment.offerCode.map { " code \($0)" } ?? ""
            heard.withLock {
                $0.notifications.append("\(note.storeProductID ?? "nil")\(code): \(note.storeError?.code ?? -1)")
            }
        }

        /// "PRODUCT[ code CODE]: ERROR CODE".
        static func line(_ transaction: Transaction, _ error: StoreError) -> String {
            "\(transaction.productID)\(transaction.payment.offerCode.map { " code \($0)" } ?? ""): \(error.code)"
        }
    }

    struct App {
        let backend: LocalAppStore
        let store: Store
        let failures = Failures()
        let events: AsyncStream<StoreEvent>

        /// Every failure the event stream carried, once the engine is stopped.
        func streamed() async -> [String] {
            await store.stop()
            var failed: [String] = []
            for await event in events {
                if case .paymentFailed(let t, let error) = event { failed.append(Failures.line(t, error)) }
            }
            return failed
        }
    }

    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    func launch() async throws -> App {
        let backend = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        let center = NotificationCenter()
        let store = Store(
            backend: backend, ledger: try FileLedger(path: demo.directory.path("ledger.jsonl")),
            configuration: StoreConfiguration(notificationCenter: center, clock: demo.clock))
        let app = App(backend: backend, store: store, events: store.events())
        store.addObserver(app.failures)
        let failures = app.failures
        _ = center.addObserver(forName: .storePaymentTransactionFailed, object: nil, queue: nil) {
            failures.noteNotification($0)
        }
        await store.start()
        return app
    }

    func expectBroadcastOnce(_ app: App, _ expected: [String], sourceLocation: SourceLocation = #_sourceLocation) async
    {
        #expect(app.failures.observer == expected, "observers", sourceLocation: sourceLocation)
        #expect(app.failures.notifications == expected, "notifications", sourceLocation: sourceLocation)
        #expect(await app.streamed() == expected, "events()", sourceLocation: sourceLocation)
    }

    @Test func paymentsTheStoreRefusesToQueueAreBroadcastNamingTheProduct() async throws {
        let app = try await launch()
        try await app.backend.settings.set(name: "payments-allowed", value: "off")
        #expect(await app.store.purchase(DemoCatalog.coins) == .failed(.paymentNotAllowed, nil))
        try await app.backend.settings.set(name: "payments-allowed", value: "on")

        // A used promotional-offer nonce (the account subscribes to Basic, so Pro's offer is open).
        _ = try #require(await app.store.purchase(DemoCatalog.basic).transaction)
        let offer = try app.backend.offers.signPromotionalOffer(
            productID: DemoCatalog.pro, offerID: DemoCatalog.comeback, appAccountToken: nil)
        _ = try #require(
            await app.store.purchase(DemoCatalog.pro, options: PurchaseOptions(promotionalOffer: offer)).transaction)
        let reused = await app.store.purchase(DemoCatalog.pro, options: PurchaseOptions(promotionalOffer: offer))
        #expect(reused.error?.code == 12 && reused.transaction == nil, "\(reused)")

        // A code for new or lapsed subscribers, redeemed by a current one.
        let code = try #require(
            try await app.backend.offers.issueCodes(productID: DemoCatalog.pro, offerID: DemoCatalog.codeOffer).first)
        do throws(OfferCodeRedemptionError) {
            _ = try await app.store.redeem(offerCode: code.code)
            Issue.record("an ineligible customer redeemed a code")
        } catch {
            #expect(error.purchaseResult.error?.code == 18 && error.transaction == nil, "\(error)")
        }

        await expectBroadcastOnce(
            app,
            [
                "\(DemoCatalog.coins): 4", "\(DemoCatalog.pro): 12", "\(DemoCatalog.pro) code \(code.code): 18",
            ])
    }

    @Test func paymentsTheEngineRefusesAreBroadcastNamingTheProduct() async throws {
        let app = try await launch()
        #expect(await app.store.purchase("com.storefront.demo.nothing").error?.code == 5)
        #expect(await app.store.purchase(DemoCatalog.removeAds, quantity: 2).error?.code == 3)
        // A code the store never issued names no product: the broadcast names the code.
        do throws(OfferCodeRedemptionError) {
            _ = try await app.store.redeem(offerCode: "ABCDEFGHJKLM")
        } catch {
            #expect(error.purchaseResult.error?.code == 11)
        }
        await expectBroadcastOnce(
            app,
            [
                "com.storefront.demo.nothing: 5", "\(DemoCatalog.removeAds): 3", " code ABCDEFGHJKLM: 11",
            ])
    }

    @Test func aFailureTheStoreDecidesLaterIsBroadcastOnceToo() async throws {
        let app = try await launch()
        try await app.backend.settings.set(name: "fail-purchases", value: "network")
        let failed = await app.store.purchase(DemoCatalog.coins)
        #expect(failed.state == "failed" && failed.transaction != nil)
        await expectBroadcastOnce(app, ["\(DemoCatalog.coins): 7"])
    }
}

extension PurchaseResult {
    /// The error of a failed purchase.
    var error: StoreError? {
        if case .failed(let error, _) = self { return error }
        return nil
    }
}
