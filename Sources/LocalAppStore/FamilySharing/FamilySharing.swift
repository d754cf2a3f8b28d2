import Foundation
import StoreCore

/// Family Sharing: the accounts of the store, a family of an organizer and up to five
/// members, and the purchases its members share (`FamilyRules`). Sharing and revoking are
/// journal changes like any other: a member's `FAMILY_SHARED` transaction waits in the queue
/// until that member's app runs (or syncs, or restores) and takes it, once. Reach it as
/// `store.familySharing`; the signed-in account is the configuration's.
public struct FamilySharing: Sendable {
    let store: LocalAppStore

    /// The family, or nil when there is none.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func family() async throws(LocalAppStoreError) -> Family? {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return Self.family(in: store.state, signedIn: store.configuration.account)
        }
    }

    /// Every account one can sign in to: the default one (`local-tester`) and each added.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func accounts() async throws(LocalAppStoreError) -> [StoreAccount] {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            return Self.accounts(in: store.state, signedIn: store.configuration.account)
        }
    }

    /// Adds an account to the family (made with the signed-in account as its organizer when
    /// there is none): it gets a `FAMILY_SHARED` transaction of every shareable purchase of the
    /// family, and the family one of each of its own, in the same write.
    /// - Parameter account: the member; an account the store knows keeps its ID and takes this
    ///   name and storefront.
    /// - Returns: the family afterwards.
    /// - Throws: `.family` when the ID is invalid, the account is in the family or the family
    ///   is full; `.io` when the journal cannot be written.
    @discardableResult
    public func add(_ account: StoreAccount) async throws(LocalAppStoreError) -> Family {
        guard Self.isValidAccountID(account.id) else { throw .family(.invalidAccountID(account.id)) }
        return try await store.perform { store throws(LocalAppStoreError) in
            let signedIn = store.configuration.account
            let rules = FamilyRules(catalog: store.configuration.catalog, now: store.configuration.clock.now)
            let (roster, _) = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                var roster = state.family.roster ?? FamilyRoster(organizerID: signedIn.id, memberIDs: [])
                guard !roster.contains(account.id) else { throw .family(.alreadyInFamily(account.id)) }
                guard roster.memberIDs.count < FamilyRoster.maximumMembers else {
                    throw .family(.familyFull(members: FamilyRoster.maximumMembers))
                }
                roster.memberIDs.append(account.id)
                var records: [JournalRecord] = []
                if state.family.roster == nil, state.family.accounts[signedIn.id] == nil, signedIn != .localTester {
                    records.append(JournalRecord.make(FamilyRecord(account: signedIn)))
                }
                if state.family.accounts[account.id] != account {
                    records.append(JournalRecord.make(FamilyRecord(account: account)))
                }
                records.append(JournalRecord.make(FamilyRecord(roster: roster)))
                // The shares are drafted on the family as these records leave it.
                for record in records { _ = state.apply(record) }
                records += rules.join(account.id, roster: roster, in: state)
                return (records, roster)
            }
            return Self.family(of: roster, in: store.state, signedIn: signedIn)
        }
    }

    /// Removes an account from the family (a member leaving, or the organizer removing them):
    /// every share it gave or got ends, revoking the members' transactions now with reason 0
    /// (`REVOKE`). Removing the organizer ends the family. What the account bought stays its own.
    /// - Returns: the family afterwards, nil when it ended.
    /// - Throws: `.family(.notInFamily)`; `.io` when the journal cannot be written.
    @discardableResult
    public func remove(_ accountID: String) async throws(LocalAppStoreError) -> Family? {
        try await store.perform { store throws(LocalAppStoreError) in
            let rules = FamilyRules(catalog: store.configuration.catalog, now: store.configuration.clock.now)
            _ = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                guard var roster = state.family.roster, roster.contains(accountID) else {
                    throw .family(.notInFamily(accountID))
                }
                let ending = accountID == roster.organizerID
                roster.memberIDs.removeAll { $0 == accountID }
                if ending { roster.memberIDs = [] }
                let records = rules.end(
                    sharesWhere: { ending || $0.purchaserID == accountID || $0.memberID == accountID }, in: state)
                return (records + [JournalRecord.make(FamilyRecord(roster: roster))], ())
            }
            return Self.family(in: store.state, signedIn: store.configuration.account)
        }
    }

    /// Turns sharing of one of the signed-in account's products on or off (Apple's "Share with
    /// Family"): off revokes the members' transactions now with reason 0 (`REVOKE`); on shares
    /// the purchase with the family again, as new transactions.
    /// - Throws: `.family(.notShareable)` for a product Family Sharing cannot share;
    ///   `.unknownProduct`; `.io` when the journal cannot be written.
    public func setSharing(productID: String, on: Bool) async throws(LocalAppStoreError) {
        try await store.perform { store throws(LocalAppStoreError) in
            let account = store.accountID
            let rules = FamilyRules(catalog: store.configuration.catalog, now: store.configuration.clock.now)
            guard store.configuration.catalog.product(id: productID) != nil else { throw .unknownProduct(productID) }
            guard rules.isShareable(productID) else { throw .family(.notShareable(productID)) }
            _ = try store.transactAndAnnounce { state throws(LocalAppStoreError) in
                guard state.family.shares(accountID: account, productID: productID) != on else { return ([], ()) }
                let choice = JournalRecord.make(
                    FamilyRecord(sharing: SharingChoice(accountID: account, productID: productID, shares: on)))
                guard on else {
                    let ended = rules.end(
                        sharesWhere: { $0.purchaserID == account && $0.productID == productID }, in: state)
                    return ([choice] + ended, ())
                }
                var shared = state
                _ = shared.apply(choice)
                guard let roster = shared.family.roster, roster.contains(account) else { return ([choice], ()) }
                let again = rules.join(account, roster: roster, in: shared).filter {
                    $0.entry?.transaction.productID ?? $0.family?.share?.productID == productID
                }
                return ([choice] + again, ())
            }
        }
    }

    /// The account that shares the signed-in account's transaction, when it is `FAMILY_SHARED`.
    /// - Throws: `.io` or `.corrupt` when the journal cannot be read.
    public func sharer(of transaction: StoreCore.Transaction) async throws(LocalAppStoreError) -> StoreAccount? {
        try await store.perform { store throws(LocalAppStoreError) in
            try store.refresh()
            let state = store.state
            guard let share = state.family.share(memberOriginalTransactionID: transaction.originalTransactionID)
            else { return nil }
            return Self.account(share.purchaserID, in: state, signedIn: store.configuration.account)
        }
    }

    // MARK: - Reading the state

    static func family(in state: JournalState, signedIn: StoreAccount) -> Family? {
        state.family.roster.map { family(of: $0, in: state, signedIn: signedIn) }
    }

    static func family(of roster: FamilyRoster, in state: JournalState, signedIn: StoreAccount) -> Family {
        Family(
            organizer: account(roster.organizerID, in: state, signedIn: signedIn),
            members: roster.memberIDs.map { account($0, in: state, signedIn: signedIn) })
    }

    static func accounts(in state: JournalState, signedIn: StoreAccount) -> [StoreAccount] {
        let added = state.family.orderedAccounts
        return added.contains { $0.id == StoreAccount.localTester.id } ? added : [.localTester] + added
    }

    static func account(_ id: String, in state: JournalState, signedIn: StoreAccount) -> StoreAccount {
        if let added = state.family.accounts[id] { return added }
        if id == signedIn.id { return signedIn }
        if id == StoreAccount.localTester.id { return .localTester }
        return StoreAccount(id: id, displayName: id)
    }

    /// Whether `id` can name an account: 1 to 64 ASCII letters, digits, `.`, `_` or `-` (it
    /// names the account's folder in a data directory), not `.` or `..`.
    /// - Parameter id: the ID to check.
    /// - Returns: whether it is valid.
    public static func isValidAccountID(_ id: String) -> Bool {
        (1...64).contains(id.count) && id != "." && id != ".."
            && id.unicodeScalars.allSatisfy {
                $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0))
            }
    }

    /// The account with this ID among the store's accounts.
    /// - Parameter id: the account's ID.
    /// - Returns: the account.
    /// - Throws: `.family(.unknownAccount)` naming the known ones; `.io` or `.corrupt` when
    ///   the journal cannot be read.
    public func account(_ id: String) async throws(LocalAppStoreError) -> StoreAccount {
        let all = try await accounts()
        guard let account = all.first(where: { $0.id == id }) else {
            throw .family(.unknownAccount(id, known: all.map(\.id)))
        }
        return account
    }
}

extension LocalAppStore {
    /// Family Sharing: the accounts, the family and what its members share.
    public nonisolated var familySharing: FamilySharing { FamilySharing(store: self) }
}
