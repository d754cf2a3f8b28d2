import Foundation

/// RMAppReceipt's questions about a receipt's in-app purchases. They read the receipt as it
/// is: verify it first (`ReceiptValidator`, or StoreCore's `AppReceiptVerifier.validate`).
extension AppReceipt {
    /// The in-app purchases of `productID`, in the order the receipt lists them.
    public func inAppPurchases(ofProductID productID: String) -> [InAppPurchaseReceipt] {
        inApp.filter { $0.productID == productID }
    }

    /// Whether the receipt holds an in-app purchase of `productID`, refunded ones included
    /// (RMAppReceipt's `containsInAppPurchaseOfProductIdentifier:`).
    public func containsInAppPurchase(ofProductID productID: String) -> Bool {
        inApp.contains { $0.productID == productID }
    }

    /// Whether the receipt holds an auto-renewable subscription of `productID` active at
    /// `date` (RMAppReceipt's `containsActiveAutoRenewableSubscriptionOfProductIdentifier:forDate:`).
    public func containsActiveAutoRenewableSubscription(ofProductID productID: String, at date: Date) -> Bool {
        inApp.contains { $0.productID == productID && $0.isActiveAutoRenewableSubscription(at: date) }
    }
}

extension InAppPurchaseReceipt {
    /// Whether this is an auto-renewable subscription period that covers `date`: purchased at
    /// or before it, expiring after it, and not refunded (RMAppReceiptIAP's
    /// `isActiveAutoRenewableSubscriptionForDate:`; the period ends at its expiry, exclusive).
    public func isActiveAutoRenewableSubscription(at date: Date) -> Bool {
        guard cancellationDate == nil, let expiresDate else { return false }
        if let purchaseDate, purchaseDate > date { return false }
        return date < expiresDate
    }
}
