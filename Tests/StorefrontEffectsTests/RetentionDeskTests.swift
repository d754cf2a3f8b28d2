import Foundation
import StoreCore
import StorefrontEffects
import StorefrontUI
import Testing

/// The cancel sheet, from My Purchases' Subscriptions tab, against a fake store: `c` asks what
/// the App Store shows, the sheet lists the choices the answer allows, and each choice is
/// carried out by the store, heard by the engine, and reported; Esc keeps the subscription.
struct RetentionDeskTests {
    typealias F = Fixtures

    static let offer = RetentionPromotionalOffer(
        productID: F.monthly,
        offer: PromotionalOffer(
            offerID: "COMEBACK", keyID: "KEY", nonce: UUID(), signature: Data([1, 2, 3]), timestamp: 1_767_225_600_000),
        appAccountToken: nil)

    /// What the App Store shows: the endpoint's message with a promotional offer.
    static let sheet = RetentionSheet(
        requestIdentifier: UUID(), originalTransactionID: "1000", productID: F.monthly, shown: .promotionalOffer,
        message: RetentionSheet.Message(
            header: "Stay a little longer", body: "Your next month is $1.99.", image: nil, headerAboveImage: false,
            bulletPoints: []),
        alternateProductID: nil, offer: offer, fallbackReason: nil)

    /// My Purchases open on its Subscriptions tab, with one subscription.
    private static func subscribed(_ fake: FakeStore) -> TestStore {
        var state = F.loaded()
        state.purchases = PurchasesSnapshot(activeUntil: [F.monthly: F.start.addingTimeInterval(86_400 * 30)])
        state.modal = .purchases
        state.myPurchases.tab = 2
        return TestStore(state, store: fake)
    }

    /// The store carried out `choice`: the sheet closes on My Purchases with `report`, and the
    /// purchases load again.
    private static func close(
        _ store: TestStore, chose choice: RetentionChoice, _ outcome: Result<String?, StoreError>,
        reporting report: String
    ) async {
        await store.receive(.cancelSheet(.chose(choice, outcome))) {
            $0.cancelSheet.working = nil
            $0.cancelSheet.sheet = nil
            $0.modal = .purchases
            F.report(report, .success, in: &$0)
            $0.animationInterval = 500
        }
        store.exhaustivity = .off
        await store.receive(.purchasesLoaded(.success(PurchasesSnapshot())))
        store.finish()
    }

    private static func ask(_ store: TestStore, showing sheet: RetentionSheet, logging line: String) async {
        await store.send(.key(.character("c"))) {
            $0.modal = .cancelSheet
            $0.cancelSheet.productID = F.monthly
            $0.animationInterval = 100
        }
        #expect(store.effects.contains(.askRetention(productID: F.monthly)))
        await store.receive(.cancelSheet(.asked(.success(sheet)))) {
            $0.cancelSheet.sheet = sheet
            $0.eventLog.entries.append(LogEntry(time: F.start, text: line, isError: false))
            $0.animationInterval = nil
        }
    }

    @Test func theCustomerTakesTheOfferTheAppsServerAnswered() async {
        let fake = FakeStore(FakeStore.Script(retentionSheet: Self.sheet, retentionChoiceTransaction: "1001"))
        let store = Self.subscribed(fake)
        await Self.ask(store, showing: Self.sheet, logging: "Retention message for Monthly: Stay a little longer")
        #expect(Self.sheet.choices == [.takeOffer, .cancelAnyway, .keep])
        await store.send(.key(.enter)) {
            $0.cancelSheet.working = .takeOffer
            $0.animationInterval = 100
        }
        #expect(store.effects.contains(.chooseRetention(.takeOffer, Self.sheet)))
        #expect(fake.calls == ["retentionSheet \(F.monthly)", "chooseRetention offer 1000", "synchronize"])
        await Self.close(store, chose: .takeOffer, .success("1001"), reporting: "Took the offer COMEBACK on Monthly")
    }

    @Test func withNoUsableAnswerTheCustomerCancelsAnywayOrKeepsTheSubscription() async {
        let fallback = RetentionSheet(
            requestIdentifier: UUID(), originalTransactionID: "1000", productID: F.monthly, shown: .none,
            message: nil, alternateProductID: nil, offer: nil,
            fallbackReason: "no realtime URL is configured for Sandbox")
        #expect(fallback.choices == [.cancelAnyway, .keep])
        let fake = FakeStore(FakeStore.Script(retentionSheet: fallback))
        let store = Self.subscribed(fake)
        let line = "Retention message for Monthly: No retention message (no realtime URL is configured for Sandbox)"
        await Self.ask(store, showing: fallback, logging: line)
        // Esc keeps the subscription: nothing is asked of the store.
        await store.send(.key(.escape)) { $0.modal = .purchases }
        #expect(store.effects == [])

        await store.send(.key(.character("c"))) {
            $0.modal = .cancelSheet
            $0.cancelSheet.sheet = nil
            $0.animationInterval = 100
        }
        await store.receive(.cancelSheet(.asked(.success(fallback)))) {
            $0.cancelSheet.sheet = fallback
            $0.eventLog.entries.append(LogEntry(time: F.start, text: line, isError: false))
            $0.animationInterval = nil
        }
        await store.send(.key(.down)) { $0.cancelSheet.selected = 1 }
        await store.send(.key(.up)) { $0.cancelSheet.selected = 0 }
        await store.send(.key(.enter)) {
            $0.cancelSheet.working = .cancelAnyway
            $0.animationInterval = 100
        }
        await Self.close(store, chose: .cancelAnyway, .success(nil), reporting: "Auto-renew is off for Monthly")
        #expect(fake.calls.filter { $0.hasPrefix("chooseRetention") } == ["chooseRetention cancel 1000"])
    }

    @Test func aRefusedAskIsSaidOnTheSheetAndARefusedChoiceLeavesItForAnother() async {
        let refusal = StoreError.systemError(
            "The subscription 1000 does not renew (it ended, or auto-renew is off already).")
        let refusing = Self.subscribed(FakeStore(FakeStore.Script(failing: ["retentionSheet": refusal])))
        await refusing.send(.key(.character("c"))) {
            $0.modal = .cancelSheet
            $0.cancelSheet.productID = F.monthly
            $0.animationInterval = 100
        }
        let said =
            "Error: The store failed: The subscription 1000 does not renew (it ended, or auto-renew is off already)."
        await refusing.receive(.cancelSheet(.asked(.failure(refusal)))) {
            $0.cancelSheet.failure = said
            $0.eventLog.entries.append(LogEntry(time: F.start, text: said, isError: true))
            $0.animationInterval = nil
        }
        await refusing.send(.key(.enter)) { $0.modal = .purchases }
        refusing.finish()

        let declined = StoreError.paymentCancelled
        let fake = FakeStore(FakeStore.Script(retentionSheet: Self.sheet, failing: ["chooseRetention": declined]))
        let store = Self.subscribed(fake)
        await Self.ask(store, showing: Self.sheet, logging: "Retention message for Monthly: Stay a little longer")
        await store.send(.key(.enter)) {
            $0.cancelSheet.working = .takeOffer
            $0.animationInterval = 100
        }
        await store.receive(.cancelSheet(.chose(.takeOffer, .failure(declined)))) {
            $0.cancelSheet.working = nil
            F.report("Error: The payment was cancelled.", .error, in: &$0)
            $0.animationInterval = 500
        }
        #expect(store.state.modal == .cancelSheet)
        store.finish()
    }
}
