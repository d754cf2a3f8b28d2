import Catalog
import Foundation
import StoreCore
import TestSupport
import Testing

@testable import LocalAppStore

/// StoreKit 2's refund requests and offer codes through the engine over the real local store:
/// the app asks, the Transaction Manager (here or in another process) decides, and the app
/// hears the decision once on its event stream, an approval also as the revoked transaction.
@Suite(.timeLimit(.minutes(10)))
struct RefundRequestAndCodeEngineTests {
    let demo: DemoEngine

    init() throws { demo = try DemoEngine() }

    /// The next refund decision on `events`, skipping other events.
    func nextDecision(_ events: inout AsyncStream<StoreEvent>.Iterator) async -> RefundDecision? {
        while let event = await events.next() {
            if case .refundRequestDecided(let decision) = event { return decision }
        }
        return nil
    }

    @Test func anApprovedRequestRevokesTheTransactionAndTheAppHearsBoth() async throws {
        let (backend, store) = try await demo.launch()
        var events = store.events().makeAsyncIterator()
        var updates = store.transactionUpdates().makeAsyncIterator()
        let bought = try #require(await store.purchase(DemoCatalog.removeAds).transaction)
        #expect(try await store.beginRefundRequest(for: bought.transactionID) == .success)
        do {
            _ = try await store.beginRefundRequest(for: bought.transactionID)
            Issue.record("a second request was taken")
        } catch {
            #expect(error == .duplicateRequest(transactionID: bought.transactionID))
        }
        let request = try #require(try await backend.refundRequests.all().first)
        #expect(request.status == .pending && request.transactionID == bought.transactionID)
        demo.clock.advance(by: 60)
        try await backend.refundRequests.approve(request.id, reason: 1)
        let decision = try #require(await nextDecision(&events))
        #expect(
            decision.isApproved && decision.transactionID == bought.transactionID && decision.date == demo.clock.now)
        let revoked = try #require(await updates.next())
        #expect(
            revoked.transactionID == bought.transactionID && revoked.revocationDate == demo.clock.now
                && revoked.revocationReason == 1)
        #expect(try await store.isPurchased(DemoCatalog.removeAds) == false)
    }

    @Test func aDeclineMadeByAnotherProcessReachesTheAppOnce() async throws {
        let (_, store) = try await demo.launch()
        var events = store.events().makeAsyncIterator()
        let bought = try #require(await store.purchase(DemoCatalog.removeAds).transaction)
        _ = try await store.beginRefundRequest(for: bought.transactionID)
        // The Transaction Manager in another process: its own store instance on the demo.directory.
        let manager = try makeStore(demo.directory, catalog: demo.catalog, clock: demo.clock)
        let request = try #require(try await manager.refundRequests.all().first)
        try await manager.refundRequests.decline(request.id)
        await store.synchronize()
        let decision = try #require(await nextDecision(&events))
        #expect(!decision.isApproved && decision.requestID == request.id)
        #expect(try await store.isPurchased(DemoCatalog.removeAds), "a declined refund leaves the purchase")
        #expect(try await manager.refundRequests.all().first?.isDeliveredToApp == true)
        // Told once: a new launch does not hear it again.
        let (_, relaunched) = try await demo.launch()
        var later = relaunched.events().makeAsyncIterator()
        await relaunched.synchronize()
        _ = try await relaunched.beginRefundRequest(for: bought.transactionID)
        let next = try #require(try await manager.refundRequests.all().last)
        try await manager.refundRequests.decline(next.id)
        await relaunched.synchronize()
        #expect(await nextDecision(&later)?.requestID == next.id, "the first decision was not told again")
    }

    @Test func aRefundRequestForAnUnknownTransactionFails() async throws {
        let (_, store) = try await demo.launch()
        let error = await #expect(throws: RefundRequestError.self, "an unknown transaction took a refund request") {
            _ = try await store.beginRefundRequest(for: "999")
        }
        guard case .failed(let why)? = error else {
            Issue.record("expected .failed, got \(String(describing: error))")
            return
        }
        #expect(why.contains("999"))
    }

    @Test func redeemingACodeBuysTheSubscriptionAtTheOffersTermsOnce() async throws {
        let (backend, store) = try await demo.launch()
        let code = try #require(
            try await backend.offers.issueCodes(productID: DemoCatalog.pro, offerID: DemoCatalog.codeOffer).first)
        let verified = try await store.redeem(offerCode: code.code)
        #expect(verified.isVerified)
        let redeemed = verified.unsafePayloadValue
        // Apple's offer identifier for an offer code is the offer's reference name.
        #expect(
            redeemed.productID == DemoCatalog.pro && redeemed.offerType == .code
                && redeemed.offerID == DemoCatalog.codeOfferReferenceName)
        #expect(redeemed.price == 0 && redeemed.payment.offerCode == code.code)
        // Three free months.
        let expires = try #require(redeemed.expiresDate)
        #expect(expires > demo.clock.now.addingTimeInterval(80 * 24 * 3600))
        await #expect(throws: OfferCodeRedemptionError.self) { _ = try await store.redeem(offerCode: code.code) }
        do throws(OfferCodeRedemptionError) {
            _ = try await store.redeem(offerCode: code.code)
        } catch {
            guard case .failed(.ineligibleForOffer, nil) = error else {
                Issue.record("a code was redeemed twice: \(error)")
                return
            }
            #expect(
                error.description.hasPrefix("the code was not redeemed: The customer is not eligible for the offer: "))
        }
        do throws(OfferCodeRedemptionError) {
            _ = try await store.redeem(offerCode: "ABCDEFGHJKLM")
            Issue.record("an unknown code was redeemed")
        } catch {
            #expect(
                error
                    == .failed(.invalidOfferIdentifier("ABCDEFGHJKLM is not an offer code of this app"), nil))
        }
        let listed = try await backend.offers.codes()
        #expect(
            listed.first?.transactionID == redeemed.transactionID
                && listed.first?.redeemedBy == StoreAccount.localTester.id)
    }
}
