import Crypto
import Foundation
import TestSupport
import Testing

/// StoreKit 2's purchase options, offer codes, win-back offers and refund requests through the
/// real binary: `buy --offer --signed`, `store sign-offer` and its four parts on `buy`, the
/// App Store's refusals, `store issue-codes` / `codes` / `redeem`, and `refund-request` with the
/// Transaction Manager's `approve-refund` / `decline-refund`.
@Suite struct StoreKit2OfferCommandTests {
    static let winBack = "com.storefront.demo.premium.pro.winback"
    let cli: StorefrontCLI

    init() throws { cli = try StorefrontCLI(prefix: "sf-sk2") }

    func transaction(_ o: [String: Any]) throws -> [String: Any] { try #require(o["transaction"] as? [String: Any]) }

    @Test func aSignedOfferIsTakenOnceAndItsTokenIsInTheTransaction() throws {
        _ = try cli.object(["buy", DemoCatalog.basic])
        let signed = try cli.object([
            "store", "sign-offer", DemoCatalog.pro, DemoCatalog.comeback, "--app-account-token",
            "8C1A7A6F-2C5E-4E0B-9F3D-1B2A3C4D5E6F",
        ])
        let parts = [
            "--offer", DemoCatalog.comeback, "--key-id", try #require(signed["keyID"] as? String),
            "--nonce", try #require(signed["nonce"] as? String),
            "--timestamp", String(try #require(signed["timestamp"] as? Int)),
            "--signature", try #require(signed["signature"] as? String),
            "--app-account-token", "8C1A7A6F-2C5E-4E0B-9F3D-1B2A3C4D5E6F",
        ]
        let bought = try transaction(try cli.object(["buy", DemoCatalog.pro] + parts))
        #expect(bought["offerType"] as? String == "promotional" && bought["offerID"] as? String == DemoCatalog.comeback)
        #expect(bought["appAccountToken"] as? String == "8c1a7a6f-2c5e-4e0b-9f3d-1b2a3c4d5e6f")
        let replay = try cli.run(["buy", DemoCatalog.pro] + parts)
        #expect(
            replay.status == 1 && replay.stderr.contains("signature is invalid")
                && replay.stderr.contains("used already"), "\(replay.stderr)")
        let otherToken = try cli.run([
            "buy", DemoCatalog.pro, "--offer", DemoCatalog.comeback, "--signed", "--app-account-token",
            UUID().uuidString,
        ])
        #expect(otherToken.status == 0, "--signed signs for the token given: \(otherToken.stderr)")
        let incomplete = try cli.run(["buy", DemoCatalog.pro, "--offer", DemoCatalog.comeback, "--key-id", "X"])
        #expect(incomplete.status == 2 && incomplete.stderr.contains("--nonce"), "\(incomplete.stderr)")
    }

    /// App Store Connect's one In-App Purchase key serves the App Store Server API and offer
    /// signatures: the server's credentials name the store's subscription key, and a user's own
    /// key, once installed with `credentials --key`, signs offers the store accepts.
    @Test func theAPIKeyIsTheSubscriptionKeyAndAUsersOwnKeySignsOffers() throws {
        _ = try cli.object(["buy", DemoCatalog.basic])
        let made = try cli.object(["credentials"])
        let signed = try cli.object(["store", "sign-offer", DemoCatalog.pro, DemoCatalog.comeback])
        #expect(signed["keyID"] as? String == made["keyID"] as? String, "\(signed) \(made)")

        let keyID = "MYKEY12345"
        let key = try PrivateKey.generate(.p256)
        let file = cli.scratch.url.appendingPathComponent("SubscriptionKey_\(keyID).p8")
        try key.pemRepresentation().write(to: file, atomically: true, encoding: .utf8)
        let installed = try cli.object([
            "credentials", "--key", file.path, "--key-id", keyID, "--issuer-id", UUID().uuidString,
        ])
        #expect(
            installed["keyID"] as? String == keyID && installed["privateKeyPath"] as? String == file.path,
            "\(installed)")
        // Signed as the developer's server signs, by Apple's rule: the parts joined by U+2063.
        let bundleID = try #require(installed["bundleID"] as? String)
        let nonce = UUID().uuidString.lowercased()
        let timestamp = Int64(Date().timeIntervalSince1970 * 1000)
        let text = [bundleID, keyID, DemoCatalog.pro, DemoCatalog.comeback, "", nonce, String(timestamp)].joined(
            separator: "\u{2063}")
        let signature = Data(try key.signSHA256(Array(text.utf8))).base64EncodedString()
        let bought = try transaction(
            try cli.object([
                "buy", DemoCatalog.pro, "--offer", DemoCatalog.comeback, "--key-id", keyID, "--nonce", nonce,
                "--timestamp", String(timestamp), "--signature", signature,
            ]))
        #expect(
            bought["offerType"] as? String == "promotional" && bought["offerID"] as? String == DemoCatalog.comeback,
            "\(bought)")
    }

    @Test func aForgedSignatureAndAnUnknownKeyAreRefused() throws {
        _ = try cli.object(["buy", DemoCatalog.basic])
        let signed = try cli.object(["store", "sign-offer", DemoCatalog.pro, DemoCatalog.comeback])
        let text = try #require(signed["signature"] as? String)
        var signature = Array(try #require(Data(base64Encoded: text)))
        signature[10] ^= 0x40
        let common = [
            "--offer", DemoCatalog.comeback, "--nonce", try #require(signed["nonce"] as? String),
            "--timestamp", String(try #require(signed["timestamp"] as? Int)), "--signature",
            Data(signature).base64EncodedString(),
        ]
        let forged = try cli.run(
            ["buy", DemoCatalog.pro, "--key-id", try #require(signed["keyID"] as? String)] + common)
        #expect(forged.status == 1 && forged.stderr.contains("does not match"), "\(forged.stderr)")
        let unknown = try cli.run(["buy", DemoCatalog.pro, "--key-id", "NOSUCHKEY1"] + common)
        #expect(unknown.status == 1 && unknown.stderr.contains("NOSUCHKEY1"), "\(unknown.stderr)")
        #expect(try cli.array(["store", "charges"]).count == 1, "only Basic was charged")
    }

    @Test func anIssuedCodeIsRedeemedOnceAtTheOffersTerms() throws {
        let issued = try cli.array(["store", "issue-codes", DemoCatalog.pro, DemoCatalog.codeOffer, "--count", "2"])
        #expect(issued.count == 2)
        let code = try #require(issued.first?["code"] as? String)
        #expect(code.count == 12 && issued.allSatisfy { $0["redeemedAt"] is NSNull })
        let redeemed = try transaction(try cli.object(["redeem", code.lowercased()]))
        #expect(redeemed["productID"] as? String == DemoCatalog.pro && redeemed["offerType"] as? String == "code")
        #expect(
            redeemed["offerID"] as? String == DemoCatalog.codeOfferReferenceName && redeemed["price"] as? String == "0")
        let again = try cli.run(["redeem", code])
        #expect(again.status == 1 && again.stderr.contains("redeemed already"), "\(again.stderr)")
        let listed = try cli.array(["store", "codes"])
        #expect(
            listed.first { $0["code"] as? String == code }?["transactionID"] as? String == redeemed["transactionID"]
                as? String)
        let bogus = try cli.run(["redeem", "NOTACODE0000"])
        #expect(bogus.status == 1 && bogus.stderr.contains("not an offer code"), "\(bogus.stderr)")
        // The offer is for new and lapsed subscribers: a current one may not take the second code.
        let second = try #require(issued.last?["code"] as? String)
        let current = try cli.run(["redeem", second])
        #expect(current.status == 1 && current.stderr.contains("not eligible"), "\(current.stderr)")
    }

    @Test func aWinBackOfferIsForLapsedSubscribersOnly() throws {
        let newcomer = try cli.run(["buy", DemoCatalog.pro, "--win-back", Self.winBack])
        #expect(newcomer.status == 1 && newcomer.stderr.contains("lapsed subscribers"), "\(newcomer.stderr)")
        let first = try cli.buy(DemoCatalog.basic)
        #expect(try cli.run(["store", "expire", first]).status == 0)
        let back = try transaction(try cli.object(["buy", DemoCatalog.pro, "--win-back", Self.winBack]))
        #expect(back["offerType"] as? String == "winBack" && back["offerID"] as? String == Self.winBack)
        #expect(back["price"] as? String == "4.99")
    }

    @Test func aRefundRequestWaitsForTheTransactionManagerAndApprovalRevokes() throws {
        let id = try cli.buy(DemoCatalog.basic)
        #expect(try cli.object(["refund-request", id])["status"] as? String == "success")
        let duplicate = try cli.run(["refund-request", id])
        #expect(duplicate.status == 1 && duplicate.stderr.contains("requested already"), "\(duplicate.stderr)")
        let requests = try cli.array(["store", "refund-requests"])
        #expect(requests.count == 1 && requests[0]["status"] as? String == "pending")
        let requestID = try #require(requests[0]["id"] as? String)
        #expect(
            try cli.object(["store", "approve-refund", requestID, "--reason", "1"])["status"] as? String == "approved")
        let latest = try cli.object(["latest", DemoCatalog.basic])
        #expect(latest["state"] as? String == "refunded" && latest["revocationReason"] as? Int == 1, "\(latest)")
        let twice = try cli.run(["store", "decline-refund", requestID])
        #expect(twice.status == 1 && twice.stderr.contains("No pending refund request"), "\(twice.stderr)")
    }

    @Test func aDeclinedRefundLeavesTheTransactionAndMayBeAskedAgain() throws {
        let id = try cli.buy("com.storefront.demo.removeads")
        _ = try cli.object(["refund-request", id])
        let requestID = try #require(try cli.array(["store", "refund-requests"]).first?["id"] as? String)
        #expect(try cli.object(["store", "decline-refund", requestID])["status"] as? String == "declined")
        #expect(try cli.object(["latest", "com.storefront.demo.removeads"])["state"] as? String == "purchased")
        #expect(try cli.object(["refund-request", id])["status"] as? String == "success")
    }
}
