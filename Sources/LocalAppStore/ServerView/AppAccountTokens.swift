import Foundation
import StoreCore

/// Apple's Set App Account Token, as journal records: a pure function of the journal's
/// state, which the server view journals.
enum AppAccountTokens {
    /// The records that set the app account token of a purchase of `accountID` (by its
    /// original transaction ID): every transaction of it (and every renewal to come) carries
    /// the token, lowercase, as its `appAccountToken` from now on, in the app's signed
    /// transactions as in the server's, with the record of the request.
    /// - Returns: nil when the account has no such purchased original transaction.
    static func records(
        setting token: UUID, originalTransactionID: String, accountID account: String, in state: JournalState
    ) -> [JournalRecord]? {
        let text = token.uuidString.lowercased()
        guard let entry = state.entries[originalTransactionID], entry.accountID == account,
            entry.transaction.originalTransactionID == originalTransactionID,
            entry.transaction.state == .purchased
        else { return nil }
        var records: [JournalRecord] = []
        // Restorable products' periods and copies by their original ID; a consumable is its own.
        var purchase = state.entries(originalTransactionID: originalTransactionID)
        if !purchase.contains(where: { $0.id == entry.id }) { purchase.append(entry) }
        for var other in purchase
        where other.accountID == account && other.transaction.payment.applicationUsername != text {
            other.transaction = other.transaction.withApplicationUsername(text)
            records.append(JournalRecord.make(other))
        }
        let record = AppAccountTokenRecord(originalTransactionID: originalTransactionID, token: token)
        records.append(JournalRecord.make(ServerRecord(appAccountToken: record)))
        return records
    }
}

extension StoreCore.Transaction {
    /// This transaction with its payment's application username (the app account token) replaced.
    func withApplicationUsername(_ username: String?) -> StoreCore.Transaction {
        let p = payment
        return StoreCore.Transaction(
            transactionID: transactionID, originalTransactionID: originalTransactionID, productID: productID,
            productType: productType,
            payment: Payment(
                productID: p.productID, quantity: p.quantity, applicationUsername: username, orderData: p.orderData,
                offerID: p.offerID, requestID: p.requestID),
            state: state, purchaseDate: purchaseDate, originalPurchaseDate: originalPurchaseDate,
            expiresDate: expiresDate,
            revocationDate: revocationDate, revocationReason: revocationReason, webOrderLineItemID: webOrderLineItemID,
            price: price, currencyCode: currencyCode, storefront: storefront, signedTransaction: signedTransaction,
            error: error, subscriptionGroupID: subscriptionGroupID, isUpgraded: isUpgraded, offerType: offerType,
            offerID: offerID, ownershipType: ownershipType)
    }
}
