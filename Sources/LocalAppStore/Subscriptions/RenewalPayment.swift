import Foundation
import StoreCore

/// The payment of a renewal the App Store made, which no caller queued: its request ID says
/// so, which is how a signed transaction tells `RENEWAL` from a customer's `PURCHASE` (an
/// upgrade, a resubscription) of the same subscription.
enum RenewalPayment {
    /// The payment of the renewal transaction `transactionID`; it keeps the subscriber's
    /// application username and app account token, as Apple's renewals do.
    static func make(
        productID: String, applicationUsername: String?, appAccountToken: UUID? = nil, transactionID: String
    ) -> Payment {
        Payment(
            productID: productID, applicationUsername: applicationUsername, requestID: prefix + transactionID,
            appAccountToken: appAccountToken)
    }

    /// Whether the App Store renewed this transaction (rather than the customer buying it).
    /// Renewals journaled by versions before this mark read as purchases.
    static func isRenewal(_ transaction: Transaction) -> Bool {
        transaction.productType == .autoRenewable && transaction.payment.requestID == prefix + transaction.transactionID
    }

    private static let prefix = "renewal:"
}
