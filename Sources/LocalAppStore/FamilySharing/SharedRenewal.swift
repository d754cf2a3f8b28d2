import Foundation
import StoreCore

/// What a family member's renewal info of a shared subscription says, wherever it is signed
/// (the member's app, the App Store Server): the purchaser's, whose renewal decides the
/// member's, under the member's own original transaction ID (the one its transactions carry),
/// without the purchaser's app account token (the purchaser's app set it, for the purchaser's
/// account). Docs/decisions/0131-a-member-buying-what-the-family-shares.md.
enum SharedRenewal {
    /// Turns the purchaser's renewal info and details into the member's.
    /// - Parameters:
    ///   - info: the purchaser's renewal info, as of the moment asked.
    ///   - details: what the purchaser's signed renewal info says beyond `info`.
    ///   - memberOriginalTransactionID: the member's original transaction ID of the share.
    static func memberView(
        _ info: inout RenewalInfo, _ details: inout LocalReceiptIssuer.RenewalDetails,
        memberOriginalTransactionID: String
    ) {
        info.originalTransactionID = memberOriginalTransactionID
        details.appAccountToken = nil
    }

    /// The subscriptions family members share with the account, each with the account's
    /// original transaction ID of its share, in the order the shares began.
    static func shared(with accountID: String, in state: JournalState) -> [(StoredSubscription, String)] {
        state.family.orderedShares.compactMap { share in
            guard share.memberID == accountID, let stored = state.subscriptions[share.purchaserOriginalTransactionID]
            else { return nil }
            return (stored, share.memberOriginalTransactionID)
        }
    }
}
