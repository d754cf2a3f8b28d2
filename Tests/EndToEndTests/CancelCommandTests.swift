import Foundation
import TestSupport
import Testing

/// `storefront cancel` and the retention verbs of `storefront store`, through the real binary:
/// the customer's cancel without a realtime URL, and every bad input with its message, word for
/// word, changing nothing.
@Suite(.waitsOnProcesses) struct CancelCommandTests {
    let cli: StorefrontCLI
    let basic = "com.storefront.demo.premium.basic.monthly"

    init() throws { cli = try StorefrontCLI(prefix: "sf-cancel") }

    func renews(_ original: String) throws -> Bool? {
        try cli.array(["store", "subscriptions"]).first { $0["originalTransactionID"] as? String == original }?[
            "willAutoRenew"] as? Bool
    }

    @Test func withoutARealtimeURLOrADefaultMessageTheCustomerSeesNoMessageAndCancels() throws {
        let original = try cli.buy(basic)
        let cancelled = try cli.run(["cancel", basic])
        #expect(cancelled.status == 0, "\(cancelled.stderr)")
        let lines = cancelled.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            Array(lines.prefix(3)) == [
                "(no retention message)", "Cancel anyway: --choice cancel (the default)",
                "(no message is shown: no realtime URL is configured for Sandbox)",
            ])
        #expect(lines[3].hasPrefix("Cancelled subscription \(original): auto-renew is off; access continues until "))
        #expect(try renews(original) == false)
        let log = try cli.array(["store", "retention-log"])
        #expect(log.count == 1)
        #expect(log.first?["shown"] as? String == "none")
        #expect(log.first?["url"] is NSNull)
        #expect(log.first?["choice"] as? String == "cancel")
        #expect(log.first?["fallbackReason"] as? String == "no realtime URL is configured for Sandbox")
        #expect(log.first?["userLocale"] as? String == "en-US")
    }

    @Test func badInputIsRefusedWithAClearMessageAndChangesNothing() throws {
        let original = try cli.buy(basic)
        let cases: [([String], Int32, String)] = [
            (
                ["cancel"], 2,
                "storefront: cancel needs exactly one subscription ID (see 'storefront store subscriptions').\n"
            ),
            (
                ["cancel", basic, "--choice", "maybe"], 2,
                "storefront: --choice must be offer, switch or cancel (got 'maybe').\n"
            ),
            (
                ["cancel", "com.storefront.demo.coins.100"], 1,
                "storefront: com.storefront.demo.coins.100 is not an auto-renewable subscription of this account; "
                    + "'storefront store subscriptions' lists them.\n"
            ),
            (
                ["cancel", basic, "--choice", "offer"], 1,
                "storefront: the App Store showed no promotional offer; nothing changed.\n"
            ),
            (
                ["cancel", basic, "--choice", "switch"], 1,
                "storefront: the App Store suggested no other subscription; nothing changed.\n"
            ),
        ]
        for (arguments, status, message) in cases {
            let result = try cli.run(arguments)
            #expect(result.status == status, "\(arguments)")
            #expect(result.stderr == message, "\(arguments)")
        }
        #expect(try renews(original) == true, "no refused cancel turned auto-renew off")
        _ = try cli.run(["cancel", basic])
        let again = try cli.run(["cancel", basic])
        #expect(again.status == 1)
        #expect(
            again.stderr
                == "storefront: The subscription \(original) does not renew (it ended, or auto-renew is off already).\n"
        )
    }

    @Test func theRetentionVerbsListReviewAndRefuseWhatIsNotThere() throws {
        let empty = try cli.run(["store", "retention"])
        #expect(empty.status == 0)
        #expect(empty.stdout == "No images.\nNo messages.\nNo default messages.\nNo realtime URL.\n")
        #expect(try cli.run(["store", "retention-log"]).stdout == "No realtime exchanges.\n")
        let bad = try cli.run(["store", "approve-message", "not-a-uuid"])
        #expect(bad.status == 2)
        #expect(
            bad.stderr.contains("ID must be the identifier (a UUID) of an upload (got 'not-a-uuid')."), "\(bad.stderr)")
        let unknown = "6f1c0a5e-7d3b-4c52-9a1e-2b3c4d5e6f70"
        let missing = try cli.run(["store", "reject-image", unknown])
        #expect(missing.status == 1)
        #expect(missing.stderr == "storefront: No image has the identifier \(unknown).\n")

        // A damaged state is named, and nothing is written over it.
        let state = cli.data.appendingPathComponent("store/retention/retention.json")
        try FileManager.default.createDirectory(
            at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{\"format\":\"storefront-retention-messaging\",\"version\":1,\"images\":7}".utf8).write(to: state)
        let damaged = try cli.run(["store", "retention"])
        #expect(damaged.status == 1)
        #expect(
            damaged.stderr.hasPrefix("storefront: \(state.path): is not a retention messaging state: $.images"),
            "\(damaged.stderr)")
        let review = try cli.run(["store", "approve-message", unknown])
        #expect(review.status == 1)
        #expect(
            try Data(contentsOf: state)
                == Data("{\"format\":\"storefront-retention-messaging\",\"version\":1,\"images\":7}".utf8))
    }
}
