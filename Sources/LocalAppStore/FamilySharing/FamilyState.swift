import Foundation

/// The journal's `family` records added up: the accounts, the family, the sharing choices and
/// the shares. Part of `JournalState`, so compaction keeps them (each last version).
struct FamilyState: Sendable {
    /// Every account added, by ID, and the order they were added in.
    private(set) var accounts: [String: StoreAccount] = [:]
    private var accountOrder: [String] = []
    /// The family, if there is one.
    private(set) var roster: FamilyRoster?
    /// The products purchasers stopped sharing (account and product, joined by U+001F).
    private var notShared: Set<String> = []
    private var choices: [String: SharingChoice] = [:]
    private var choiceOrder: [String] = []
    /// Every share, by `FamilyShare.key`, the order they began in, and the key of each member
    /// original transaction ID.
    private(set) var shares: [String: FamilyShare] = [:]
    private var shareOrder: [String] = []
    private var byMemberOriginal: [String: String] = [:]

    mutating func apply(_ record: FamilyRecord) {
        if let account = record.account {
            if accounts.updateValue(account, forKey: account.id) == nil { accountOrder.append(account.id) }
        }
        if let roster = record.roster { self.roster = roster.memberIDs.isEmpty ? nil : roster }
        if let choice = record.sharing {
            let key = choice.accountID + "\u{1F}" + choice.productID
            if choices.updateValue(choice, forKey: key) == nil { choiceOrder.append(key) }
            if choice.shares { notShared.remove(key) } else { notShared.insert(key) }
        }
        if let share = record.share {
            if shares.updateValue(share, forKey: share.key) == nil { shareOrder.append(share.key) }
            byMemberOriginal[share.memberOriginalTransactionID] = share.key
        }
    }

    /// The accounts added, in the order they were.
    var orderedAccounts: [StoreAccount] { accountOrder.compactMap { accounts[$0] } }

    /// Whether the purchaser shares the product (the default, until they turn it off).
    func shares(accountID: String, productID: String) -> Bool {
        !notShared.contains(accountID + "\u{1F}" + productID)
    }

    /// The share of a purchase with a member, ended or not.
    func share(purchaserOriginalTransactionID original: String, memberID: String) -> FamilyShare? {
        shares[FamilyShare.key(purchaserOriginalTransactionID: original, memberID: memberID)]
    }

    /// The share a member's transaction (by its original transaction ID) comes from.
    func share(memberOriginalTransactionID original: String) -> FamilyShare? {
        byMemberOriginal[original].flatMap { shares[$0] }
    }

    /// Every share, in the order they began.
    var orderedShares: [FamilyShare] { shareOrder.compactMap { shares[$0] } }

    /// The shares still running.
    var activeShares: [FamilyShare] { orderedShares.filter { $0.revocationDate == nil } }

    /// The records that rebuild this state.
    var snapshot: [FamilyRecord] {
        orderedAccounts.map { FamilyRecord(account: $0) }
            + (roster.map { [FamilyRecord(roster: $0)] } ?? [])
            + choiceOrder.compactMap { choices[$0] }.map { FamilyRecord(sharing: $0) }
            + orderedShares.map { FamilyRecord(share: $0) }
    }
}
