import Catalog
import Crypto
import Foundation
import Receipts
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// Promotional offers signed by the developer's subscription key, judged by the local store as
/// the App Store judges them: Apple's text and separator, the key, the 24-hour timestamp, the
/// one-time nonce, and the app account token carried into the signed transaction.
@Suite(.timeLimit(.minutes(10)))
struct PromotionalOfferSignatureTests {
    static let token = UUID(uuidString: "8C1A7A6F-2C5E-4E0B-9F3D-1B2A3C4D5E6F")!

    struct App {
        let backend: LocalAppStore
        let store: Store
    }

    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    /// The engine over a store on the test's directory; the account subscribes to Basic, so
    /// Pro's promotional offer is open to it.
    func launch(subscribed: Bool = true) async throws -> App {
        let (backend, store) = try await demo.launch()
        if subscribed { _ = try #require(await store.purchase(DemoCatalog.basic).transaction) }
        return App(backend: backend, store: store)
    }

    func buyPro(
        _ app: App, offer: PromotionalOffer, token: UUID? = PromotionalOfferSignatureTests.token
    ) async -> PurchaseResult {
        await app.store.purchase(
            DemoCatalog.pro, options: PurchaseOptions(appAccountToken: token, promotionalOffer: offer))
    }

    func signature(_ app: App, token: UUID? = PromotionalOfferSignatureTests.token) throws -> PromotionalOffer {
        try app.backend.offers.signPromotionalOffer(
            productID: DemoCatalog.pro, offerID: DemoCatalog.comeback, appAccountToken: token)
    }

    func charges(_ app: App) async throws -> Int { try await app.backend.transactionManager.charges().count }

    @Test func theSignatureIsECDSAOverApplesFieldsJoinedByTheInvisibleSeparator() async throws {
        let app = try await launch(subscribed: false)
        let offer = try signature(app)
        // Apple's order: bundle ID, key ID, product ID, offer ID, app account token (lowercase),
        // nonce (lowercase), timestamp, joined by U+2063; written out here, not through the code.
        let text =
            "com.storefront.demo" + "\u{2063}" + offer.keyID + "\u{2063}" + DemoCatalog.pro + "\u{2063}"
            + DemoCatalog.comeback
            + "\u{2063}" + "8c1a7a6f-2c5e-4e0b-9f3d-1b2a3c4d5e6f" + "\u{2063}" + offer.nonce.uuidString.lowercased()
            + "\u{2063}" + String(offer.timestamp)
        let keyFile = try app.backend.offers.subscriptionKeyURL()
        #expect(keyFile.lastPathComponent == "SubscriptionKey_\(offer.keyID).p8")
        let publicKey = try PublicKey(of: PrivateKey(pem: String(contentsOf: keyFile, encoding: .utf8)))
        #expect(try publicKey.verifySHA256(signature: Array(offer.signature), message: Array(text.utf8)))
        #expect(offer.timestamp == Int64(demo.clock.now.timeIntervalSince1970 * 1000))
        let mode = try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aGoodSignatureAppliesTheOfferAndTheTokenReachesTheSignedTransaction() async throws {
        let app = try await launch()
        let bought = try #require(await buyPro(app, offer: try signature(app)).transaction)
        #expect(bought.offerType == .promotional && bought.offerID == DemoCatalog.comeback)
        #expect(bought.appAccountToken == Self.token)
        let jws = try #require(bought.signedTransaction)
        let payload = String(decoding: try #require(Base64URL.decode(jws.split(separator: ".")[1])), as: UTF8.self)
        #expect(payload.contains(#""appAccountToken":"8c1a7a6f-2c5e-4e0b-9f3d-1b2a3c4d5e6f""#), "\(payload)")
        #expect(
            payload.contains(#""offerIdentifier":"\#(DemoCatalog.comeback)""#) && payload.contains(#""offerType":2"#),
            "\(payload)")
    }

    @Test func aChangedSignatureIsRefusedAndNothingIsCharged() async throws {
        let app = try await launch()
        var offer = try signature(app)
        var bytes = Array(offer.signature)
        bytes[bytes.count - 3] ^= 0x01
        offer.signature = Data(bytes)
        let result = await buyPro(app, offer: offer)
        guard case .failed(.invalidSignature, nil) = result else {
            Issue.record("a changed signature was not refused as invalidSignature: \(result)")
            return
        }
        #expect(StoreError.invalidSignature("").code == 12)
        #expect(try await charges(app) == 1, "only Basic")
    }

    @Test func aSignatureForAnotherAccountTokenIsRefused() async throws {
        let app = try await launch()
        let result = await buyPro(app, offer: try signature(app), token: UUID())
        guard case .failed(.invalidSignature(let why), _) = result else {
            Issue.record("a signature for another token was accepted: \(result)")
            return
        }
        #expect(why.contains("does not match"), "\(why)")
    }

    @Test func aNonceIsUsedOnceEvenAfterTheStoreIsOpenedAgain() async throws {
        let app = try await launch()
        let offer = try signature(app)
        _ = try #require(await buyPro(app, offer: offer).transaction)
        let again = await buyPro(app, offer: offer)
        guard case .failed(.invalidSignature(let why), _) = again else {
            Issue.record("a used nonce was accepted: \(again)")
            return
        }
        #expect(why.contains(offer.nonce.uuidString.lowercased()) && why.contains("used already"), "\(why)")
        // Another process, or the next launch, knows the nonce from the journal.
        let reopened = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        do {
            _ = try await reopened.add(
                Payment(productID: DemoCatalog.pro, appAccountToken: Self.token, promotionalOffer: offer))
            Issue.record("a reopened store took a used nonce")
        } catch {
            #expect(error.code == 12, "\(error)")
        }
    }

    @Test func aSignatureOlderThan24HoursIsRefusedOneYoungerIsTaken() async throws {
        let app = try await launch()
        let stale = try signature(app)
        demo.clock.advance(by: 24 * 60 * 60 + 1)
        let result = await buyPro(app, offer: stale)
        guard case .failed(.invalidSignature(let why), _) = result else {
            Issue.record("a stale signature was accepted: \(result)")
            return
        }
        #expect(why.contains("24 hours"), "\(why)")
        let young = try signature(app)
        demo.clock.advance(by: 24 * 60 * 60 - 1)
        #expect(await buyPro(app, offer: young).transaction?.offerID == DemoCatalog.comeback)
    }

    @Test func anUnknownKeyIDOrOfferIDIsRefusedAsTheAppStoreDoes() async throws {
        let app = try await launch()
        var unknownKey = try signature(app)
        unknownKey.keyID = "ZZZZZZZZZZ"
        guard case .failed(.invalidSignature(let why), _) = await buyPro(app, offer: unknownKey) else {
            Issue.record("an unknown key ID was accepted")
            return
        }
        #expect(why.contains("ZZZZZZZZZZ"), "\(why)")
        var unknownOffer = try signature(app)
        unknownOffer.offerID = "no.such.offer"
        let result = await buyPro(app, offer: unknownOffer)
        guard case .failed(.invalidOfferIdentifier(let reason), _) = result else {
            Issue.record("an unknown offer was accepted: \(result)")
            return
        }
        #expect(reason.contains("no.such.offer") && StoreError.invalidOfferIdentifier("").code == 11)
        #expect(try await charges(app) == 1)
    }

    @Test func aSignedOfferForAnAccountThatNeverSubscribedIsIneligible() async throws {
        let app = try await launch(subscribed: false)
        let result = await buyPro(app, offer: try signature(app))
        guard case .failed(.ineligibleForOffer(let why), _) = result else {
            Issue.record("a newcomer took a promotional offer: \(result)")
            return
        }
        #expect(why.contains("current or lapsed subscribers") && StoreError.ineligibleForOffer("").code == 18)
    }

    @Test func renewalsKeepTheAppAccountToken() async throws {
        let backend = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        try await backend.settings.set(name: "time-rate", value: "every-10-seconds")
        let store = try makeEngine(backend, in: demo.directory, clock: demo.clock)
        var updates = store.transactionUpdates().makeAsyncIterator()
        await store.start()
        let first = try #require(
            await store.purchase(DemoCatalog.basic, options: PurchaseOptions(appAccountToken: Self.token)).transaction)
        #expect(first.appAccountToken == Self.token)
        demo.clock.advance(by: 10)
        let renewal = try #require(await updates.next())
        #expect(renewal.transactionID != first.transactionID && renewal.appAccountToken == Self.token)
    }
}
