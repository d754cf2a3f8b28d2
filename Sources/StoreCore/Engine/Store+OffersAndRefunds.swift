import Foundation

/// StoreKit 2's offer codes and refund requests: `redeem(offerCode:)` (what
/// `AppStore.presentOfferCodeRedeemSheet` leads to) and `beginRefundRequest(for:)`.
extension Store {
    /// Redeems an offer code, as StoreKit's offer code redemption sheet does
    /// (`AppStore.presentOfferCodeRedeemSheet(from:options:)`, iOS 27): the store names the
    /// product the code is for, the code is bought with it at the offer's terms and delivered
    /// as any purchase (to observers and notifications; once), and the verified transaction it
    /// produced is returned. A code the store refuses before naming its product is broadcast as
    /// a failed payment of product "" with the code.
    /// - Parameters:
    ///   - offerCode: the code as the customer typed it.
    ///   - options: the purchase's other options (its app account token, its own observer…).
    /// - Returns: the transaction the redemption produced, verified.
    /// - Throws: `OfferCodeRedemptionError` saying why there is none: `.failed` with
    ///   `invalidOfferIdentifier` for an unknown code, `ineligibleForOffer` for one redeemed
    ///   already or not for this customer; `.pending`, `.unverified`, `.cancelled`, `.taskCancelled`.
    public func redeem(
        offerCode: String, options: PurchaseOptions = PurchaseOptions()
    ) async throws(OfferCodeRedemptionError) -> VerificationResult<Transaction> {
        switch await redemption(offerCode: offerCode, options: options) {
        case .purchased(let transaction): return .verified(transaction)
        case .pending(let transaction): throw .pending(transaction)
        case .unverified(let order): throw .unverified(order)
        case .cancelled(let transaction): throw .cancelled(transaction)
        case .taskCancelled(let transaction): throw .taskCancelled(transaction)
        case .failed(let error, let transaction): throw .failed(error, transaction)
        }
    }

    /// The purchase an offer code makes: its product, at the code's terms.
    private func redemption(offerCode: String, options: PurchaseOptions) async -> PurchaseResult {
        await start()
        let productID: String
        do {
            productID = try await backend.productForOfferCode(offerCode)
        } catch {
            // No product to name: the failure names the code.
            return refuse(Payment(productID: "", offerCode: offerCode), type: nil, error)
        }
        var options = options
        options.offerCode = offerCode
        options.offerID = nil
        options.promotionalOffer = nil
        options.winBackOfferID = nil
        return await purchase(productID, options: options)
    }

    /// Asks the App Store to refund a transaction (StoreKit 2's
    /// `Transaction.beginRefundRequest(for:in:)`). The decision comes later as
    /// `StoreEvent.refundRequestDecided` (observers, notifications, `events()`); an approved
    /// refund's revoked transaction also comes on `transactionUpdates()`.
    /// - Parameter transactionID: a transaction of the account.
    /// - Returns: `.success` once the request is queued at the store.
    /// - Throws: `RefundRequestError.duplicateRequest` when one was made already, `.failed`
    ///   when the store refuses or cannot take it.
    public func beginRefundRequest(for transactionID: String) async throws(RefundRequestError) -> RefundRequestStatus {
        await start()
        return try await backend.beginRefundRequest(transactionID: transactionID)
    }
}
