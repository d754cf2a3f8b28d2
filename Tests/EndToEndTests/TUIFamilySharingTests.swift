import Foundation
import TestSupport
import Testing

/// Family Sharing in a real terminal (tmux runs the built storefront): the organizer buys in the
/// storefront, another storefront switches to Bob's account from the menu and shows the purchase
/// "Shared by" its purchaser in My Purchases, and when the purchaser stops sharing from the
/// Transaction Manager Bob's open storefront shows the sharing ended; the CLI says what each
/// app then holds.
@Suite(.waitsOnProcesses) struct TUIFamilySharingTests {
    static let removeAds = "com.storefront.demo.removeads"

    @Test func aPurchaseSharedThenRevoked() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        #expect(try storefront.run(["store", "family", "add", "bob", "--name", "Bob"]).status == 0)

        // The organizer buys in the storefront.
        let organizer = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        defer { organizer.close() }
        try await organizer.waitFor(text: "Account: Local Tester")
        try await TUIEndToEndTests.buy(organizer, "Remove Ads")
        try await organizer.waitFor(text: "Owned")
        try organizer.keys("Escape", "Escape")

        // Another storefront on the data directory switches to Bob's account from the menu: it
        // opens again on his account, which has the purchase, shared.
        let member = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        defer { member.close() }
        try await member.waitFor(text: "Account: Local Tester")
        try await member.press("A", literal: true, until: "Bob")
        try member.keys("Down")
        try await member.press("Enter", until: "Account: Bob")
        try await member.press("p", until: "Shared by Local Tester")

        // The organizer stops sharing from the Transaction Manager: Bob's open storefront shows it.
        try await organizer.press("t", until: "S Stop sharing")
        try await organizer.press("S", literal: true, until: "with the family")
        try await member.waitFor(text: "Sharing ended")
        try await member.quit(closing: 1)
        try await organizer.quit(closing: 1)

        // The CLI, signed in to Bob as the data directory now is, says what each app holds.
        let entitlements = try #require(try storefront.object(["entitlements"])["entitlements"] as? [[String: Any]])
        #expect(entitlements.isEmpty, "Bob's app no longer has it: \(entitlements)")
        let bobs = try #require(try storefront.object(["history"])["transactions"] as? [[String: Any]])
        #expect(bobs.count == 1 && bobs.first?["ownershipType"] as? String == "FAMILY_SHARED", "\(bobs)")
        #expect(bobs.first?["revocationReason"] as? Int == 0, "\(bobs)")
        let own = try #require(
            try storefront.object(["entitlements", "--account", "local-tester"])["entitlements"] as? [[String: Any]])
        #expect(own.compactMap { $0["productID"] as? String } == [Self.removeAds], "the purchaser keeps it")
    }
}
