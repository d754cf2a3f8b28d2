import Catalog
import Foundation
import StoreCore

/// What Family Sharing makes of the store's changes, as journal records: pure functions of the
/// journal's state (read under the write lock) and the catalog.
///
/// A `familyShareable` non-consumable or auto-renewable subscription that a family member is
/// charged for gives each other member a `FAMILY_SHARED` transaction of its own (its own
/// transaction ID; its own original transaction ID, which the member's shared renewals
/// continue; the purchaser's web order line item ID). A consumable, a non-shareable product, a
/// product its purchaser stopped sharing and a non-consumable the member bought themselves are
/// not shared.
/// What happens to the purchaser's transaction afterwards reaches the members' transactions of
/// the same period: a refund revokes them with the purchaser's reason (its reversal gives them
/// back), and a changed expiry date moves theirs. Ending a share (sharing turned off, a purchaser or a member leaving)
/// revokes the member's transactions now with reason 0, as Apple does.
/// Docs/decisions/0130-family-sharing.md says what Apple's documents leave open and how it was
/// chosen.
struct FamilyRules {
    let catalog: StoreKitConfiguration
    let now: Date

    // MARK: - The consequences of a write

    /// The records that share, revoke or update members' transactions after `records` are
    /// written on `before`: `StoreJournal` appends them to the same durable write, so a charge
    /// and its shares are journaled together or not at all.
    func records(before: JournalState, writing records: [JournalRecord]) -> [JournalRecord] {
        guard let roster = records.last(where: { $0.family?.roster != nil })?.family?.roster ?? before.family.roster
        else { return [] }
        var pass = Pass(rules: self, before: before, roster: roster, written: records)
        for entry in pass.lastEntries where entry.transaction.ownershipType == .purchased {
            pass.purchaserChanged(from: before.entries[entry.id], to: entry)
        }
        return pass.made
    }

    // MARK: - Changes of the family

    /// The records that give a member joining the family a share of every shareable purchase of
    /// the family, and the family a share of the member's own.
    func join(_ memberID: String, roster: FamilyRoster, in state: JournalState) -> [JournalRecord] {
        var pass = Pass(rules: self, before: state, roster: roster, written: [])
        let everyone = Set(roster.everyone)
        let purchases = state.entries(where: { $0.restorable(in: .sync) }).filter {
            everyone.contains($0.accountID) && $0.charged && $0.transaction.state == .purchased
                && $0.transaction.revocationDate == nil && $0.transaction.ownershipType == .purchased
                && ($0.transaction.expiresDate.map { $0 > now } ?? true)
        }
        // Each purchase's latest transaction grants now (a subscription's current period).
        var latest: [String: QueueEntry] = [:]
        for entry in purchases { latest[entry.transaction.originalTransactionID] = entry }
        for entry in purchases where latest[entry.transaction.originalTransactionID]?.id == entry.id {
            if entry.accountID == memberID {
                for other in roster.everyone where other != memberID { pass.share(entry, with: other) }
            } else {
                pass.share(entry, with: memberID)
            }
        }
        return pass.made
    }

    /// The records that end every running share `ends` picks: each member's transactions of
    /// the share are revoked now with reason 0, and the share records its end.
    func end(sharesWhere ends: (FamilyShare) -> Bool, in state: JournalState) -> [JournalRecord] {
        var records: [JournalRecord] = []
        for var share in state.family.activeShares where ends(share) {
            for var entry in Self.memberEntries(of: share, in: state) where entry.transaction.revocationDate == nil {
                entry.transaction.revocationDate = now
                entry.transaction.revocationReason = 0
                entry.finished = false
                records.append(JournalRecord.make(entry))
            }
            share.revocationDate = now
            records.append(JournalRecord.make(FamilyRecord(share: share)))
        }
        return records
    }

    /// A member's transactions of a share (its purchases, renewals and restored copies), oldest first.
    static func memberEntries(of share: FamilyShare, in state: JournalState) -> [QueueEntry] {
        state.entries(originalTransactionID: share.memberOriginalTransactionID).filter {
            $0.accountID == share.memberID
        }
    }

    /// The first transaction of the member's running share of a non-consumable, while it grants
    /// (a purchase of it is delivered again from it, without a charge, as an owned one is).
    static func sharedNonConsumable(
        _ productID: String, memberID: String, in state: JournalState
    ) -> StoreCore.Transaction? {
        guard
            let share = state.family.activeShares.first(where: { $0.memberID == memberID && $0.productID == productID }
            ),
            let first = state.entries[share.memberOriginalTransactionID]?.transaction, first.revocationDate == nil
        else { return nil }
        return first
    }

    /// Whether the catalog lets Family Sharing share the product.
    func isShareable(_ productID: String) -> Bool {
        guard let product = catalog.product(id: productID), product.familyShareable else { return false }
        let type = ProductLocalizer.type(of: product.kind)
        return type == .nonConsumable || type == .autoRenewable
    }

    // MARK: - One pass

    /// One pass over a write: the records it makes, and the transaction IDs it hands out.
    struct Pass {
        let rules: FamilyRules
        let before: JournalState
        let roster: FamilyRoster
        let written: [JournalRecord]
        private(set) var made: [JournalRecord] = []
        /// The next transaction ID: above every ID the state and the write hold.
        private var nextID: UInt64
        /// Shares made in this pass, by key.
        private var madeShares: [String: FamilyShare] = [:]
        /// Member transactions changed in this pass, by ID (the last version wins).
        private var changedMembers: Set<String> = []

        init(rules: FamilyRules, before: JournalState, roster: FamilyRoster, written: [JournalRecord]) {
            self.rules = rules
            self.before = before
            self.roster = roster
            self.written = written
            let highest = written.compactMap { $0.entry.flatMap { UInt64($0.id) } }.max()
            nextID = max(before.nextTransactionID, highest.map { $0 + 1 } ?? 0)
        }

        /// The last version of each entry the write holds, in the order they first appear.
        var lastEntries: [QueueEntry] {
            var last: [String: QueueEntry] = [:]
            var order: [String] = []
            for record in written where record.kind == .entry {
                guard let entry = record.entry else { continue }
                if last.updateValue(entry, forKey: entry.id) == nil { order.append(entry.id) }
            }
            return order.compactMap { last[$0] }
        }

        mutating func purchaserChanged(from old: QueueEntry?, to new: QueueEntry) {
            let t = new.transaction
            guard roster.contains(new.accountID) else { return }
            if new.charged, !(old?.charged ?? false), t.state == .purchased, t.revocationDate == nil {
                for member in roster.everyone where member != new.accountID { share(new, with: member) }
                return
            }
            guard let old else { return }
            if let date = t.revocationDate, old.transaction.revocationDate == nil {
                reviseShares(of: new) { member in
                    guard member.transaction.revocationDate == nil else { return false }
                    member.transaction.revocationDate = date
                    member.transaction.revocationReason = t.revocationReason
                    return true
                }
            } else if t.revocationDate == nil, let was = old.transaction.revocationDate {
                // A refund reversed: what it revoked of the members' grants again.
                reviseShares(of: new) { member in
                    guard member.transaction.revocationDate == was else { return false }
                    member.transaction.revocationDate = nil
                    member.transaction.revocationReason = nil
                    return true
                }
            } else if t.expiresDate != old.transaction.expiresDate, t.revocationDate == nil {
                reviseShares(of: new) { member in
                    guard member.transaction.expiresDate != t.expiresDate else { return false }
                    member.transaction.expiresDate = t.expiresDate
                    return true
                }
            }
        }

        /// Gives `memberID` its transaction of the purchase `entry`, unless the member has it
        /// otherwise (owns the non-consumable, or has it from another purchaser) or the purchaser
        /// does not share it. A subscription the member pays for itself does not stop a share:
        /// its status lists both (Docs/decisions/0131-a-member-buying-what-the-family-shares.md).
        mutating func share(_ entry: QueueEntry, with memberID: String) {
            let t = entry.transaction
            guard rules.isShareable(t.productID),
                before.family.shares(accountID: entry.accountID, productID: t.productID),
                before.ownedPurchase(accountID: memberID, productID: t.productID) == nil
            else { return }
            let key = FamilyShare.key(purchaserOriginalTransactionID: t.originalTransactionID, memberID: memberID)
            var share = madeShares[key] ?? before.family.shares[key]
            if share?.revocationDate != nil { share = nil }
            if share == nil, hasOtherShare(memberID, productID: t.productID) { return }
            let id = String(nextID)
            nextID += 1
            let continues = share != nil
            let original = share?.memberOriginalTransactionID ?? id
            let originalDate =
                continues ? before.entries[original]?.transaction.originalPurchaseDate ?? t.purchaseDate : rules.now
            let payment =
                continues && RenewalPayment.isRenewal(t)
                ? RenewalPayment.make(productID: t.productID, applicationUsername: nil, transactionID: id)
                : Payment(productID: t.productID, requestID: "family:" + id)
            let storefront = before.family.accounts[memberID]?.storefront ?? t.storefront
            let transaction = StoreCore.Transaction(
                transactionID: id, originalTransactionID: original, productID: t.productID,
                productType: t.productType, payment: payment, state: .purchased,
                purchaseDate: continues ? t.purchaseDate : rules.now, originalPurchaseDate: originalDate,
                expiresDate: t.expiresDate, webOrderLineItemID: t.webOrderLineItemID, price: 0,
                currencyCode: t.currencyCode, storefront: storefront, subscriptionGroupID: t.subscriptionGroupID,
                ownershipType: .familyShared)
            made.append(
                JournalRecord.make(
                    QueueEntry(
                        transaction: transaction, accountID: memberID, charged: false, finished: false, pending: nil,
                        owner: nil)))
            if share == nil {
                let new = FamilyShare(
                    purchaserID: entry.accountID, purchaserOriginalTransactionID: t.originalTransactionID,
                    memberID: memberID, memberOriginalTransactionID: id, productID: t.productID)
                madeShares[key] = new
                made.append(JournalRecord.make(FamilyRecord(share: new)))
            }
        }

        /// Applies `change` to each member's transaction of the purchaser's period `entry`
        /// grants (the same web order line item ID for a subscription), queuing the changed ones
        /// again so each member's app hears of it.
        private mutating func reviseShares(of entry: QueueEntry, change: (inout QueueEntry) -> Bool) {
            let t = entry.transaction
            for share in before.family.orderedShares
            where share.purchaserOriginalTransactionID == t.originalTransactionID
                && share.purchaserID == entry.accountID
            {
                for var member in FamilyRules.memberEntries(of: share, in: before)
                where member.transaction.webOrderLineItemID == t.webOrderLineItemID
                    && (member.transaction.state == .purchased || member.transaction.state == .restored)
                    && !changedMembers.contains(member.id)
                {
                    guard change(&member) else { continue }
                    member.finished = false
                    changedMembers.insert(member.id)
                    made.append(JournalRecord.make(member))
                }
            }
        }

        /// Whether another purchaser already shares the product with the member.
        private func hasOtherShare(_ memberID: String, productID: String) -> Bool {
            (before.family.activeShares + madeShares.values).contains {
                $0.memberID == memberID && $0.productID == productID && $0.revocationDate == nil
            }
        }
    }
}
