import LocalAppStore
import StoreCore
import StorefrontUI
import TestSupport
import Testing

@testable import storefront

/// The storefront's messages are its own (issue 17): a Transaction Manager command that fails
/// says so in the window's words, not the CLI's (which name commands to type, and were cut
/// mid-command in the status line).
@Suite(.waitsOnProcesses) struct TUIMessageTests {
    @Test func anUnknownSubscriptionIsTheStorefrontsMessageNotTheCLIs() {
        let cli = RecordedChanges.subscriptionMessage(.unknownTransaction("22"), id: "22")
        #expect(cli.contains("`storefront store subscriptions`"), "the CLI's own text names a command")
        let error = SessionStore.subscriptionError(.unknownTransaction("22"), id: "22")
        var state = State()
        _ = reduce(state: &state, action: .transactionManager(.subscriptionCommandFinished(.renew, .failure(error))))
        let text = state.message?.text ?? ""
        #expect(text == "Error: No transaction 22 is known.")
        #expect(!text.contains("storefront store"))
    }
}
