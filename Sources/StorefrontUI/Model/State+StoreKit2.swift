import Foundation
import StoreCore

/// StoreKit 2's pieces in the storefront: the app transaction (`i`), the storefront's updates.
extension State {
    /// Logs the storefront the engine reports moving to (StoreKit 2's `Storefront.updates`).
    mutating func storefrontChanged(_ storefront: Storefront) -> [Effect] {
        record(strings("Storefront is now {} (storefront ID {})", storefront.countryCode, storefront.id))
        return []
    }

    /// Redeems an offer code for the selected subscription: its purchase sheet opens and runs
    /// as for a purchase (a code is the store's, as App Store Connect issues them).
    mutating func redeemOfferCode() -> [Effect] {
        guard let product = selectedProduct else { return [] }
        guard product.type == .autoRenewable else {
            show(strings("{} is not an auto-renewable subscription", State.shownName(product)), kind: .error)
            return []
        }
        if let flow = flows[product.id], flow.phase < .done {
            modal = .purchase(productID: product.id)
            return []
        }
        var flow = PurchaseFlow(productID: product.id, hasDownloads: product.hasDownloads, quantity: 1)
        flow.phase = .contacting
        flows[product.id] = flow
        modal = .purchase(productID: product.id)
        return [.redeemOfferCode(productID: product.id)]
    }

    /// Reports the App Store's answer to a refund request the app made.
    mutating func refundRequestDecided(_ decision: RefundDecision) -> [Effect] {
        let text =
            decision.isApproved
            ? strings("Refund of {} approved", name(of: decision.productID))
            : strings("Refund of {} declined", name(of: decision.productID))
        report(text, kind: decision.isApproved ? .success : .error)
        return [.loadPurchases]
    }

    /// Shows the app transaction in the status line and the log: since when the account has
    /// the app, in which version, and whether its signature checked out.
    mutating func showAppTransaction(_ result: Result<VerificationResult<AppTransaction>, StoreError>) {
        switch result {
        case .success(let verification):
            let app = verification.unsafePayloadValue
            let verdict =
                verification.verificationError.map { strings("unverified: {}", $0.description) } ?? strings("verified")
            let text = strings(
                "App transaction {}: original version {}, since {} ({})", app.appTransactionID, app.originalAppVersion,
                Format.minute(app.originalPurchaseDate), verdict)
            show(text, kind: verification.isVerified ? .success : .error)
            record(text, isError: !verification.isVerified)
        case .failure(let error):
            fail(error)
        }
    }
}
