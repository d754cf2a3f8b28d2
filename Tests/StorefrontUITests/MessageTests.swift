import Foundation
import StoreCore
import Testing

@testable import StorefrontUI

/// Long messages can be read (issue 17): the status line wraps, the log pane wraps, the log
/// window scrolls back and shows an entry whole, and an error says its phrase once.
@Suite struct MessageTests {
    static let long =
        "Purchase of 100 Coins failed: The store failed: the local App Store's journal could not be written at /home/someone/.local/share/storefront/store/journal (No space left on device)"

    @Test func aLongMessageWrapsInTheStatusLine() {
        var state = Fixtures.loaded()
        send(
            &state,
            .buySheet(
                .finished(
                    productID: "com.storefront.demo.coins.100",
                    .failure(
                        .systemError(
                            "the local App Store's journal could not be written at /home/someone/.local/share/storefront/store/journal (No space left on device)"
                        )))))
        let screen = render(state)
        let shown = screen.lines.map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
        #expect(shown.contains("(No space left on device)"))
        #expect(shown.contains("Purchase of 100 Coins failed"))
    }

    @Test func theLogPaneWrapsAndTheLogWindowShowsAnEntryWhole() {
        var state = Fixtures.loaded()
        send(
            &state,
            .storeEvent(
                .paymentFailed(
                    Fixtures.transaction("9", "com.storefront.demo.coins.100", .consumable, state: .failed),
                    .systemError("the local App Store's journal could not be written (No space left on device)"))))
        send(&state, .key(.character("l")))
        let pane = render(state).lines.joined(separator: " ")
        #expect(pane.contains("(No space left on device)"))
        // L: the whole log; Enter: the entry whole.
        send(&state, .key(.character("L")))
        #expect(render(state).lines.joined().contains("Event Log ("))
        send(&state, .key(.enter))
        #expect(render(state).lines.joined(separator: " ").contains("(No space left on device)"))
    }

    @Test func theLogKeepsHundredsOfEntriesToScrollBack() {
        var state = Fixtures.loaded()
        for i in 0..<50 { send(&state, .myPurchases(.consumed(productID: coins, .success(i)))) }
        send(&state, .key(.character("L")))
        send(&state, .key(.home))
        #expect(render(state).lines.contains { $0.contains("Used 1 × 100 Coins: 0 left") })
    }

    /// QA: "Restore failed: …" and "restore failed: …" were both logged (the effect's result and
    /// the engine's event say the same); receipt refreshes too. Each outcome is logged once.
    @Test func aRestoreOrReceiptRefreshIsLoggedOnce() {
        var state = Fixtures.loaded()
        let error = StoreError.networkError("connection refused")
        send(&state, .storeEvent(.restoreFailed(error)), .menu(.restoreFinished(.failure(error))))
        send(&state, .storeEvent(.refreshReceiptFailed(error)), .menu(.receiptRefreshed(.failure(error))))
        let restored = [Fixtures.transaction("7", pro, .nonConsumable, state: .restored)]
        send(&state, .storeEvent(.restoreFinished(restored)), .menu(.restoreFinished(.success(restored))))
        send(&state, .storeEvent(.refreshReceiptFinished(Data(count: 3))), .menu(.receiptRefreshed(.success(3))))
        let lines = state.eventLog.entries.map { $0.text.lowercased() }
        #expect(lines.filter { $0.contains("restore") }.count == 2, "\(lines)")
        #expect(lines.filter { $0.contains("receipt") }.count == 2, "\(lines)")
        #expect(
            state.eventLog.entries.first?.text == "Restore failed: The store could not be reached: connection refused")
    }

    @Test func aNetworkErrorSaysItsPhraseOnce() {
        var state = Fixtures.loaded()
        send(&state, .catalog(.productsLoaded(.failure(.networkError("connection refused")))))
        let text = state.message?.text ?? ""
        #expect(text.components(separatedBy: "could not be reached").count == 2, "\(text)")
        #expect(text.contains("connection refused"))
    }
}
