import Foundation
internal import Receipts
import StoreCore

extension NotificationRules {
    /// The notifications Apple sends each family member as well when a shared subscription's
    /// billing fails or recovers (`DID_FAIL_TO_RENEW`, `DID_RENEW`/`BILLING_RECOVERY`): one per
    /// member the subscription is shared with, about the member's own latest shared transaction,
    /// with the purchaser's status. (A member's copy carries no renewal info: Docs/decisions/0130.)
    static func familyCopies(
        of made: [StoredNotification], before: JournalState, writing records: [JournalRecord], now: Date
    ) -> [StoredNotification] {
        var shares = before.family.shares
        for record in records { if let share = record.family?.share { shares[share.key] = share } }
        var copies: [StoredNotification] = []
        for n in made
        where n.notificationType == .didFailToRenew
            || (n.notificationType == .didRenew && n.subtype == .billingRecovery)
        {
            guard let t = n.transaction, t.ownershipType == .purchased else { continue }
            for share in shares.values.sorted(by: { $0.memberID < $1.memberID })
            where share.purchaserOriginalTransactionID == t.originalTransactionID && share.purchaserID == n.accountID
                && share.revocationDate == nil
            {
                guard let latest = memberTransaction(of: share, before: before, writing: records) else { continue }
                var copy = StoredNotification(
                    type: n.notificationType, subtype: n.subtype, now: now, accountID: share.memberID,
                    transaction: latest)
                copy.status = n.status
                copies.append(copy)
            }
        }
        return copies
    }

    /// The member's latest transaction of a share as the write leaves it.
    private static func memberTransaction(
        of share: FamilyShare, before: JournalState, writing records: [JournalRecord]
    ) -> StoreCore.Transaction? {
        let written = records.compactMap(\.entry).last {
            $0.accountID == share.memberID && $0.transaction.originalTransactionID == share.memberOriginalTransactionID
        }
        return written?.transaction
            ?? FamilyRules.memberEntries(of: share, in: before).last(where: { $0.transaction.state == .purchased })?
            .transaction
    }
}
