import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

@Suite struct ReducerPurchaseTests {
    @Test func enterConfirmsThenBuys() {
        var state = Fixtures.loaded()
        #expect(send(&state, .key(.enter)) == [])
        #expect(
            state.modal == .confirm && state.buySheet.confirmation == BuySheetFeature.Confirmation(productID: coins))
        #expect(send(&state, .key(.enter)) == [.purchase(productID: coins, quantity: 1)])
        #expect(state.modal == .purchase && state.buySheet.watching == coins)
        #expect(state.buySheet.flows[coins]?.phase == .contacting)
        #expect(state.tickInterval == 100)
    }

    @Test func escapeCancelsTheConfirmation() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter))
        #expect(send(&state, .key(.escape)) == [])
        #expect(state.modal == nil)
        #expect(state.buySheet.flows.isEmpty)
    }

    @Test func phasesOnlyMoveForwardAndSuccessShowsAMessage() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(&state, .buySheet(.phase(productID: coins, .verifying)), .buySheet(.phase(productID: coins, .authorizing)))
        #expect(state.buySheet.flows[coins]?.phase == .verifying)
        let effects = send(
            &state, .buySheet(.finished(productID: coins, .success(.purchased(transactionID: "1000001")))))
        #expect(effects == [.loadPurchases])
        // Done: the sheet shows every step ticked until it closes (PurchaseProgressTests).
        #expect(state.modal == .purchase && state.buySheet.watching == coins)
        #expect(state.buySheet.flows[coins]?.phase == .done)
        #expect(state.message == StatusMessage("Purchased 100 Coins", kind: .success, shownAt: Fixtures.start))
        #expect(state.eventLog.entries.last?.text == "Purchased 100 Coins")
    }

    @Test func askToBuyShowsWaitingForApproval() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(&state, .buySheet(.finished(productID: coins, .success(.pending))))
        #expect(state.message?.text == "100 Coins is waiting for approval (Ask to Buy)")
        var deferred = Fixtures.transaction("1000002", coins, .consumable, state: .deferred)
        deferred.error = nil
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(pending: [deferred]))))
        #expect(render(state).lines.contains { $0.contains("100 Coins") && $0.contains("Waiting for approval") })
    }

    /// QA: a decline made elsewhere (`store decline ID`) only took the "Waiting for approval"
    /// label away; it is news, as an approval is.
    @Test func anAskToBuyDeclinedElsewhereIsAnnounced() {
        var state = Fixtures.loaded()
        var deferred = Fixtures.transaction("1000002", coins, .consumable, state: .deferred)
        deferred.error = nil
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(pending: [deferred]))))
        var declined = deferred
        declined.state = .failed
        declined.error = .paymentCancelled
        send(&state, .storeEvent(.paymentFailed(declined, .paymentCancelled)))
        #expect(state.message?.text == "Ask to Buy: 100 Coins was declined")
        #expect(state.eventLog.entries.contains { $0.text.contains("1000002") && $0.text.contains("declined") })
        #expect(!state.eventLog.entries.contains { $0.text.contains("The payment was cancelled") })
    }

    @Test func failureIsANonBlockingError() {
        var state = Fixtures.loaded()
        send(&state, .key(.enter), .key(.enter))
        send(&state, .buySheet(.finished(productID: coins, .failure(.paymentNotAllowed))))
        #expect(state.modal == nil)
        #expect(state.message?.kind == .error)
        #expect(
            state.message?.text == "Purchase of 100 Coins failed: Payments are not allowed on this device or account.")
        // The list still takes keys.
        send(&state, .key(.down))
        #expect(state.catalog.selectedProduct?.id == "com.storefront.demo.coins.500")
    }

    @Test func ownedNonConsumableIsNotBoughtAgain() {
        var state = Fixtures.loaded()
        send(&state, .purchasesLoaded(.success(PurchasesSnapshot(owned: [pro]))))
        send(&state, .key(.down), .key(.down), .key(.down))
        #expect(state.catalog.selectedProduct?.id == pro)
        send(&state, .key(.enter))
        #expect(state.modal == nil)
        #expect(state.message?.text.contains("already own") == true)
    }

    @Test func purchaseWithContentShowsTheDownloadingStep() {
        var state = Fixtures.loaded()
        send(&state, .key(.down), .key(.down))
        send(&state, .key(.enter), .key(.enter))
        #expect(state.buySheet.flows[forest]?.phases.contains(.downloading) == true)
        let download = Download(
            id: "7", transactionID: "7", productID: forest, contentVersion: "1", state: .active,
            bytesWritten: 50, totalBytes: 100)
        send(&state, .storeEvent(.downloadUpdated(download)))
        #expect(state.buySheet.flows[forest]?.phase == .downloading)
        #expect(state.downloads.items.count == 1)
    }

    @Test func messagesFadeOnTheInjectedClock() {
        var state = Fixtures.loaded()
        send(&state, .buySheet(.finished(productID: coins, .success(.cancelled))))
        #expect(state.message != nil)
        send(&state, .tick(Fixtures.start.addingTimeInterval(1)))
        #expect(state.message != nil)
        send(&state, .tick(Fixtures.start.addingTimeInterval(5)))
        #expect(state.message == nil)
        #expect(state.tickInterval == nil)
    }
}

@Suite struct ReducerDownloadTests {
    private func withDownload(_ phase: DownloadState) -> State {
        var state = Fixtures.loaded()
        let download = Download(
            id: "9", transactionID: "9", productID: forest, contentVersion: "1", state: phase,
            bytesWritten: 10, totalBytes: 100, bytesPerSecond: 5)
        send(&state, .storeEvent(.downloadUpdated(download)))
        return state
    }

    @Test func spacePausesAndResumesAndXCancels() {
        var active = withDownload(.active)
        #expect(send(&active, .key(.character(" "))) == [.pauseDownload(id: "9")])
        #expect(send(&active, .key(.character("x"))) == [])
        #expect(send(&active, .key(.character("y"))) == [.cancelDownload(id: "9")])
        var paused = withDownload(.paused)
        #expect(send(&paused, .key(.character(" "))) == [.resumeDownload(id: "9")])
    }

    @Test func downloadRowShowsPercentBytesRateAndTimeLeft() {
        let state = withDownload(.active)
        let text = render(state).lines.joined(separator: "\n")
        #expect(text.contains("10%"))
        #expect(text.contains("10 B/100 B"))
        #expect(text.contains("5 B/s"))
        #expect(text.contains("18s left"))
    }

    @Test func finishedDownloadLeavesThePaneAndSaysSo() {
        var state = withDownload(.active)
        let done = Download(
            id: "9", transactionID: "9", productID: forest, contentVersion: "1", state: .finished,
            bytesWritten: 100, totalBytes: 100)
        #expect(send(&state, .storeEvent(.downloadFinished(done))) == [.loadPurchases])
        #expect(!Layout(state: state).downloads.isEmpty, "its last frame, at 100 %, stays a moment")
        send(&state, .tick(Fixtures.start.addingTimeInterval(State.settledLifetime + 1)))
        #expect(Layout(state: state).downloads.isEmpty)
        #expect(state.message?.text == "Download of Forest Level Pack finished")
    }
}
