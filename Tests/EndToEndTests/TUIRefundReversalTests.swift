import Foundation
import TestSupport
import Testing

/// The Transaction Manager's refunded rows in a real terminal (tmux runs the built storefront):
/// purchases refunded from the CLI stay listed, marked refunded; the keys for a granting
/// purchase say why they do nothing; u reverses the refund (REFUND_REVERSED). The CLI, another
/// process on the same data directory, says what the store and the app then hold, as after
/// `store refund-reverse ID`.
@Suite(.waitsOnProcesses) struct TUIRefundReversalTests {
    static let removeAds = "com.storefront.demo.removeads"
    static let pro = "com.storefront.demo.premium.pro.monthly"

    func cli(_ args: [String], _ data: URL) throws -> Any {
        let result = try StorefrontProcess.run(
            args + ["--json"] + TUIEndToEndTests.arguments(data), cwd: TUIEndToEndTests.repositoryRoot)
        #expect(result.status == 0, "\(args): \(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    }

    func latest(_ product: String, _ data: URL) throws -> [String: Any] {
        try #require(try cli(["latest", product], data) as? [String: Any])
    }

    /// `TYPE` or `TYPE/SUBTYPE` of every notification the store made, oldest first.
    func sequence(_ data: URL) throws -> [String] {
        let all = try #require(try cli(["store", "notifications"], data) as? [[String: Any]])
        return all.compactMap { n in
            guard let type = n["notificationType"] as? String else { return nil }
            return (n["subtype"] as? String).map { "\(type)/\($0)" } ?? type
        }
    }

    @Test func refundedRowsAreMarkedAndUReversesTheirRefunds() async throws {
        let scratch = try TUIEndToEndTests.freshDataDirectory()
        let data = scratch.url
        // Notifications are journaled (no server runs here): the outbox shows what was caused.
        _ = try cli(["store", "set", "notification-url", "http://127.0.0.1:9/notifications"], data)
        let ads = try #require((try cli(["buy", Self.removeAds], data) as? [String: Any])?["transactionID"] as? String)
        let pro = try #require((try cli(["buy", Self.pro], data) as? [String: Any])?["transactionID"] as? String)
        _ = try cli(["store", "refund", ads], data)
        _ = try cli(["store", "refund", pro], data)
        #expect(try latest(Self.pro, data)["state"] as? String == "refunded")

        let tmux = try await TUITmux(width: 110, height: 32, directory: TUIEndToEndTests.repositoryRoot)
        defer { tmux.close() }
        try await TUIEndToEndTests.launch(tmux, dataDirectory: data)
        try tmux.keys("t")
        let manager = try await tmux.waitFor("both refunded rows") { $0.contains(ads) && $0.contains(pro) }
        for id in [ads, pro] {
            #expect(manager.split(separator: "\n").contains { $0.contains(id) && $0.contains("Refunded") }, "\(id): \(manager)")
        }
        #expect(manager.contains("u Reverse refund"), "\(manager)")

        // The newest purchase is first: the subscription. Renewing it says why not.
        try tmux.keys("n")
        try await tmux.waitFor(text: "was refunded: u reverses the refund")
        try tmux.keys("u")
        try await tmux.waitFor(text: "Refund of transaction \(pro) reversed")
        try await tmux.waitFor("the subscription renewing again") { screen in
            screen.split(separator: "\n").contains { $0.contains(pro) && $0.lowercased().contains("renews") }
        }
        let subscription = try #require((try cli(["store", "subscriptions"], data) as? [[String: Any]])?.first)
        #expect(subscription["expired"] as? Bool == false, "\(subscription)")
        let reinstated = try latest(Self.pro, data)
        #expect(reinstated["state"] as? String == "purchased" && reinstated["revocationDate"] == nil, "\(reinstated)")
        // A second u on a granting row refuses.
        try tmux.keys("u")
        try await tmux.waitFor(text: "is not refunded")

        try tmux.keys("Down")
        try tmux.keys("u")
        try await tmux.waitFor(text: "Refund of transaction \(ads) reversed")
        try await tmux.waitFor("the purchase owned again") { screen in
            screen.split(separator: "\n").contains { $0.contains(ads) && $0.contains("Owned") }
        }
        let owned = try latest(Self.removeAds, data)
        #expect(owned["state"] as? String == "purchased" && owned["revocationDate"] == nil, "\(owned)")
        let entitlements = try #require((try cli(["entitlements"], data) as? [String: Any])?["entitlements"] as? [[String: Any]])
        #expect(Set(entitlements.compactMap { $0["productID"] as? String }) == [Self.removeAds, Self.pro], "\(entitlements)")
        #expect(try sequence(data) == [
            "ONE_TIME_CHARGE", "SUBSCRIBED/INITIAL_BUY", "REFUND", "REFUND", "REFUND_REVERSED", "REFUND_REVERSED",
        ])

        try tmux.keys("Escape")
        try tmux.keys("q")
        try await tmux.waitFor("the shell prompt after quitting") { $0.contains(TUITmux.prompt) && !$0.contains("100 Coins") }
    }
}
