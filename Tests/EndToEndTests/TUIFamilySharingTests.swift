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

    /// A storefront on the data directory that switches to Bob's account from the menu (it opens
    /// again on his account) and shows My Purchases, with the purchase shared by Local Tester.
    static func openAsBob(_ storefront: StorefrontCLI) async throws -> TUITmux {
        let member = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        do {
            try await member.waitFor(text: "Account: Local Tester")
            try await member.press("A", literal: true, until: "Bob")
            try member.keys("Down")
            try await member.press("Enter", until: "Account: Bob")
            try await member.press("p", until: "Shared by Local Tester")
        } catch {
            member.close()
            throw error
        }
        return member
    }

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
        let member = try await Self.openAsBob(storefront)
        defer { member.close() }

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

    /// The organizer removes Bob from the family in the Transaction Manager (F, r, y): Bob's open
    /// storefront shows his share ended, the family lists him no more, and the CLI says so.
    @Test func aMemberRemovedFromTheTransactionManager() async throws {
        let storefront = try TUIEndToEndTests.freshStorefront()
        #expect(try storefront.run(["store", "family", "add", "bob", "--name", "Bob"]).status == 0)
        #expect(try storefront.run(["buy", Self.removeAds]).status == 0)

        // The organizer's storefront opens first: the member's then signs the data directory in to Bob.
        let organizer = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        defer { organizer.close() }
        try await organizer.waitFor(text: "Account: Local Tester")
        let member = try await Self.openAsBob(storefront)
        defer { member.close() }

        try await organizer.press("t", until: "Transaction Manager")
        // The accounts loaded (the signed-in one selected), Bob's row is the next.
        try await organizer.press("F", literal: true, until: "Member")
        try organizer.keys("Down")
        try await organizer.press("r", until: "Remove Bob from the family?")
        try await organizer.press("y", until: "Bob left the family")
        try await organizer.waitFor("Bob's row without a place in the family") { screen in
            screen.split(separator: "\n").contains {
                $0.contains("Bob") && $0.contains("bob") && !$0.contains("Member")
            }
        }
        try await member.waitFor(text: "Sharing ended")
        try await member.quit(closing: 1)
        try await organizer.quit(closing: 1)

        let family = try storefront.object(["store", "family", "--account", "local-tester"])
        #expect((family["members"] as? [String])?.isEmpty == true, "\(family)")
        let bobs = try #require(
            try storefront.object(["history", "--account", "bob"])["transactions"] as? [[String: Any]])
        #expect(bobs.count == 1 && bobs.first?["revocationReason"] as? Int == 0, "\(bobs)")
        let entitlements = try #require(
            try storefront.object(["entitlements", "--account", "bob"])["entitlements"] as? [[String: Any]])
        #expect(entitlements.isEmpty, "Bob's app no longer has it: \(entitlements)")
    }
}
