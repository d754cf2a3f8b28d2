import Foundation
import TestSupport
import Testing

/// Family Sharing in a real terminal (tmux runs the built storefront): the organizer buys in the
/// storefront, the member's storefront (the data directory signed in to Bob) shows the purchase
/// "Shared by" its purchaser in My Purchases, and when the purchaser stops sharing from the CLI
/// the member's open storefront shows the sharing ended; the CLI says what the member's app then holds.
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
        try await organizer.quit(gone: "Remove Ads")

        // The data directory signs in to Bob: his storefront has the purchase, shared.
        #expect(try storefront.run(["store", "family", "sign-in", "bob"]).status == 0)
        let member = try await TUIEndToEndTests.open(storefront, width: 110, height: 32)
        defer { member.close() }
        try await member.waitFor(text: "Account: Bob")
        try await member.press("p", until: "Shared by Local Tester")

        // The purchaser stops sharing (another process): Bob's open storefront shows it.
        let off = try storefront.run(["store", "family", "share", Self.removeAds, "off", "--account", "local-tester"])
        #expect(off.status == 0, "\(off.stderr)")
        try await member.waitFor(text: "Sharing ended")
        try await member.quit(closing: 1)

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
